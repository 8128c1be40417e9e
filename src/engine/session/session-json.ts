import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { Session } from '../../contracts/session.js';
import type { StateOp } from '../../contracts/state-op.js';
import { JsonReader, joinPath } from '../util/json-reader.js';
import { checkUniqueEventIds, readEvent } from './decode-event.js';
import { jsonIssue, stateKeyIssues, stateValueProblem } from '../state/state-rules.js';
import { identifierIssues } from './input-rules.js';

/** Version of the JSON form written by `sessionToJson`; readers reject newer ones. */
export const SESSION_SCHEMA_VERSION = 1;

/** A session in its JSON form, as written to files and returned by the HTTP API; a store's bookkeeping is not part of it. */
export type SessionJson = Omit<Session, 'events' | 'sharedStateVersions'> & { schemaVersion: number; events: Event[] };

/** Validates a session in its JSON form; a `schemaVersion` newer than this release understands is refused. */
export function parseSession(value: unknown, subject = 'session'): Session {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a session object');
  if (record === undefined) throw new ValidationError({ subject, issues: reader.issues });
  const version = record['schemaVersion'];
  if (version !== undefined && version !== SESSION_SCHEMA_VERSION) {
    throw new ValidationError({
      subject,
      code: 'unsupported_version',
      issues: [
        {
          path: 'schemaVersion',
          message: `version ${String(version)} is not supported; this release reads version ${SESSION_SCHEMA_VERSION}`,
        },
      ],
      hint: 'Upgrade agentctx to read sessions written by a newer release.',
    });
  }
  reader.keys(record, '', [
    'schemaVersion',
    'appName',
    'userId',
    'id',
    'state',
    'events',
    'lastUpdateTime',
    'revision',
  ]);
  const appName = reader.string(record, 'appName', '', { nonEmpty: true });
  const userId = reader.string(record, 'userId', '', { nonEmpty: true });
  const id = reader.string(record, 'id', '', { nonEmpty: true });
  const state = record['state'] == null ? {} : reader.object(record['state'], 'state');
  for (const issue of identifierIssues({ appName, userId, id }, { optional: ['appName', 'userId', 'id'] }))
    reader.issue(issue.path, issue.message);
  if (state !== undefined) {
    for (const issue of stateKeyIssues(state, 'state')) reader.issue(issue.path, issue.message);
    const problem = stateValueProblem(state, 'state');
    if (problem !== undefined) reader.issue(problem.path, jsonIssue(problem).message);
  }
  const lastUpdateTime = reader.number(record, 'lastUpdateTime', '', { optional: true, min: 0 }) ?? 0;
  const events: Event[] = [];
  const list = record['events'] == null ? [] : reader.array(record['events'], 'events');
  list?.forEach((item, index) => {
    const event = readEvent(reader, item, joinPath('events', index));
    if (event !== undefined) events.push(event);
  });
  checkUniqueEventIds(reader, events, 'events');
  const revision = reader.number(record, 'revision', '', { optional: true, integer: true, min: 0 }) ?? events.length;
  if (
    reader.issues.length > 0 ||
    appName === undefined ||
    userId === undefined ||
    id === undefined ||
    state === undefined
  ) {
    throw new ValidationError({ subject, issues: reader.issues });
  }
  return { appName, userId, id, state, events, lastUpdateTime, revision };
}

/** The JSON form of a session: fixed key order, no undefined fields, versioned. */
export function sessionToJson(session: Session): SessionJson {
  return {
    schemaVersion: SESSION_SCHEMA_VERSION,
    appName: session.appName,
    userId: session.userId,
    id: session.id,
    state: session.state,
    events: session.events.map(eventToJson),
    lastUpdateTime: session.lastUpdateTime,
    revision: session.revision,
  };
}

/** The JSON form of a state operation: `op`, `key`, then its arguments, in a fixed order. */
export function stateOpToJson(op: StateOp): StateOp {
  switch (op.op) {
    case 'add':
      return { op: 'add', key: op.key, by: op.by };
    case 'append':
      return { op: 'append', key: op.key, items: op.items };
    case 'setField':
      return { op: 'setField', key: op.key, field: op.field, value: op.value };
    case 'addToSet':
      return { op: 'addToSet', key: op.key, items: op.items };
    default:
      // Not an operation at all: kept as it is, for the event's check to name.
      return op;
  }
}

// The text of each stored (frozen, so unchanging) event, made once: the store writes it and the servers stream it.
const storedTexts = new WeakMap<Event, string>();

/** `JSON.stringify(eventToJson(event))`, kept for a frozen event (as stores return them) so it is made only once. */
export function eventJsonText(event: Event): string {
  const kept = storedTexts.get(event);
  if (kept !== undefined) return kept;
  const text = JSON.stringify(eventToJson(event));
  if (Object.isFrozen(event)) storedTexts.set(event, text);
  return text;
}

/** The JSON form of an event, with its keys in a fixed order so equal events serialize to equal bytes. */
export function eventToJson(event: Event): Event {
  const actions = event.actions;
  const json: Event = {
    id: event.id,
    invocationId: event.invocationId,
    author: event.author,
    ...(event.branch === undefined ? {} : { branch: event.branch }),
    timestamp: event.timestamp,
    ...(event.content === undefined ? {} : { content: event.content }),
    ...(event.longRunningToolIds === undefined ? {} : { longRunningToolIds: event.longRunningToolIds }),
    actions: {
      stateDelta: actions.stateDelta,
      ...(actions.stateOps === undefined || actions.stateOps.length === 0
        ? {}
        : { stateOps: actions.stateOps.map(stateOpToJson) }),
      artifactDelta: actions.artifactDelta,
      ...(actions.transferToAgent === undefined ? {} : { transferToAgent: actions.transferToAgent }),
      ...(actions.escalate === undefined ? {} : { escalate: actions.escalate }),
      ...(actions.skipSummarization === undefined ? {} : { skipSummarization: actions.skipSummarization }),
      ...(actions.compaction === undefined ? {} : { compaction: actions.compaction }),
      ...(actions.rewindBeforeInvocationId === undefined
        ? {}
        : { rewindBeforeInvocationId: actions.rewindBeforeInvocationId }),
      ...(actions.requestedToolConfirmations === undefined
        ? {}
        : { requestedToolConfirmations: actions.requestedToolConfirmations }),
      ...(actions.requestedAuthConfigs === undefined ? {} : { requestedAuthConfigs: actions.requestedAuthConfigs }),
    },
    ...(event.usage === undefined ? {} : { usage: event.usage }),
    ...(event.partial === undefined ? {} : { partial: event.partial }),
    ...(event.errorCode === undefined ? {} : { errorCode: event.errorCode }),
    ...(event.errorMessage === undefined ? {} : { errorMessage: event.errorMessage }),
  };
  return json;
}
