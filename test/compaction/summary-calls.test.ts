import { describe, expect, it } from 'vitest';
import { costOfCalls, DEFAULT_PRICES } from '../../src/cost.js';
import { LlmSummarizer } from '../../src/compaction.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { withSimulatedBilling } from '../../src/testing/index.js';

// A compaction's summary is a model call like any other: recorded in the session's calls (as the summarizer's), with
// the request it was sent, its answer, usage and wire; priced by `agentctx cost`; a failure recorded as one.

async function twoTurns(summarizer?: LlmSummarizer, answer = 'Hello.') {
  const sessions = createInMemorySessionStore();
  const model = withSimulatedBilling(
    createScriptedModel({
      rules: [{ when: { agent: 'summarizer' }, respond: { text: 'The user greeted the agent twice.' } }],
      fallback: { text: answer },
    }),
    { provider: 'anthropic', modelId: 'claude-sonnet-4-6' },
  );
  const runner = createRunner({
    agents: llmAgent({ name: 'greeter', instruction: 'Greet.' }),
    model,
    sessions,
    eventsCompactionConfig: {
      compactionInterval: 2,
      overlapSize: 0,
      ...(summarizer === undefined ? {} : { summarizer }),
    },
  });
  const key = { appName: runner.appName, userId: 'u', sessionId: 's' };
  await runner.createSession({ userId: 'u', sessionId: 's' });
  for (const message of ['Hi.', 'Hi again.'])
    for await (const _ of runner.run({ userId: 'u', sessionId: 's', message }));
  const calls = await sessions.listModelCalls(key);
  const session = await sessions.getSession(key);
  return { sessions, key, calls, events: session?.events ?? [] };
}

describe('summary calls', () => {
  it('records the default summarizer’s call, with its request, answer and usage, and prices it', async () => {
    const { sessions, key, calls, events } = await twoTurns();
    expect(calls.map((call) => [call.index, call.agent, call.status])).toEqual([
      [1, 'greeter', 'answered'],
      [2, 'greeter', 'answered'],
      [3, 'summarizer', 'answered'],
    ]);
    const record = await sessions.getModelCall({ ...key, index: 3 });
    const compaction = events.find((event) => event.actions?.compaction !== undefined);
    expect(record?.invocationId).toBe(compaction?.invocationId);
    expect(record?.request.messages[0]?.content[0]).toMatchObject({ text: expect.stringContaining('Hi again.') });
    expect(record?.response?.content?.parts).toEqual([{ text: 'The user greeted the agent twice.' }]);
    expect(record?.model).toMatchObject({ billedAs: { provider: 'anthropic', modelId: 'claude-sonnet-4-6' } });
    expect(record?.usage?.promptTokens).toBeGreaterThan(0);
    expect(record?.provenance.messages[0]?.[0]).toMatchObject({ kind: 'custom', agent: 'summarizer' });
    const { calls: rows } = costOfCalls(calls, DEFAULT_PRICES);
    expect(rows[2]?.usd?.total).toBeGreaterThan(0);
  });

  it('records a summarizer given in the settings on its own model, and a failed summary as a failed call', async () => {
    const cheap = createScriptedModel([{ text: 'Two greetings.' }], { modelId: 'cheap-summarizer' });
    const { calls, sessions, key } = await twoTurns(new LlmSummarizer({ model: cheap }));
    expect(calls.at(-1)).toMatchObject({
      agent: 'summarizer',
      status: 'answered',
      model: { modelId: 'cheap-summarizer' },
    });
    expect((await sessions.getModelCall({ ...key, index: 3 }))?.response?.content?.parts).toEqual([
      { text: 'Two greetings.' },
    ]);
    const failing = createScriptedModel([{ error: { code: 'overloaded', message: 'try later' } }], {
      modelId: 'busy-summarizer',
    });
    const failed = await twoTurns(new LlmSummarizer({ model: failing }));
    expect(failed.calls.at(-1)).toMatchObject({ agent: 'summarizer', status: 'failed', error: 'try later' });
    expect(failed.events.at(-1)).toMatchObject({ errorCode: 'compaction_failed' });
  });
});
