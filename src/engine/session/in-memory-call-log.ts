import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { SessionKey } from '../../contracts/session.js';
import { completionOf, InMemoryCalls } from './in-memory-calls.js';
import { checkSessionKey } from './store-rules.js';

/**
 * A model-call log of its own, held in this process's memory: for a session store that keeps no calls (a store of
 * your own, a service's), so the inspector and `inspect` still see every call. Knows nothing of sessions: a call is
 * recorded under any key, and `deleteModelCalls` is how a deleted session's calls go.
 */
export function createInMemoryModelCallLog(): ModelCallLog {
  const bySession = new Map<string, InMemoryCalls>();
  const mapKey = (key: SessionKey) => JSON.stringify([key.appName, key.userId, key.sessionId]);
  const callsOf = (key: SessionKey): InMemoryCalls | undefined => {
    checkSessionKey(key);
    return bySession.get(mapKey(key));
  };
  return {
    name: 'memory',
    async recordModelCall(input) {
      let calls = callsOf(input);
      if (calls === undefined) bySession.set(mapKey(input), (calls = new InMemoryCalls()));
      return calls.record(input.call);
    },
    async completeModelCall(input) {
      completionOf(callsOf(input), input.sessionId, input)();
    },
    async listModelCalls(input) {
      return callsOf(input)?.list() ?? [];
    },
    async getModelCall(input) {
      return callsOf(input)?.get(input.index);
    },
    async deleteModelCalls(input) {
      if (callsOf(input) !== undefined) bySession.delete(mapKey(input));
    },
    async close() {},
  };
}
