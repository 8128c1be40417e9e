import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { CreateSessionInput } from '../../contracts/session-store.js';
import type { Session, SessionKey } from '../../contracts/session.js';
import { withoutTempKeys, type StateRecord } from '../state/state-delta.js';
import { APP_PREFIX, isTempKey, USER_PREFIX } from '../state/state-keys.js';
import { copyValue, setOwn } from '../util/copy-value.js';
import { deepFreeze, toStoredJson } from '../util/json-value.js';
import { jsonIssue, stateKeyIssues, stateOpIssues, stateValueProblem } from '../state/state-rules.js';
import { checkKeyFields, eventIssues, identifierIssues, refuse } from './input-rules.js';
import { eventToJson } from './session-json.js';

// Behaviour every session store shares, so the implementations cannot drift apart.

/** The events a `getSession` window asks for: the last N, then those at or after a timestamp (ADK's order). */
export function windowEvents(
  events: readonly Event[],
  window: { numRecentEvents?: number | undefined; afterTimestamp?: number | undefined },
): Event[] {
  let selected =
    window.numRecentEvents === undefined
      ? events.slice()
      : window.numRecentEvents <= 0
        ? []
        : events.slice(-window.numRecentEvents);
  if (window.afterTimestamp !== undefined) {
    const after = window.afterTimestamp;
    selected = selected.filter((event) => event.timestamp >= after);
  }
  return selected;
}

/**
 * `afterRevision` of a `getSession` window: a whole number of appends, or undefined. Anything else is refused, so no
 * store reads a window nobody asked for.
 */
export function afterRevisionOf(window: { afterRevision?: number | undefined }): number | undefined {
  const after = window.afterRevision;
  if (after === undefined) return undefined;
  if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0) {
    throw new ValidationError({
      subject: 'getSession window',
      issues: [
        { path: 'afterRevision', message: `must be a whole number of appends (0 or more), got ${String(after)}` },
      ],
      hint: 'Pass the revision of the copy you hold (session.revision), or leave afterRevision out for every event.',
    });
  }
  return after;
}

/** The order of `listSessions`: most recently updated first, ties by id. Sorts in place. */
export function sortSessionsForList(sessions: Session[]): Session[] {
  return sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** App names in the one order every store lists them (`listApps`): by UTF-16 code unit, whatever the database's collation. */
export function sortAppNames(names: string[]): string[] {
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function sessionNotFound(sessionId: string): NotFoundError {
  return new NotFoundError({
    resource: 'session',
    id: sessionId,
    message: `Session ${sessionId} not found.`,
    hint: 'Create it first, or check the app name, user id and session id.',
  });
}

/** ADK's own message for a stale append, with the revisions that tell the caller what happened. */
export function staleSession(sessionId: string, loaded: number, stored: number): ConflictError {
  return new ConflictError({
    code: 'stale_session',
    message:
      'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
    hint: `(session ${sessionId}: loaded at revision ${loaded}, storage is at revision ${stored})`,
  });
}

/** A shared state key that another session wrote since this copy read it: the append would lose that write. */
export function staleSharedState(sessionId: string, key: string, loaded: number, stored: number): ConflictError {
  return new ConflictError({
    code: 'stale_shared_state',
    key,
    message: `The shared state key ${key} has been modified in storage since the session was loaded. Please reload the session before appending more events.`,
    hint: `(session ${sessionId}: loaded ${key} at version ${loaded}, storage is at version ${stored})`,
  });
}

/** The `app:` and `user:` keys a stored delta writes, sorted: stores take their locks in this order. */
export function sharedKeysOf(delta: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(delta)
    .filter((key) => key.startsWith(APP_PREFIX) || key.startsWith(USER_PREFIX))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The version of a shared key the session copy saw: 0 when it saw none. */
export function loadedVersion(session: Session, key: string): number {
  const versions = session.sharedStateVersions;
  return versions !== undefined && Object.hasOwn(versions, key) ? (versions[key] as number) : 0;
}

/** ADK's own message for a session id that is taken. */
export function sessionExists(sessionId: string): ConflictError {
  return new ConflictError({
    code: 'already_exists',
    message: `Session with id ${sessionId} already exists.`,
    hint: 'Load it with getSession, or choose another id.',
  });
}

export function eventExists(eventId: string, sessionId: string): ConflictError {
  return new ConflictError({
    code: 'already_exists',
    message: `Event ${eventId} is already stored in session ${sessionId}.`,
    hint: 'Give every event a new id.',
  });
}

/** Refuses a `createSession` input before anything is written: the key's fields, the state's keys and values. */
export function checkCreateInput(input: CreateSessionInput, state: StateRecord): void {
  // A blank sessionId is the stores' business (they make one up); here it only has to be well-formed when given.
  const issues = identifierIssues(
    { appName: input.appName, userId: input.userId, sessionId: input.sessionId },
    { nonEmpty: ['appName', 'userId'], optional: ['sessionId'] },
  );
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    issues.push({ path: 'state', message: 'must be an object of state keys' });
  } else {
    issues.push(...stateKeyIssues(state, 'state'));
    const problem = stateValueProblem(withoutTempKeys(state), 'state');
    if (problem !== undefined) issues.push(jsonIssue(problem));
  }
  refuse('session', issues);
}

/** Refuses a store call whose session key is not usable (a lone surrogate, a NUL, not a string) before any lookup. */
export function checkSessionKey(
  key: { readonly [K in keyof SessionKey]?: string | undefined },
  fields: readonly (keyof SessionKey)[] = ['appName', 'userId', 'sessionId'],
): void {
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field] = key[field];
  checkKeyFields('session key', values);
}

/**
 * The event as storage keeps it: validated (id, state keys, operations, JSON and its depth), `temp:` keys and their
 * operations removed, copied, frozen.
 */
export function prepareStoredEvent(event: Event): Event {
  const keyIssues = stateKeyIssues(event.actions.stateDelta, 'event.actions.stateDelta');
  if (event.actions.stateOps !== undefined)
    keyIssues.push(...stateOpIssues(event.actions.stateOps, 'event.actions.stateOps'));
  refuse('event', keyIssues);
  const stateDelta = withoutTempKeys(event.actions.stateDelta);
  const stateOps = event.actions.stateOps?.filter((op) => !isTempKey(op.key));
  const { stateOps: _given, ...actions } = event.actions;
  const candidate = eventToJson({
    ...event,
    actions: { ...actions, stateDelta, ...(stateOps === undefined || stateOps.length === 0 ? {} : { stateOps }) },
  });
  refuse('event', eventIssues(candidate, 'event'));
  return deepFreeze(toStoredJson(candidate));
}

/**
 * Brings the caller's session copy up to date after a successful append; `sharedVersions` are the new versions
 * of the shared keys the append wrote, `operated` the values its state operations left in storage, by key.
 */
export function applyToSession(
  session: Session,
  original: Event,
  persisted: Event,
  revision: number,
  sharedVersions: Readonly<Record<string, number>> = {},
  operated: Readonly<Record<string, unknown>> = {},
): void {
  for (const [key, value] of Object.entries(original.actions.stateDelta)) {
    setOwn(
      session.state,
      key,
      copyValue(Object.hasOwn(persisted.actions.stateDelta, key) ? persisted.actions.stateDelta[key] : value),
    );
  }
  for (const [key, value] of Object.entries(operated)) setOwn(session.state, key, copyValue(value));
  session.events.push(persisted);
  session.lastUpdateTime = persisted.timestamp;
  session.revision = revision;
  session.sharedStateVersions = { ...session.sharedStateVersions, ...sharedVersions };
}
