import type { EventsCompactionConfig } from '../contracts/compaction.js';
import { createEngineRunner, type EngineRunnerOptions, type Runner } from '../engine/runner/runner.js';
import { compactionPlugin } from '../features/compaction/compaction-plugin.js';
import { DEFAULT_PIPELINE } from './pipelines.js';

export type RunnerOptions = EngineRunnerOptions & {
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
 * plugin after the ones given.
 */
export function createRunner(options: RunnerOptions): Runner {
  const { eventsCompactionConfig, ...rest } = options;
  return createEngineRunner({ ...rest, plugins: [...(options.plugins ?? []), compactionPlugin(eventsCompactionConfig)] }, DEFAULT_PIPELINE);
}
