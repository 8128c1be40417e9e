import { describe, expect, it } from 'vitest';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { type ReadonlyContext, assembleRequest, createRunner, GlobalInstructionPlugin, llmAgent } from '../../index.js';
import { createScriptedModel } from '../../models/scripted/scripted-model.js';
import type { Processor } from '../../pipeline.js';

// ADK Python's tests for the plugin (tests/unittests/plugins/test_global_instruction_plugin.py), as behaviour, then
// what they cannot show: the plugin through agentctx's runner and its provenance.

const existing = (text: string): Processor => ({
  name: 'existing',
  process: (draft, context) =>
    withSystemBlock(draft, text, { kind: 'instruction', processor: 'existing', agent: context.agent.name }),
});
const agent = llmAgent({ name: 'helper' });

async function systemWith(
  plugin: GlobalInstructionPlugin,
  system: string,
  state: Record<string, unknown> = {},
  userId = 'test_user',
): Promise<string> {
  const { request } = await assembleRequest({
    agents: agent,
    plugins: [plugin],
    pipeline: system === '' ? [] : [existing(system)],
    state,
    userId,
  });
  return request.system;
}

describe('GlobalInstructionPlugin', () => {
  it('puts a string instruction in an empty system instruction', async () => {
    expect(
      await systemWith(new GlobalInstructionPlugin('You are a helpful assistant with a friendly personality.'), ''),
    ).toBe('You are a helpful assistant with a friendly personality.');
  });

  it('calls an instruction provider with the read-only context, and uses its output as it is', async () => {
    const provider = async (context: ReadonlyContext) =>
      `You are assistant for user ${context.userId}. {not_templated}`;
    expect(await systemWith(new GlobalInstructionPlugin(provider), '', {}, 'alice')).toBe(
      'You are assistant for user alice. {not_templated}',
    );
  });

  it('leaves the system instruction alone when the instruction is empty, or a provider returns an empty text', async () => {
    expect(await systemWith(new GlobalInstructionPlugin(''), 'Original instruction')).toBe('Original instruction');
    expect(await systemWith(new GlobalInstructionPlugin(() => ''), 'Original instruction')).toBe(
      'Original instruction',
    );
  });

  it('leads the existing system instruction, a blank line between', async () => {
    expect(
      await systemWith(new GlobalInstructionPlugin('You are a helpful assistant.'), 'Existing instructions.'),
    ).toBe('You are a helpful assistant.\n\nExisting instructions.');
  });

  it('fills placeholders from state the way an instruction is filled, and fails the same way on a missing key', async () => {
    expect(
      await systemWith(new GlobalInstructionPlugin('Answer in {user:language}.'), 'Be brief.', {
        'user:language': 'French',
      }),
    ).toBe('Answer in French.\n\nBe brief.');
    await expect(systemWith(new GlobalInstructionPlugin('Answer in {user:language}.'), 'Be brief.')).rejects.toThrow(
      /Context variable not found: `user:language`/,
    );
  });

  it('prepends in plugin order: the second plugin leads, as each one prepends in turn', async () => {
    const { request } = await assembleRequest({
      agents: agent,
      plugins: [new GlobalInstructionPlugin('First.', 'first'), new GlobalInstructionPlugin('Second.', 'second')],
      pipeline: [existing('Body.')],
    });
    expect(request.system).toBe('Second.\n\nFirst.\n\nBody.');
  });

  it('goes before the deprecated globalInstruction field and ADK’s own order for every agent of a tree, attributed to the plugin', async () => {
    const math = llmAgent({ name: 'math_agent', description: 'Does arithmetic.', instruction: 'Compute.' });
    const root = llmAgent({
      name: 'coordinator',
      description: 'Root.',
      instruction: 'Root instruction.',
      globalInstruction: 'GLOBAL FIELD (deprecated) user={user:name}',
      subAgents: [math],
    });
    const plugin = new GlobalInstructionPlugin('GLOBAL PLUGIN user={user:name}');
    const model = createScriptedModel({
      rules: [
        {
          when: { agent: 'coordinator' },
          respond: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'math_agent' } } },
        },
        { when: { agent: 'math_agent' }, respond: { text: '408' } },
      ],
    });
    const runner = createRunner({ agents: root, model, plugins: [plugin] });
    await runner.createSession({ userId: 'u1', sessionId: 's1', state: { 'user:name': 'Ada' } });
    for await (const _event of runner.run({ userId: 'u1', sessionId: 's1', message: '12 × 34?' }));
    expect(model.agents).toEqual(['coordinator', 'math_agent']);
    const [first, second] = model.requests.map((request) => request.system);
    expect(first).toMatch(
      /^GLOBAL PLUGIN user=Ada\n\nGLOBAL FIELD \(deprecated\) user=Ada\n\nRoot instruction\.\n\nYou are an agent\. Your internal name is "coordinator"\./,
    );
    expect(second).toMatch(
      /^GLOBAL PLUGIN user=Ada\n\nGLOBAL FIELD \(deprecated\) user=Ada\n\nCompute\.\n\nYou are an agent\. Your internal name is "math_agent"\./,
    );
    const recorded = await runner.sessions.getModelCall({
      appName: 'coordinator',
      userId: 'u1',
      sessionId: 's1',
      index: 2,
    });
    const block = recorded?.provenance.system.find(
      (entry) => entry.source.kind === 'global-instruction' && entry.source.extension === 'global_instruction',
    );
    expect(block).toMatchObject({
      start: 0,
      end: 'GLOBAL PLUGIN user=Ada'.length,
      source: { processor: 'global_instruction', agent: 'math_agent', extension: 'global_instruction' },
    });
    expect(block?.source.substitutions).toEqual([
      { placeholder: '{user:name}', start: 19, end: 22, kind: 'state', key: 'user:name', scope: 'user', present: true },
    ]);
  });

  it('is in the request before the agents’ beforeModel callbacks see it, as in ADK', async () => {
    let seenByCallback = '';
    const watched = llmAgent({
      name: 'watched',
      instruction: 'Help.',
      callbacks: { beforeModel: ({ request }) => void (seenByCallback = request.system) },
    });
    const runner = createRunner({
      agents: watched,
      model: createScriptedModel([{ text: 'hi' }]),
      plugins: [new GlobalInstructionPlugin('Be kind.')],
    });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    for await (const _event of runner.run({ userId: 'u1', sessionId: 's1', message: 'hello' }));
    expect(seenByCallback).toBe('Be kind.\n\nHelp.\n\nYou are an agent. Your internal name is "watched".');
  });
});
