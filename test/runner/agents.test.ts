import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmAgent, loopAgent, parallelAgent, sequentialAgent } from '../../src/engine/agent/define-agent.js';
import { agentTool } from '../../src/engine/tools/agent-tool.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, describeEvents, testClock } from './helpers.js';

const exitLoop = functionTool({
  name: 'exit_loop',
  description: 'Ends the loop.',
  execute: (_args, context) => {
    context.actions.escalate = true;
    return { done: true };
  },
});

async function setup(options: Parameters<typeof createRunner>[0]) {
  const runner = createRunner({ ...testClock(), ...options });
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  return runner;
}

describe('transfer', () => {
  const math = llmAgent({ name: 'math_agent', description: 'Does arithmetic.' });
  const coordinator = () => llmAgent({ name: 'coordinator', instruction: 'Route.', subAgents: [math] });

  it('moves the conversation to the named agent within the invocation, and the next turn starts there', async () => {
    const model = createScriptedModel({
      rules: [
        {
          when: { agent: 'coordinator' },
          respond: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'math_agent' } } },
        },
        { when: { agent: 'math_agent' }, respond: { text: '408' } },
      ],
    });
    const runner = await setup({ agents: coordinator(), model });
    expect(describeEvents(await collect(runner, { message: '12 × 34?' }))).toEqual([
      'user: 12 × 34?',
      'coordinator: call transfer_to_agent({"agent_name":"math_agent"})',
      'coordinator: transfer_to_agent → {"result":null}',
      'math_agent: 408',
    ]);
    expect(model.agents).toEqual(['coordinator', 'math_agent']);
    await collect(runner, { message: 'and 2 × 3?' });
    expect(model.agents.at(-1)).toBe('math_agent');
    // math_agent sees the coordinator's turn retold as context, and its own answer as its own.
    expect(model.requests[1]?.messages.map((message) => message.role)).toEqual(['user', 'user', 'user']);
  });

  it('returns an unknown target to the model as an error, and stops after three tries instead of looping', async () => {
    const model = createScriptedModel({
      fallback: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'nobody' } } },
    });
    const runner = await setup({ agents: coordinator(), model });
    const events = await collect(runner, { message: 'x' });
    expect(describeEvents(events)[2]).toBe(
      'coordinator: transfer_to_agent → {"error":"Cannot transfer to \\"nobody\\": no such agent is reachable from coordinator. You can transfer to: math_agent."}',
    );
    expect(events.at(-1)).toMatchObject({ errorCode: 'transfer_failed' });
    expect(model.requests).toHaveLength(3);
  });
});

describe('workflow agents', () => {
  it("runs seed 001's generator → reviewer pipeline: the reviewer's instruction holds the generator's draft", async () => {
    const generator = llmAgent({
      name: 'generator_agent',
      instruction: 'Write a short paragraph about subject X.',
      outputKey: 'draft_text',
    });
    const reviewer = llmAgent({
      name: 'reviewer_agent',
      instruction: 'Please review the following draft: {draft_text}. Check for factual accuracy and provide feedback.',
    });
    const model = createScriptedModel({
      rules: [
        { when: { agent: 'generator_agent' }, respond: { text: 'Subject X was first described in 1901.' } },
        { when: { agent: 'reviewer_agent' }, respond: { text: 'The date needs a source.' } },
      ],
    });
    const runner = await setup({
      agents: sequentialAgent({ name: 'pipeline', subAgents: [generator, reviewer] }),
      model,
    });
    const events = await collect(runner, { message: 'Write about X' });
    expect(describeEvents(events)).toEqual([
      'user: Write about X',
      'generator_agent: Subject X was first described in 1901.',
      'reviewer_agent: The date needs a source.',
    ]);
    expect(events[1]?.actions.stateDelta).toEqual({ draft_text: 'Subject X was first described in 1901.' });
    expect(model.requests[1]?.system).toContain(
      'Please review the following draft: Subject X was first described in 1901.. Check for factual accuracy',
    );
  });

  it('loops until a sub-agent escalates, or until maxIterations', async () => {
    const writer = llmAgent({ name: 'writer', tools: [exitLoop] });
    let round = 0;
    const model = createScriptedModel({
      rules: [{ respond: () => (++round < 3 ? { text: `draft ${round}` } : { functionCall: { name: 'exit_loop' } }) }],
    });
    const runner = await setup({ agents: loopAgent({ name: 'refine', subAgents: [writer] }), model });
    const lines = describeEvents(await collect(runner, { message: 'go' }));
    expect(lines).toEqual([
      'user: go',
      'writer: draft 1',
      'writer: draft 2',
      'writer: call exit_loop({})',
      'writer: exit_loop → {"done":true}',
    ]);
    const bounded = await setup({
      agents: loopAgent({ name: 'refine', subAgents: [llmAgent({ name: 'writer' })], maxIterations: 2 }),
      model: createScriptedModel({ fallback: { text: 'again' } }),
    });
    expect(describeEvents(await collect(bounded, { message: 'go' }))).toEqual([
      'user: go',
      'writer: again',
      'writer: again',
    ]);
  });

  it('keeps parallel branches apart: each sees its own turns, not its siblings’', async () => {
    const model = createScriptedModel({
      rules: [{ respond: (_request, call) => ({ text: `answer from ${call.agentName}` }) }],
    });
    const researchers = parallelAgent({
      name: 'research',
      subAgents: [llmAgent({ name: 'alpha' }), llmAgent({ name: 'beta' })],
    });
    const summary = llmAgent({ name: 'summary', instruction: 'Summarize.' });
    const runner = await setup({ agents: sequentialAgent({ name: 'flow', subAgents: [researchers, summary] }), model });
    const events = await collect(runner, { message: 'topic' });
    expect(events.map((event) => `${event.author}@${event.branch ?? ''}`).sort()).toEqual([
      'alpha@research.alpha',
      'beta@research.beta',
      'summary@',
      'user@',
    ]);
    await collect(runner, { message: 'again' });
    const alphaSecond = model.requests.filter((_, index) => model.agents[index] === 'alpha')[1];
    const seen = JSON.stringify(alphaSecond?.messages);
    expect(seen).toContain('answer from alpha');
    expect(seen).not.toContain('answer from beta');
    const summarySees = JSON.stringify(model.requests[2]?.messages);
    expect(summarySees).toContain('answer from alpha');
    expect(summarySees).toContain('answer from beta');
  });
});

describe('temp: state', () => {
  it('is visible to every step of the invocation that wrote it, never stored, and gone afterwards', async () => {
    const remember = functionTool({
      name: 'remember',
      description: 'Keeps a note for this turn.',
      parameters: z.object({ note: z.string() }),
      execute: ({ note }, context) => {
        context.state.set('temp:note', note);
        context.state.set('kept', note.length);
        return { ok: true };
      },
    });
    const model = createScriptedModel([
      { functionCall: { name: 'remember', args: { note: 'page 3' } } },
      { text: 'noted' },
      { text: 'again' },
    ]);
    const sessions = (await import('../../src/engine/session/in-memory-session-store.js')).createInMemorySessionStore();
    const runner = await setup({
      agents: llmAgent({ name: 'a', instruction: 'Note: {temp:note?}. Kept: {kept?}.', tools: [remember] }),
      model,
      sessions,
    });
    await collect(runner, { message: 'remember' });
    expect(model.requests[0]?.system.startsWith('Note: . Kept: .')).toBe(true);
    expect(model.requests[1]?.system.startsWith('Note: page 3. Kept: 6.')).toBe(true);
    const stored = await sessions.getSession({ appName: 'a', userId: 'u1', sessionId: 's1' });
    expect(JSON.stringify(stored)).not.toContain('temp:note');
    await collect(runner, { message: 'next' });
    expect(model.requests[2]?.system.startsWith('Note: . Kept: 6.')).toBe(true);
  });

  it('accepts temp: keys with the user message, for that invocation only', async () => {
    const model = createScriptedModel({ fallback: { text: 'ok' } });
    const runner = await setup({ agents: llmAgent({ name: 'a', instruction: 'Mode: {temp:mode?}' }), model });
    await collect(runner, { message: 'one', stateDelta: { 'temp:mode': 'strict' } });
    await collect(runner, { message: 'two' });
    expect(model.requests.map((request) => request.system.split('\n')[0])).toEqual(['Mode: strict', 'Mode: ']);
  });
});

describe('callbacks', () => {
  it('lets beforeModel edit the request or answer instead of the model, and afterModel replace the answer', async () => {
    const model = createScriptedModel({ fallback: { text: 'from the model' } });
    let turn = 0;
    const agent = llmAgent({
      name: 'a',
      instruction: 'Base.',
      callbacks: {
        beforeModel: ({ request, context }) => {
          turn += 1;
          context.state.set('turns', turn);
          if (turn === 2) return { content: { role: 'model', parts: [{ text: 'cached answer' }] } };
          request.system += '\n\nEdited by a callback.';
          return undefined;
        },
        afterModel: ({ response }) =>
          turn === 3 ? { ...response, content: { role: 'model', parts: [{ text: 'rewritten' }] } } : undefined,
      },
    });
    const sessions = (await import('../../src/engine/session/in-memory-session-store.js')).createInMemorySessionStore();
    const runner = await setup({ agents: agent, model, sessions });
    const answers = [];
    for (const message of ['one', 'two', 'three'])
      answers.push(describeEvents(await collect(runner, { message })).at(-1));
    expect(answers).toEqual(['a: from the model', 'a: cached answer', 'a: rewritten']);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.system.endsWith('Edited by a callback.')).toBe(true);
    const key = { appName: 'a', userId: 'u1', sessionId: 's1' };
    expect((await sessions.listModelCalls(key)).map((call) => call.editedByCallback)).toEqual([true, true]);
    expect((await sessions.getSession(key))?.state).toEqual({ turns: 3 });
  });

  it('lets beforeTool skip a tool and afterTool change its result; beforeAgent can answer for the agent', async () => {
    const lookup = functionTool({ name: 'lookup', description: 'Looks up.', execute: () => ({ value: 'real' }) });
    const model = createScriptedModel([
      { functionCall: { name: 'lookup' } },
      { functionCall: { name: 'lookup' } },
      { text: 'done' },
    ]);
    let calls = 0;
    const agent = llmAgent({
      name: 'a',
      tools: [lookup],
      callbacks: {
        beforeTool: () => (++calls === 1 ? { value: 'stubbed' } : undefined),
        afterTool: ({ result }) => ({ ...result, checked: true }),
      },
    });
    const runner = await setup({ agents: agent, model });
    const lines = describeEvents(await collect(runner, { message: 'go' }));
    expect(lines.filter((line) => line.includes('→'))).toEqual([
      'a: lookup → {"value":"stubbed","checked":true}',
      'a: lookup → {"value":"real","checked":true}',
    ]);
    const gated = await setup({
      agents: llmAgent({
        name: 'gate',
        callbacks: { beforeAgent: () => ({ role: 'model', parts: [{ text: 'closed today' }] }) },
      }),
      model: createScriptedModel([]),
    });
    expect(describeEvents(await collect(gated, { message: 'open?' }))).toEqual(['user: open?', 'gate: closed today']);
  });
});

describe('agentTool', () => {
  it('runs an agent as a tool: description as the tool description, its answer as the result, its state changes passed back', async () => {
    const translator = llmAgent({
      name: 'translator',
      description: 'Translates English to French.',
      instruction: 'Translate.',
      outputKey: 'last_translation',
    });
    const model = createScriptedModel({
      rules: [
        {
          when: { agent: 'writer', call: 1 },
          respond: { functionCall: { name: 'translator', args: { request: 'good morning' } } },
        },
        { when: { agent: 'translator' }, respond: { text: 'bonjour' } },
        { when: { agent: 'writer' }, respond: { text: 'In French: bonjour.' } },
      ],
    });
    const runner = await setup({ agents: llmAgent({ name: 'writer', tools: [agentTool(translator)] }), model });
    const events = await collect(runner, { message: 'say good morning in French' });
    expect(model.requests[0]?.tools).toEqual([
      {
        name: 'translator',
        description: 'Translates English to French.',
        parameters: { type: 'object', properties: { request: { type: 'string' } }, required: ['request'] },
      },
    ]);
    expect(describeEvents(events)).toEqual([
      'user: say good morning in French',
      'writer: call translator({"request":"good morning"})',
      'writer: translator → {"result":"bonjour"}',
      'writer: In French: bonjour.',
    ]);
    expect(events[2]?.actions.stateDelta).toEqual({ last_translation: 'bonjour' });
  });
});
