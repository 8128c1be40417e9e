import { createRunner, type Event, type Model } from 'agentctx';
import type { SessionStoreWithCallLog } from 'agentctx/sessions';
import { createScriptedModel } from 'agentctx/models/scripted';
import { withSimulatedBilling } from 'agentctx/testing';
import { countRequestTokens, loadTokenCounter } from 'agentctx/tokens';
import { buildAnalyst, type Mode } from './agents.js';
import { QUESTION, type Report } from './reports.js';
import { analystScript } from './script.js';

export const APP = 'report_analyst';
export const PRICED_MODEL = 'claude-sonnet-4-6';

// A fresh simulation per run, so the two runs never share cache entries.
const billedAsAnthropic = (model: Model): Model =>
  withSimulatedBilling(model, { provider: 'anthropic', modelId: PRICED_MODEL });

export type AnalysisRun = {
  mode: Mode;
  sessionId: string;
  answer: string;
  events: Event[];
};

export type RunOptions = {
  mode: Mode;
  store: SessionStoreWithCallLog;
  reports: readonly Report[];
  sessionId?: string;
  breakPageIn?: boolean;
  onLoad?: (id: string) => void;
  /** Called after every model call, for progress. */
  onCall?: () => void;
  /** A real model instead of the scripted one. */
  model?: Model;
  /**
   * Puts something around the model. Default: each call billed as Anthropic would bill it (a simulation of its prompt
   * cache over the exact bodies agentctx's adapter sends), recorded with the call; the cost benchmark bills others.
   */
  wrapModel?: (model: Model) => Model;
  /** Ids for events and calls (default: `<mode>-1`, `<mode>-2`…, so every run sends the same bytes). */
  newId?: () => string;
};

/** Runs the analyst once, in a fresh session, and returns its answer and events. */
export async function runAnalysis(options: RunOptions): Promise<AnalysisRun> {
  const scripted =
    options.model ??
    createScriptedModel(analystScript(options.mode), { record: false, modelId: `report-analyst-${options.mode}` });
  const inner = (options.wrapModel ?? billedAsAnthropic)(scripted);
  const model: Model = {
    ...inner,
    generate: async (request, callOptions) => {
      const response = await inner.generate(request, callOptions);
      options.onCall?.();
      return response;
    },
  };
  const agents = buildAnalyst({
    mode: options.mode,
    reports: options.reports,
    ...(options.breakPageIn === undefined ? {} : { breakPageIn: options.breakPageIn }),
    ...(options.onLoad === undefined ? {} : { onLoad: options.onLoad }),
  });
  // Ids from a counter, not random ones: every run sends the same bytes, so it is billed the same to the cent.
  let ids = 0;
  const newId = options.newId ?? (() => `${options.mode}-${++ids}`);
  const runner = createRunner({ agents, appName: APP, sessions: options.store, model, maxLlmCalls: 200, newId });
  const sessionId = options.sessionId ?? `report-analyst-${options.mode}`;
  await options.store.deleteSession({ appName: APP, userId: 'analyst', sessionId });
  await runner.createSession({ userId: 'analyst', sessionId });
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'analyst', sessionId, message: QUESTION })) events.push(event);
  const answer =
    [...events]
      .reverse()
      .find((event) => event.author === 'analysis_agent' && event.content?.parts.some((part) => 'text' in part))
      ?.content?.parts.flatMap((part) => ('text' in part ? [part.text] : []))
      .join('') ?? '';
  return { mode: options.mode, sessionId, answer, events };
}

/** The prompt tokens of every recorded call of a session, counted with the local tokenizer. */
export async function promptTokensPerCall(store: SessionStoreWithCallLog, sessionId: string): Promise<number[]> {
  const counter = await loadTokenCounter();
  const key = { appName: APP, userId: 'analyst', sessionId };
  const tokens: number[] = [];
  for (const summary of await store.listModelCalls(key)) {
    const record = await store.getModelCall({ ...key, index: summary.index });
    if (record !== undefined) tokens.push(countRequestTokens(record.request, counter, record.provenance).total);
  }
  return tokens;
}
