import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { costOfCalls } from '../../src/analysis/cost/session-cost.js';
import { DEFAULT_PRICES } from '../../src/analysis/cost/default-prices.js';
import type { Model } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { stablePrefixOf } from '../../src/engine/assembly/stable-prefix.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { toUsage } from '../../src/models/anthropic/from-anthropic-response.js';
import { toAnthropicRequest } from '../../src/models/anthropic/to-anthropic-request.js';
import { toResponsesRequest } from '../../src/models/openai/to-responses-request.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createAnthropicCacheSimulator } from '../../src/testing/prompt-cache/anthropic-cache.js';
import { createBillingSimulation, withSimulatedBilling } from '../../src/testing/prompt-cache/simulated-billing.js';

// A scripted model billed as a provider would bill it: the usage its cache simulator gives for the exact body that
// provider's adapter sends, recorded with each call under the model that answered, and priced as the billed one.

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const lookup = functionTool({
  name: 'lookup',
  description: 'Looks a word up.',
  jsonSchema: { type: 'object', properties: { word: { type: 'string' } } },
  execute: () => ({ meaning: 'a long explanation '.repeat(300) }),
});
const script = () =>
  createScriptedModel([
    { functionCall: { name: 'lookup', args: { word: 'cache' } } },
    { text: 'It keeps things.' },
    { functionCall: { name: 'lookup', args: { word: 'prefix' } } },
    { text: 'It comes first.' },
  ]);
const agent = llmAgent({
  name: 'glossary',
  instruction: `Explain words. ${'Be exact. '.repeat(400)}`,
  tools: [lookup],
});

async function runTwoTurns(model: Model, stream = false) {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-billing-'));
  dirs.push(dir);
  const sessions = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
  let ids = 0;
  const runner = createRunner({ agents: agent, sessions, model, streaming: stream, newId: () => `id-${++ids}` });
  await runner.createSession({ userId: 'u', sessionId: 's' });
  for (const message of ['What is a cache?', 'And a prefix?'])
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message })) void event;
  const calls = await sessions.listModelCalls({ appName: 'glossary', userId: 'u', sessionId: 's' });
  const records = await Promise.all(
    calls.map((call) => sessions.getModelCall({ appName: 'glossary', userId: 'u', sessionId: 's', index: call.index })),
  );
  await sessions.close();
  return { calls, records };
}

describe('withSimulatedBilling', () => {
  it("records each call under the model that answered, with the usage Anthropic's cache rules give its exact body", async () => {
    const { calls, records } = await runTwoTurns(
      withSimulatedBilling(script(), { provider: 'anthropic', modelId: 'claude-sonnet-4-6' }),
    );
    expect(calls).toHaveLength(4);
    for (const call of calls)
      expect(call.model).toEqual({
        provider: 'scripted',
        modelId: 'scripted',
        billedAs: { provider: 'anthropic', modelId: 'claude-sonnet-4-6' },
      });

    // The same bodies billed by hand, in order, on the same clock, give the same usage.
    const { count } = await loadTokenCounter();
    let now = Date.UTC(2026, 0, 1);
    const simulator = createAnthropicCacheSimulator({ countTokens: count, now: () => now });
    const expected = [];
    for (const record of records) {
      if (record === undefined) throw new Error('a recorded call is missing');
      now += 5_000;
      const body = toAnthropicRequest(record.request, {
        model: 'claude-sonnet-4-6',
        cache: {},
        stablePrefix: stablePrefixOf(record.request, record.provenance),
      });
      expected.push(
        toUsage(simulator.bill(body, { outputTokens: count(JSON.stringify(record.response?.content?.parts ?? [])) })),
      );
    }
    expect(calls.map((call) => call.usage)).toEqual(expected);
    // Later calls read the instruction and tools from the cache the first one wrote.
    expect(calls[0]?.usage?.cacheWriteTokens).toBeGreaterThan(1_000);
    expect(calls[3]?.usage?.cachedTokens).toBeGreaterThan(1_000);
  });

  it('is priced as the billed model, where the scripted model alone has no price', async () => {
    const billed = costOfCalls(
      (await runTwoTurns(withSimulatedBilling(script(), { provider: 'anthropic', modelId: 'claude-sonnet-4-6' })))
        .calls,
      DEFAULT_PRICES,
    );
    expect(billed.total.unpricedCalls).toBe(0);
    expect(billed.total.usd).toBeGreaterThan(0);
    expect(billed.calls[0]?.price?.model).toBe('claude-sonnet-4-6');
    const unbilled = costOfCalls((await runTwoTurns(script())).calls, DEFAULT_PRICES);
    expect(unbilled.total.usd).toBeUndefined();
  });

  it('bills a streamed call on its final chunk, the same as a call that is not streamed', async () => {
    const plain = await runTwoTurns(withSimulatedBilling(script(), { provider: 'openai', modelId: 'gpt-5.1' }));
    const streamed = await runTwoTurns(
      withSimulatedBilling(script(), { provider: 'openai', modelId: 'gpt-5.1' }),
      true,
    );
    expect(streamed.calls.map((call) => call.usage)).toEqual(plain.calls.map((call) => call.usage));
    expect(plain.calls[0]?.usage?.promptTokens).toBeGreaterThan(1_000);
  });

  it('bills the Responses API body when asked, as createOpenAIResponsesModel sends it', async () => {
    const simulation = createBillingSimulation({ provider: 'openai', modelId: 'gpt-5.1', openaiApi: 'responses' });
    const { calls, records } = await runTwoTurns(withSimulatedBilling(script(), simulation));
    expect(simulation.bodies).toEqual(
      records.map((record) => ({
        ...toResponsesRequest(record?.request as LlmRequest, { model: 'gpt-5.1', encryptedReasoning: true }),
        prompt_cache_key: expect.stringMatching(/^agentctx-/),
      })),
    );
    expect(simulation.bodies[0]).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    expect(calls.slice(1).every((call) => (call.usage?.cachedTokens ?? 0) > 1_000)).toBe(true);
    expect(costOfCalls(calls, DEFAULT_PRICES).total.unpricedCalls).toBe(0);
  });

  it('bills Gemini bodies too, and the same run the same way every time', async () => {
    const first = await runTwoTurns(
      withSimulatedBilling(script(), { provider: 'google', modelId: 'gemini-2.5-flash' }),
    );
    const second = await runTwoTurns(
      withSimulatedBilling(script(), { provider: 'google', modelId: 'gemini-2.5-flash' }),
    );
    expect(second.calls.map((call) => call.usage)).toEqual(first.calls.map((call) => call.usage));
    expect(costOfCalls(first.calls, DEFAULT_PRICES).total.unpricedCalls).toBe(0);
  });

  it('keeps the bodies it billed, and one simulation shared by two models shares one cache', async () => {
    const simulation = createBillingSimulation({ provider: 'anthropic', modelId: 'claude-sonnet-4-6' });
    await runTwoTurns(withSimulatedBilling(script(), simulation));
    expect(simulation.bodies).toHaveLength(4);
    const again = await runTwoTurns(withSimulatedBilling(script(), simulation));
    // The second run's first call finds the first run's entries still alive.
    expect(again.calls[0]?.usage?.cachedTokens).toBeGreaterThan(1_000);
  });
});
