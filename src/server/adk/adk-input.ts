import type { Content } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { readContent } from '../../engine/session/decode-content.js';
import { checkUniqueEventIds, readEvent } from '../../engine/session/decode-event.js';
import { newStateKeyIssues } from '../../engine/state/state-rules.js';
import { JsonReader, joinPath } from '../../engine/util/json-reader.js';
import { checkIdLength, checkUserMessage } from '../request-input.js';

/*
 * Request bodies of ADK's API server. ADK Python takes every field in snake_case or camelCase and the dev UI sends
 * camelCase; both are read here. A field given both ways, or one ADK does not have, is refused with its name.
 */

/** `POST /run` and `POST /run_sse`. */
export type AdkRunBody = {
  appName: string;
  userId: string;
  sessionId: string;
  newMessage: Content | undefined;
  streaming: boolean;
  stateDelta: Record<string, unknown> | undefined;
  /** Accepted for compatibility; agentctx resumes no invocation by id, so a message always starts a new one. */
  invocationId: string | undefined;
  functionCallEventId: string | undefined;
};

const RUN_FIELDS = [
  'appName',
  'userId',
  'sessionId',
  'newMessage',
  'streaming',
  'stateDelta',
  'invocationId',
  'functionCallEventId',
] as const;

export function readAdkRunBody(value: unknown): AdkRunBody {
  const reader = new JsonReader();
  const record = camelCased(
    reader,
    reader.object(value, '', 'a JSON object ({ appName, userId, sessionId, newMessage, streaming?, stateDelta? })'),
    RUN_FIELDS,
  );
  const appName = reader.string(record, 'appName', '', { nonEmpty: true });
  const userId = reader.string(record, 'userId', '', { nonEmpty: true });
  const sessionId = reader.string(record, 'sessionId', '', { nonEmpty: true });
  const newMessage = record['newMessage'] == null ? undefined : readContent(reader, record['newMessage'], 'newMessage');
  checkUserMessage(reader, newMessage, 'newMessage');
  const streaming = record['streaming'] == null ? false : reader.boolean(record, 'streaming', '');
  const stateDelta =
    record['stateDelta'] == null
      ? undefined
      : reader.object(record['stateDelta'], 'stateDelta', 'an object of state keys');
  const invocationId = record['invocationId'] == null ? undefined : reader.string(record, 'invocationId', '');
  const functionCallEventId =
    record['functionCallEventId'] == null ? undefined : reader.string(record, 'functionCallEventId', '');
  for (const [path, id] of [
    ['appName', appName],
    ['userId', userId],
    ['sessionId', sessionId],
  ] as const)
    checkIdLength(reader, id, path);
  if (reader.issues.length > 0 || appName === undefined || userId === undefined || sessionId === undefined)
    throw invalid(reader);
  return {
    appName,
    userId,
    sessionId,
    newMessage,
    streaming: streaming === true,
    stateDelta,
    invocationId,
    functionCallEventId,
  };
}

/** `POST …/sessions[/{id}]`: `{ state?, sessionId?, events? }` (ADK Python appends the events given, in order). */
export type AdkCreateSessionBody = { sessionId?: string; state?: Record<string, unknown>; events: Event[] };

export function readAdkCreateSessionBody(value: unknown): AdkCreateSessionBody {
  const reader = new JsonReader();
  const record =
    value === undefined
      ? {}
      : camelCased(reader, reader.object(value, '', 'a JSON object ({ state?, sessionId?, events? })'), [
          'sessionId',
          'state',
          'events',
        ]);
  const sessionId =
    record['sessionId'] == null ? undefined : reader.string(record, 'sessionId', '', { nonEmpty: true });
  checkIdLength(reader, sessionId, 'sessionId');
  const state =
    record['state'] == null ? undefined : reader.object(record['state'], 'state', 'an object of state keys');
  const events: Event[] = [];
  const list = record['events'] == null ? [] : (reader.array(record['events'], 'events') ?? []);
  list.forEach((item, index) => {
    const event = readEvent(reader, item, joinPath('events', index));
    if (event !== undefined) events.push(event);
  });
  checkUniqueEventIds(reader, events, 'events');
  if (reader.issues.length > 0) throw invalid(reader);
  return { ...(sessionId === undefined ? {} : { sessionId }), ...(state === undefined ? {} : { state }), events };
}

/** `PATCH …/sessions/{id}`: `{ stateDelta }`. */
export function readAdkPatchBody(value: unknown): Record<string, unknown> {
  const reader = new JsonReader();
  const record = camelCased(reader, reader.object(value, '', 'a JSON object ({ stateDelta })'), ['stateDelta']);
  const delta =
    record['stateDelta'] === undefined
      ? reader.issue('stateDelta', 'is required: an object of state keys to write')
      : reader.object(record['stateDelta'], 'stateDelta', 'an object of state keys');
  if (delta !== undefined)
    for (const issue of newStateKeyIssues(delta, 'stateDelta')) reader.issue(issue.path, issue.message);
  if (reader.issues.length > 0 || delta === undefined) throw invalid(reader);
  return delta;
}

// The record with snake_case keys renamed to the camelCase ADK also takes; unknown keys and a key given both ways are issues.
function camelCased(
  reader: JsonReader,
  record: Record<string, unknown> | undefined,
  allowed: readonly string[],
): Record<string, unknown> {
  if (record === undefined) return {};
  const result: Record<string, unknown> = {};
  // The key each field was first given as, to name both spellings when it comes again.
  const givenAs = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) {
    const camel = key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    if (!allowed.includes(camel)) {
      reader.issue(key, `unknown field; ADK's request has ${allowed.join(', ')} (or their snake_case forms)`);
      continue;
    }
    const first = givenAs.get(camel);
    if (first !== undefined) reader.issue(key, `given twice, as ${first} and as ${key}`);
    else givenAs.set(camel, key);
    result[camel] = value;
  }
  return result;
}

function invalid(reader: JsonReader): ValidationError {
  return new ValidationError({ subject: 'request body', issues: reader.issues });
}
