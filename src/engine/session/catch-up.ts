import type { Session } from '../../contracts/session.js';
import type { SessionStore } from '../../contracts/session-store.js';

/** What `catchUp` found: the copy already current, brought forward, loaded whole again, or no such session. */
export type CatchUp = 'current' | 'advanced' | 'reloaded' | 'gone';

/**
 * Brings a held copy of a session up to the stored one, in place, reading only what it lacks: the head (revision,
 * update time, merged state and shared versions) and the events appended since its revision, in one read. The
 * read starts one event early and that event must be the copy's last, so a session deleted and made again under the
 * same id is not mistaken for this one; the count of events must match the revisions in between, so a store that
 * ignores `afterRevision` is not trusted either. When either check fails, or the events were rewritten in place (the
 * same revision, another update time), the session is loaded whole. State is
 * always the store's: other sessions may have changed `app:` and `user:` keys.
 */
export async function catchUp(store: SessionStore, session: Session): Promise<CatchUp> {
  const held = session.revision;
  const last = session.events.at(-1);
  // A copy whose events do not number its revision (a window of a session, an odd store) is not extended.
  const extendable = session.events.length === held;
  const overlap = held > 0 ? 1 : 0;
  const since = held - overlap;
  const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const fresh = await store.getSession(extendable ? { ...key, afterRevision: since } : key);
  if (fresh === undefined) return 'gone';
  const first = fresh.events[0];
  // The same revision with another update time: nothing was appended, but stored events were rewritten in place (an
  // erasure, `SessionStore.rewriteText`), so the held ones may say what is no longer there.
  const rewritten = fresh.revision === held && fresh.lastUpdateTime !== session.lastUpdateTime;
  const continues =
    extendable &&
    !rewritten &&
    fresh.revision >= held &&
    fresh.events.length === fresh.revision - since &&
    (overlap === 0 ||
      (first !== undefined && last !== undefined && first.id === last.id && first.timestamp === last.timestamp));
  if (continues) {
    const current = fresh.revision === held && fresh.lastUpdateTime === session.lastUpdateTime;
    for (const event of fresh.events.slice(overlap)) session.events.push(event);
    adopt(session, fresh);
    return current ? 'current' : 'advanced';
  }
  const whole = extendable ? await store.getSession(key) : fresh;
  if (whole === undefined) return 'gone';
  session.events = whole.events;
  adopt(session, whole);
  return 'reloaded';
}

function adopt(session: Session, fresh: Session): void {
  session.revision = fresh.revision;
  session.lastUpdateTime = fresh.lastUpdateTime;
  session.state = fresh.state;
  if (fresh.sharedStateVersions === undefined) delete session.sharedStateVersions;
  else session.sharedStateVersions = fresh.sharedStateVersions;
}
