import type { SessionStore } from '../../src/contracts/session-store.js';

/**
 * A store that implements the session contract and nothing else, over a store that may keep more (the in-memory or
 * SQLite store, whose call log it hides): what a user's own store or a service's looks like to agentctx.
 */
export function sessionOnly(store: SessionStore, name = `${store.name} (sessions only)`): SessionStore {
  return {
    name,
    createSession: (input) => store.createSession(input),
    getSession: (input) => store.getSession(input),
    listSessions: (input) => store.listSessions(input),
    // Exactly what the contract passes on: a completion handed to a store that keeps no calls would be a runner bug.
    appendEvent: (input) => {
      if (input.completeModelCall !== undefined) throw new Error('a session-only store was handed a call to complete');
      return store.appendEvent({ session: input.session, event: input.event });
    },
    deleteSession: (input) => store.deleteSession(input),
    close: () => store.close(),
  };
}
