// Two sessions whose calls carry usage, recorded through a runner: one answered by a model that calls itself
// anthropic claude-sonnet-4-5 (a scripted model under that name, so the built-in prices bill it), with cache reads and
// 5-minute and 1-hour cache writes; one by the plain scripted model, which has no price.
import type { Usage } from '../../src/contracts/event.js';
import type { Model } from '../../src/contracts/model.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';

export const PRICED: SessionKey = { appName: 'cost_app', userId: 'payer', sessionId: 'priced' };
export const UNPRICED: SessionKey = { appName: 'cost_app', userId: 'payer', sessionId: 'unpriced' };
export const PRICED_MODEL = { provider: 'anthropic', modelId: 'claude-sonnet-4-5' };

/**
 * The priced calls' usage, and what each costs at claude-sonnet-4-5's prices (per 1M tokens: input $3, cache read
 * $0.30, 5-minute write $3.75, 1-hour write $6, output $15). Prompt counts include cache reads and writes.
 */
export const PRICED_CALLS: {
  usage: Usage;
  usd: { input: number; cacheRead: number; cacheWrite: number; output: number; total: number };
  cacheHit: number;
}[] = [
  // 2,000 input, 8,000 written for 5 minutes, 1,000 output.
  {
    usage: { promptTokens: 10_000, cacheWriteTokens: 8_000, outputTokens: 1_000 },
    usd: { input: 0.006, cacheRead: 0, cacheWrite: 0.03, output: 0.015, total: 0.051 },
    cacheHit: 0,
  },
  // 2,000 input, 8,000 read, 2,000 written for 5 minutes, 1,000 output.
  {
    usage: { promptTokens: 12_000, cachedTokens: 8_000, cacheWriteTokens: 2_000, outputTokens: 1_000 },
    usd: { input: 0.006, cacheRead: 0.0024, cacheWrite: 0.0075, output: 0.015, total: 0.0309 },
    cacheHit: 8_000 / 12_000,
  },
  // 2,000 input, 10,000 read, 2,000 written for an hour, 2,000 output.
  {
    usage: {
      promptTokens: 14_000,
      cachedTokens: 10_000,
      cacheWriteTokens: 2_000,
      cacheWrite1hTokens: 2_000,
      outputTokens: 2_000,
    },
    usd: { input: 0.006, cacheRead: 0.003, cacheWrite: 0.012, output: 0.03, total: 0.051 },
    cacheHit: 10_000 / 14_000,
  },
];
export const PRICED_TOTAL_USD = 0.1329;

export const UNPRICED_MODEL_ID = 'scripted-cost';
export const UNPRICED_USAGE: Usage[] = [
  { promptTokens: 1_000, cachedTokens: 600, outputTokens: 100 },
  { promptTokens: 1_500, cachedTokens: 1_000, outputTokens: 120 },
];

export async function writeCostSessions(store: SessionStore): Promise<void> {
  const scripted = createScriptedModel(
    PRICED_CALLS.map((call, at) => ({ text: `Answer ${at + 1}.`, usage: call.usage })),
  );
  // The scripted model under a priced provider's name: the runner records the name it gives.
  const priced: Model = { ...scripted, provider: PRICED_MODEL.provider, modelId: PRICED_MODEL.modelId };
  await runTurns(store, PRICED, priced, PRICED_CALLS.length);
  await runTurns(
    store,
    UNPRICED,
    createScriptedModel(
      UNPRICED_USAGE.map((usage, at) => ({ text: `Reply ${at + 1}.`, usage })),
      { modelId: UNPRICED_MODEL_ID },
    ),
    UNPRICED_USAGE.length,
  );
}

async function runTurns(store: SessionStore, key: SessionKey, model: Model, turns: number): Promise<void> {
  const runner = createRunner({
    agents: llmAgent({ name: 'billing_agent', instruction: 'Answer briefly.' }),
    appName: key.appName,
    sessions: store,
    model,
  });
  await runner.createSession({ userId: key.userId, sessionId: key.sessionId });
  for (let turn = 1; turn <= turns; turn++) {
    for await (const event of runner.run({ userId: key.userId, sessionId: key.sessionId, message: `question ${turn}` }))
      void event;
  }
}
