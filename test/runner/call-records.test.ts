import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Model } from '../../src/contracts/model.js';
import type { SessionKey } from '../../src/contracts/session.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { systemPieces } from '../../src/engine/assembly/provenance-pieces.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { agentTool } from '../../src/engine/tools/agent-tool.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { collect, runnerWithSession } from './helpers.js';

// Every model call is on record, from before it is sent to how it ended, nested agent-tool calls included.

const key: SessionKey = { appName: 'coordinator', userId: 'u1', sessionId: 's1' };

const setup = runnerWithSession;

describe('recorded model calls', () => {
  it('are stored pending before the model is asked, then answered with latency, response and usage', async () => {
    const sessions = createInMemorySessionStore();
    const seen: string[] = [];
    const inner = createScriptedModel([
      { text: 'Hello.', usage: { promptTokens: 12, outputTokens: 3, cachedTokens: 4 } },
    ]);
    const model: Model = {
      ...inner,
      generate: async (request, options) => {
        seen.push(...(await sessions.listModelCalls(key)).map((call) => call.status));
        return inner.generate(request, options);
      },
    };
    const runner = await setup({ agents: llmAgent({ name: 'coordinator', instruction: 'Greet.' }), model, sessions });
    const events = await collect(runner, { message: 'Hi' });
    expect(seen).toEqual(['pending']);
    const call = await sessions.getModelCall({ ...key, index: 1 });
    expect(call).toMatchObject({
      status: 'answered',
      model: { provider: 'scripted', modelId: inner.modelId },
      response: { content: { role: 'model', parts: [{ text: 'Hello.' }] } },
      usage: { promptTokens: 12, outputTokens: 3, cachedTokens: 4 },
      responseEventId: events[1]?.id,
    });
    expect(call?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(call?.wire).toBeUndefined();
  });

  it('record a failing model as failed, and a model past its time limit as timed_out', async () => {
    const failing: Model = { ...createScriptedModel([]), generate: () => Promise.reject(new Error('boom')) };
    const sessions = createInMemorySessionStore();
    await collect(
      await setup({ agents: llmAgent({ name: 'coordinator', instruction: 'Greet.' }), model: failing, sessions }),
      { message: 'Hi' },
    );
    expect(await sessions.getModelCall({ ...key, index: 1 })).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('boom'),
    });

    const slow: Model = { ...createScriptedModel([]), generate: () => new Promise(() => undefined) };
    const other = createInMemorySessionStore();
    await collect(
      await setup({
        agents: llmAgent({ name: 'coordinator', instruction: 'Greet.' }),
        model: slow,
        sessions: other,
        modelTimeoutMs: 30,
      }),
      { message: 'Hi' },
    );
    const timedOut = await other.getModelCall({ ...key, index: 1 });
    expect(timedOut).toMatchObject({ status: 'timed_out' });
    expect(timedOut?.request.messages[0]?.content).toEqual([{ text: 'Hi' }]);
  });

  it('record a cancelled call as aborted, with its request', async () => {
    const controller = new AbortController();
    const hanging: Model = {
      ...createScriptedModel([]),
      generate: (_request, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    };
    const sessions = createInMemorySessionStore();
    const runner = await setup({
      agents: llmAgent({ name: 'coordinator', instruction: 'Greet.' }),
      model: hanging,
      sessions,
    });
    await collect(runner, { message: 'Hi', signal: controller.signal });
    expect(await sessions.getModelCall({ ...key, index: 1 })).toMatchObject({
      status: 'aborted',
      request: { system: expect.stringContaining('Greet.') },
    });
  });

  it('include the calls an agent tool makes, in the calling session, linked to the tool call that asked', async () => {
    const sessions = createInMemorySessionStore();
    const model = createScriptedModel({
      rules: [
        { when: { agent: 'researcher' }, respond: { text: 'Open 9 to 5.' } },
        {
          when: { agent: 'coordinator' },
          times: 1,
          respond: { functionCall: { id: 'call-1', name: 'researcher', args: { request: 'opening hours' } } },
        },
      ],
      fallback: { text: 'Nine to five.' },
    });
    const researcher = llmAgent({ name: 'researcher', description: 'Finds facts.', instruction: 'Find facts.' });
    const runner = await setup({
      agents: llmAgent({ name: 'coordinator', instruction: 'Help.', tools: [agentTool(researcher)] }),
      model,
      sessions,
    });
    await collect(runner, { message: 'When do you open?' });
    const calls = await sessions.listModelCalls(key);
    expect(calls.map((call) => [call.index, call.agent, call.status, call.parent])).toEqual([
      [1, 'coordinator', 'answered', undefined],
      [2, 'researcher', 'answered', { callIndex: 1, functionCallId: 'call-1', tool: 'researcher' }],
      [3, 'coordinator', 'answered', undefined],
    ]);
    const nested = await sessions.getModelCall({ ...key, index: 2 });
    expect(nested?.request.messages.at(-1)?.content).toEqual([{ text: 'opening hours' }]);
  });

  it('include the calls of an agent a function tool runs through its context', async () => {
    const sessions = createInMemorySessionStore();
    const researcher = llmAgent({ name: 'researcher', description: 'Finds facts.', instruction: 'Find facts.' });
    const lookup = functionTool({
      name: 'lookup',
      description: 'Looks things up.',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }, context) => context.runAgent(researcher, `look up ${q}`),
    });
    const model = createScriptedModel({
      rules: [
        { when: { agent: 'researcher' }, respond: { text: 'Found it.' } },
        {
          when: { agent: 'coordinator' },
          times: 1,
          respond: { functionCall: { id: 'call-7', name: 'lookup', args: { q: 'hours' } } },
        },
      ],
      fallback: { text: 'Done.' },
    });
    const runner = await setup({
      agents: llmAgent({ name: 'coordinator', instruction: 'Help.', tools: [lookup] }),
      model,
      sessions,
    });
    const events = await collect(runner, { message: 'Look it up' });
    expect(
      events.flatMap((event) => event.content?.parts ?? []).find((part) => 'functionResponse' in part),
    ).toMatchObject({ functionResponse: { response: { result: 'Found it.' } } });
    const calls = await sessions.listModelCalls(key);
    expect(calls[1]).toMatchObject({
      agent: 'researcher',
      parent: { callIndex: 1, functionCallId: 'call-7', tool: 'lookup' },
    });
  });

  it('hold every call an invocation made up to its limit, nested ones included', async () => {
    const sessions = createInMemorySessionStore();
    let asked = 0;
    const inner = createScriptedModel({
      rules: [{ when: { agent: 'echo' }, respond: { text: 'again' } }],
      fallback: { functionCall: { name: 'echo', args: { request: 'ping' } } },
    });
    const model: Model = { ...inner, generate: (request, options) => ((asked += 1), inner.generate(request, options)) };
    const echo = llmAgent({ name: 'echo', description: 'Echoes.', instruction: 'Echo.' });
    const runner = await setup({
      agents: llmAgent({ name: 'coordinator', instruction: 'Loop.', tools: [agentTool(echo)] }),
      model,
      sessions,
      maxLlmCalls: 40,
    });
    await collect(runner, { message: 'go' });
    expect(asked).toBeGreaterThan(20);
    expect((await sessions.listModelCalls(key)).length).toBe(asked);
  });

  it('attribute what each beforeModel hook wrote to that hook, and keep the rest sourced', async () => {
    const sessions = createInMemorySessionStore();
    const model = createScriptedModel([{ text: 'ok' }]);
    const agent = llmAgent({
      name: 'coordinator',
      instruction: 'You help Ada.',
      callbacks: { beforeModel: ({ request }) => void (request.system += '\n\nAppended by the callback.') },
    });
    const redactor = {
      name: 'redactor',
      hooks: {
        beforeModel: ({ request }: { request: { system: string } }) =>
          void (request.system = request.system.replace('Ada', 'REDACTED')),
      },
    };
    const runner = await setup({ agents: agent, model, sessions, plugins: [redactor] });
    await collect(runner, { message: 'Hi' });
    const call = await sessions.getModelCall({ ...key, index: 1 });
    if (call === undefined) throw new Error('no call');
    expect(call.request.system).toBe(
      'You help REDACTED.\n\nYou are an agent. Your internal name is "coordinator".\n\nAppended by the callback.',
    );
    expect(call.editedByCallback).toBe(true);
    const pieces = systemPieces(call.request, call.provenance);
    expect(pieces.map((piece) => call.request.system.slice(piece.start, piece.end)).join('')).toBe(call.request.system);
    const by = (text: string) =>
      pieces.find((piece) => call.request.system.slice(piece.start, piece.end).includes(text))?.source;
    expect(by('REDACTED')).toMatchObject({ kind: 'callback', extension: 'redactor' });
    expect(by('Appended by the callback.')).toMatchObject({ kind: 'callback', field: 'callbacks.beforeModel' });
    expect(by('You help')).toMatchObject({ kind: 'instruction' });
    expect(by('internal name')).toMatchObject({ kind: 'identity' });
  });
});
