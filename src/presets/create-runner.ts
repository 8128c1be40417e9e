import type { EventsCompactionConfig } from '../contracts/compaction.js';
import type { SessionStore, SessionStoreWithCallLog } from '../contracts/session-store.js';
import { configurationError } from '../engine/runner/invocation.js';
import { createEngineRunner, type EngineRunnerOptions, type Runner } from '../engine/runner/runner.js';
import { compactionPlugin } from '../features/compaction/compaction-plugin.js';
import {
  REMEMBER_SESSIONS,
  rememberEachTurn,
  type RememberSessions,
} from '../features/memory-tools/remember-sessions.js';
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
  /**
   * When sessions are added to `memory` without being asked: `turn` (after every invocation, its new events),
   * `session-end` (when a session is deleted through the runner, all of it first), `never` (the default, ADK's).
   */
  remember?: RememberSessions;
};

/**
 * A runner: agents, a session store and models, ready to answer user messages. Agents that name no pipeline run
 * `defaultPipeline()`; compaction (the runner's `eventsCompactionConfig`, the agents' `contextCompactors`) runs as a
 * plugin after the ones given, when either is set. Spans go to OpenTelemetry (`openTelemetry()` from
 * `agentctx/telemetry`) unless `telemetry` says otherwise (`undefined` for none).
 */
export function createRunner<S extends SessionStore = SessionStoreWithCallLog>(options: RunnerOptions<S>): Runner<S> {
  const { eventsCompactionConfig, remember = 'never', ...rest } = options;
  if (!REMEMBER_SESSIONS.includes(remember))
    throw configurationError(
      `remember must be one of ${REMEMBER_SESSIONS.join(', ')}; got ${JSON.stringify(remember)}.`,
      "Leave it out for 'never': sessions are then remembered when the app calls addSessionToMemory.",
    );
  if (remember !== 'never' && options.memory === undefined)
    throw configurationError(
      `remember: '${remember}' needs a memory service to remember into.`,
      'Give the runner one (memory: createInMemoryMemoryService(), or a SQL store), or leave remember out.',
    );
  const compaction = compactionPlugin(eventsCompactionConfig, options.agents);
  const plugins = [
    ...(options.plugins ?? []),
    // Remembered before compaction runs, so a turn's events are remembered as they were said.
    ...(remember === 'turn' && options.memory !== undefined ? [rememberEachTurn(options.memory)] : []),
    ...(Object.keys(compaction.hooks ?? {}).length === 0 ? [] : [compaction]),
  ];
  // Spans go through @opentelemetry/api unless the caller says otherwise; with no SDK registered they cost nothing.
  const telemetry = 'telemetry' in options ? options.telemetry : openTelemetry();
  // Prices come from the built-in table unless the caller gave a pricer of its own: the engine holds none.
  const priceCall = 'priceCall' in options ? options.priceCall : defaultCallPricer;
  const runner = createEngineRunner({ ...rest, plugins, telemetry, priceCall }, DEFAULT_PIPELINE);
  const memory = options.memory;
  if (remember !== 'session-end' || memory === undefined) return runner;
  const deleteSession = runner.deleteSession;
  return Object.assign(runner, {
    // The whole session is remembered before it goes: if remembering fails, the session stays.
    deleteSession: async (input: { userId: string; sessionId: string }) => {
      const session = await runner.sessions.getSession({ appName: runner.appName, ...input });
      if (session !== undefined) await memory.addSessionToMemory(session);
      await deleteSession(input);
    },
  });
}
