import { describe, expect, it } from 'vitest';
import { ProcessorError } from '../../contracts/errors/processor-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { IDENTITY_PROCESSOR } from '../../features/identity/identity.js';
import { assembleRequest } from '../../presets/assemble-request.js';
import { defaultPipeline } from '../../presets/pipelines.js';
import { createAgentTree } from '../agent/agent-tree.js';
import { llmAgent, sequentialAgent } from '../agent/define-agent.js';
import { recordTextReader } from '../session/artifact-rules.js';
import { createEvent } from '../session/create-event.js';
import { declareTool } from '../tools/tool.js';
import { withSystemBlock } from './draft.js';
import { findInRequest } from './find-in-request.js';
import { insertProcessor, removeProcessor, replaceProcessor, defineProcessor } from '../pipeline/pipeline.js';
import { requestToJson } from './request-json.js';

const clock = (() => {
  let n = 0;
  return { now: () => ++n, newId: () => `ev${++n}` };
})();
const userSays = (text: string) =>
  createEvent({ author: 'user', invocationId: 'inv', content: { role: 'user', parts: [{ text }] } }, clock);

describe('assembleRequest', () => {
  it('records where each system block sits and which state keys and artifacts filled it', async () => {
    const agent = llmAgent({
      name: 'writer',
      description: 'Writes.',
      instruction: 'Hi {user:name}, notes: {artifact.notes}{missing?}.',
    });
    const { request, provenance } = await assembleRequest({
      agents: agent,
      state: { 'user:name': 'Ada' },
      artifacts: recordTextReader({ notes: 'N1' }),
      events: [userSays('hello')],
    });
    expect(request.system).toBe(
      'Hi Ada, notes: N1.\n\nYou are an agent. Your internal name is "writer". The description about you is "Writes.".',
    );
    const [instruction, identity] = provenance.system;
    expect(request.system.slice(instruction?.start, instruction?.end)).toBe('Hi Ada, notes: N1.');
    expect(request.system.slice(identity?.start, identity?.end)).toMatch(/^You are an agent/);
    expect(instruction?.source.substitutions).toEqual([
      { placeholder: '{user:name}', start: 3, end: 6, kind: 'state', key: 'user:name', scope: 'user', present: true },
      { placeholder: '{artifact.notes}', start: 15, end: 17, kind: 'artifact', name: 'notes', present: true },
      {
        placeholder: '{missing?}',
        start: 17,
        end: 17,
        kind: 'state',
        key: 'missing',
        scope: 'session',
        present: false,
      },
    ]);
    expect(provenance.messages[0]?.[0]).toMatchObject({
      kind: 'history',
      eventIds: ['ev2'].map(() => expect.any(String)),
    });
  });

  it('moves the instruction into the messages when a static instruction is set, before the trailing user turns', async () => {
    const agent = llmAgent({
      name: 'a',
      staticInstruction: 'Reply as JSON: {"ok": true}',
      instruction: 'Today is {day}.',
    });
    const { request, provenance } = await assembleRequest({
      agents: agent,
      state: { day: 'Monday' },
      events: [userSays('q1')],
    });
    expect(request.system.startsWith('Reply as JSON: {"ok": true}\n\n')).toBe(true);
    expect(request.messages.map((message) => message.content[0])).toEqual([
      { text: 'Today is Monday.' },
      { text: 'q1' },
    ]);
    expect(provenance.messages[0]?.[0]?.kind).toBe('instruction');
  });

  it('calls an instruction provider for every request and uses its text as returned', async () => {
    let calls = 0;
    const agent = llmAgent({
      name: 'a',
      instruction: async (context) => {
        calls++;
        const list = context.state.get<number[]>('list') ?? [];
        list.push(99);
        return `call ${calls} for ${context.agentName}: {not_templated} ${list.length}`;
      },
    });
    const state = { list: [1, 2] };
    const first = await assembleRequest({ agents: agent, state });
    const second = await assembleRequest({ agents: agent, state });
    expect(first.request.system.split('\n\n')[0]).toBe('call 1 for a: {not_templated} 3');
    expect(second.request.system.split('\n\n')[0]).toBe('call 2 for a: {not_templated} 3');
    expect(state.list).toEqual([1, 2]);
  });

  it('uses only the root’s global instruction, and none when the root is a workflow agent', async () => {
    const child = llmAgent({ name: 'child', instruction: 'C', globalInstruction: 'ignored' });
    const root = llmAgent({ name: 'root', globalInstruction: 'G for {who}', subAgents: [child] });
    const { request } = await assembleRequest({ agents: root, agentName: 'child', state: { who: 'all' } });
    expect(request.system.startsWith('G for all\n\nC\n\nYou are an agent. Your internal name is "child".')).toBe(true);
    const workflow = sequentialAgent({
      name: 'flow',
      subAgents: [llmAgent({ name: 'step', instruction: 'S', globalInstruction: 'ignored' })],
    });
    expect((await assembleRequest({ agents: workflow, agentName: 'step' })).request.system.startsWith('S\n\n')).toBe(
      true,
    );
  });

  it('takes the model from the nearest LLM ancestor and the settings from the agent', async () => {
    const child = llmAgent({ name: 'child', generateConfig: { temperature: 0.2, maxOutputTokens: 100 } });
    const root = llmAgent({ name: 'root', model: 'gemini-2.5-flash', subAgents: [child] });
    expect((await assembleRequest({ agents: root, agentName: 'child' })).request.config).toEqual({
      model: 'gemini-2.5-flash',
      temperature: 0.2,
      maxOutputTokens: 100,
    });
  });

  it('declares transfer_to_agent first, then the agent’s tools in order', async () => {
    const tools = [
      declareTool({ name: 'search', description: 'Search.', parameters: { type: 'object' } }),
      declareTool({ name: 'calc', description: 'Calc.' }),
    ];
    const root = llmAgent({ name: 'root', tools, subAgents: [llmAgent({ name: 'helper' })] });
    const { request, provenance } = await assembleRequest({ agents: root });
    expect(request.tools.map((tool) => tool.name)).toEqual(['transfer_to_agent', 'search', 'calc']);
    expect(provenance.tools.map((source) => source.kind)).toEqual(['transfer', 'tool', 'tool']);
    expect(provenance.tools[2]?.field).toBe('tools[1]');
  });

  it('refuses to build a request for a workflow agent', async () => {
    const flow = sequentialAgent({ name: 'flow', subAgents: [llmAgent({ name: 'step' })] });
    await expect(assembleRequest({ agents: flow })).rejects.toBeInstanceOf(ValidationError);
  });

  it('names the processor and the agent when a processor fails', async () => {
    const error = await assembleRequest({
      agents: llmAgent({ name: 'reviewer', instruction: 'Review {draft_text}.' }),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProcessorError);
    expect(error).toMatchObject({
      processor: 'instructions',
      agent: 'reviewer',
      code: 'missing_state_key',
      message: "Processor 'instructions' failed for agent 'reviewer': Context variable not found: `draft_text`.",
    });
  });

  it('lets users insert, replace and remove processors', async () => {
    const clockBlock = defineProcessor({
      name: 'clock',
      process: (draft, context) =>
        withSystemBlock(draft, 'Time: fixed.', { kind: 'custom', processor: 'clock', agent: context.agent.name }),
    });
    const agent = llmAgent({ name: 'a', instruction: 'I' });
    const inserted = insertProcessor(defaultPipeline(), { after: IDENTITY_PROCESSOR }, clockBlock);
    const { request, trace } = await assembleRequest({ agents: agent, pipeline: inserted });
    expect(request.system).toBe('I\n\nYou are an agent. Your internal name is "a".\n\nTime: fixed.');
    expect(trace.map((step) => `${step.processor}:${step.systemBlocks}`)).toEqual([
      'instructions:1',
      'identity:1',
      'clock:1',
      'skills-listing:0',
      'contents:0',
      'context-blocks:0',
      'output-schema:0',
      'agent-transfer:0',
      'tools:0',
      'finalize:0',
    ]);
    expect(
      (await assembleRequest({ agents: agent, pipeline: removeProcessor(defaultPipeline(), IDENTITY_PROCESSOR) }))
        .request.system,
    ).toBe('I');
    expect(
      (
        await assembleRequest({
          agents: agent,
          pipeline: replaceProcessor(defaultPipeline(), IDENTITY_PROCESSOR, clockBlock),
        })
      ).request.system,
    ).toBe('I\n\nTime: fixed.');
    expect(() => removeProcessor(defaultPipeline(), 'nope')).toThrow(/no processor of that name/);
    expect(() =>
      insertProcessor(defaultPipeline(), { before: 'instructions' }, { ...clockBlock, name: 'identity' }),
    ).not.toThrow();
    await expect(assembleRequest({ agents: agent, pipeline: [clockBlock, clockBlock] })).rejects.toThrow(
      /two processors are named 'clock'/,
    );
  });

  it('gives byte-identical requests for the same definitions and session', async () => {
    const root = llmAgent({
      name: 'root',
      instruction: 'I {a} {b}',
      subAgents: [llmAgent({ name: 'z' }), llmAgent({ name: 'y' })],
    });
    const events = [userSays('hello'), userSays('again')];
    const one = await assembleRequest({ agents: root, state: { a: 1, b: { x: [1, 2] } }, events });
    const two = await assembleRequest({
      agents: createAgentTree(root),
      state: { b: { x: [1, 2] }, a: 1 },
      events: events.map((event) => ({ ...event })),
    });
    expect(JSON.stringify(requestToJson(two.request))).toBe(JSON.stringify(requestToJson(one.request)));
  });
});

describe('findInRequest', () => {
  it('gives the path and source of every occurrence', async () => {
    const tool = declareTool({
      name: 'lookup',
      description: 'Looks up a preview URL.',
      parameters: { type: 'object', properties: { url: { type: 'string', description: 'preview' } } },
    });
    const agent = llmAgent({ name: 'a', instruction: 'Mention the preview.', tools: [tool] });
    const assembled = await assembleRequest({
      agents: agent,
      events: [
        userSays('Where is the preview?'),
        createEvent(
          {
            author: 'a',
            content: {
              role: 'model',
              parts: [{ text: 'thinking' }, { functionCall: { id: 'c1', name: 'lookup', args: { url: 'preview' } } }],
            },
          },
          clock,
        ),
      ],
    });
    const found = findInRequest(assembled.request, 'preview', assembled.provenance);
    expect(found.map((occurrence) => `${occurrence.path} ${occurrence.source?.kind}`)).toEqual([
      'system instruction',
      'tools[0].description tool',
      'tools[0].parameters tool',
      'messages[0].content[0] history',
      'messages[1].content[1] history',
    ]);
    expect(findInRequest(assembled.request, 'absent text')).toEqual([]);
  });
});
