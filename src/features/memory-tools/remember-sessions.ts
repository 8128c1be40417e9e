import type { Plugin } from '../../contracts/agent.js';
import type { MemoryService } from '../../contracts/memory-service.js';

/**
 * When a runner adds its sessions to its memory service by itself: `turn` after every invocation that ran to its end
 * (the events not yet remembered), `session-end` when the session is deleted through the runner (all of it, before
 * it goes), `never` (the default, and ADK's: the app calls `addSessionToMemory` when it decides).
 */
export type RememberSessions = 'turn' | 'session-end' | 'never';

export const REMEMBER_SESSIONS: readonly RememberSessions[] = ['turn', 'session-end', 'never'];

/**
 * The plugin behind `remember: 'turn'`: after each invocation, the session's events go to `addEventsToMemory`, which
 * skips those already remembered, so a turn adds only its own events and a retried one adds nothing twice.
 */
export function rememberEachTurn(memory: MemoryService): Plugin {
  return Object.freeze({
    name: 'remember-sessions',
    hooks: {
      async afterRun({ context }) {
        await memory.addEventsToMemory({
          appName: context.appName,
          userId: context.userId,
          sessionId: context.sessionId,
          events: context.events,
          // An embedding model's calls are this invocation's, recorded and priced like its model calls.
          recordEmbedding: (model, texts, purpose) => context.embed(model, texts, { purpose }),
        });
      },
    },
  });
}
