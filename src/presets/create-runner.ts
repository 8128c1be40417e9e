import type { EventsCompactionConfig } from '../contracts/compaction.js';
import type { SessionStore, SessionStoreWithCallLog } from '../contracts/session-store.js';
import { createEngineRunner, type EngineRunnerOptions, type Runner } from '../engine/runner/runner.js';
import { compactionPlugin } from '../features/compaction/compaction-plugin.js';
import { openTelemetry } from '../telemetry/open-telemetry.js';
import { defaultCallPricer } from './call-pricer.js';
import { DEFAULT_PIPELINE } from './pipelines.js';

export type RunnerOptions<S extends SessionStore = SessionStore> = EngineRunnerOptions<S> & {
  /**
   * Compaction for every agent (ADK's app-level `EventsCompactionConfig`): a sliding window after invocations, a
   * token threshold before each model call and after invocations. Agents' `contextCompactors` override the token
   * trigger for themselves.
   */
  eventsCompactionConfig?: EventsCompactionConfig;
};

/**
 * A runner: agents, a session store and models, ready to answer user messages. Agents that name no pipeline run
 * `defaultPipeline()`; compaction (the runner's `eventsCompactionConfig`, the agents' `contextCompactors`) runs as a
 * plugin after the ones given, when either is set. Spans go to OpenTelemetry (`openTelemetry()` from
 * `agentctx/telemetry`) unless `telemetry` says otherwise (`undefined` for none).
 */
export function createRunner<S extends SessionStore = SessionStoreWithCallLog>(options: RunnerOptions<S>): Runner<S> {
  const { eventsCompactionConfig, ...rest } = options;
  const compaction = compactionPlugin(eventsCompactionConfig, options.agents);
  const plugins =
    Object.keys(compaction.hooks ?? {}).length === 0
      ? (options.plugins ?? [])
      : [...(options.plugins ?? []), compaction];
  // Spans go through @opentelemetry/api unless the caller says otherwise; with no SDK registered they cost nothing.
  const telemetry = 'telemetry' in options ? options.telemetry : openTelemetry();
  // Prices come from the built-in table unless the caller gave a pricer of its own: the engine holds none.
  const priceCall = 'priceCall' in options ? options.priceCall : defaultCallPricer;
  return createEngineRunner({ ...rest, plugins, telemetry, priceCall }, DEFAULT_PIPELINE);
}
