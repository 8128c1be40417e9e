import type { Content } from '../contracts/content.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { readContent } from '../engine/session/decode-content.js';
import { JsonReader, describeValue, joinPath } from '../engine/util/json-reader.js';

/**
 * The longest app name, user id, session id or artifact name a server takes, in a path or a body. Stores take any
 * length; a server caps it so that a client cannot make it hold or look up megabytes per request.
 */
export const MAX_ID_LENGTH = 1_024;

/** Notes an issue at `path` when `id` is longer than `MAX_ID_LENGTH`. */
export function checkIdLength(reader: JsonReader, id: string | undefined, path: string): void {
  if (id !== undefined && id.length > MAX_ID_LENGTH)
    reader.issue(
      path,
      `is ${id.length.toLocaleString('en')} characters long; ids are at most ${MAX_ID_LENGTH.toLocaleString('en')}`,
    );
}

export type CreateSessionBody = { sessionId?: string; state?: Record<string, unknown> };

/** `POST …/sessions`: `{ sessionId?, state? }` (`{}` for the defaults; the server refuses a request without a body). */
export function readCreateSessionBody(value: unknown): CreateSessionBody {
  const reader = new JsonReader();
  const record = value === undefined ? {} : reader.object(value, '', 'a JSON object ({ sessionId?, state? })');
  if (record === undefined) throw invalid(reader);
  reader.keys(record, '', ['sessionId', 'state']);
  const sessionId = reader.string(record, 'sessionId', '', { optional: true, nonEmpty: true });
  checkIdLength(reader, sessionId, 'sessionId');
  const state =
    record['state'] === undefined ? undefined : reader.object(record['state'], 'state', 'an object of state keys');
  if (reader.issues.length > 0) throw invalid(reader);
  return { ...(sessionId === undefined ? {} : { sessionId }), ...(state === undefined ? {} : { state }) };
}

/** Notes the issues of a message sent to an agent: it is the user's, and says something (at least one part). */
export function checkUserMessage(reader: JsonReader, message: Content | undefined, path: string): void {
  if (message === undefined) return;
  if (message.role !== 'user')
    reader.issue(
      joinPath(path, 'role'),
      `a message sent to the agent is the user's; expected 'user', got '${message.role}'`,
    );
  if (message.parts.length === 0)
    reader.issue(joinPath(path, 'parts'), 'is empty: a message needs at least one part, such as { "text": "hello" }');
}

export type RunBody = { message: string | Content; stateDelta?: Record<string, unknown> };

/** `POST …/run`: `{ message: string | { role: 'user', parts }, stateDelta? }`. */
export function readRunBody(value: unknown): RunBody {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a JSON object ({ message, stateDelta? })');
  if (record === undefined) throw invalid(reader, 'Send {"message": "hello"}.');
  reader.keys(record, '', ['message', 'stateDelta']);
  const raw = record['message'];
  let message: string | Content | undefined;
  if (typeof raw === 'string') {
    if (raw.trim() === '') reader.issue('message', 'must not be empty');
    else message = raw;
  } else if (raw === undefined) {
    reader.issue('message', 'is required: a string, or a message { role: "user", parts: [...] }');
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    message = readContent(reader, raw, 'message');
    checkUserMessage(reader, message, 'message');
  } else {
    reader.issue('message', `expected a string or a message object, got ${describeValue(raw)}`);
  }
  const stateDelta =
    record['stateDelta'] === undefined
      ? undefined
      : reader.object(record['stateDelta'], 'stateDelta', 'an object of state keys');
  if (reader.issues.length > 0 || message === undefined) throw invalid(reader);
  return { message, ...(stateDelta === undefined ? {} : { stateDelta }) };
}

type QuerySpec = Record<string, 'count' | 'number' | 'text'>;
type QueryValues<T extends QuerySpec> = { [K in keyof T]?: T[K] extends 'text' ? string : number };

/** Query parameters: only the named ones, each at most once; `count` is a whole number ≥ 0, `text` is not empty. */
export function readQuery<T extends QuerySpec>(params: URLSearchParams, spec: T): QueryValues<T> {
  const reader = new JsonReader();
  const result: Record<string, number | string> = {};
  const allowed = Object.keys(spec);
  for (const name of new Set(params.keys())) {
    const kind = spec[name];
    const values = params.getAll(name);
    if (kind === undefined) {
      reader.issue(
        name,
        allowed.length === 0
          ? 'this route takes no query parameters'
          : `unknown query parameter; allowed: ${allowed.join(', ')}`,
      );
      continue;
    }
    if (values.length > 1) reader.issue(name, 'given more than once');
    const text = values[0] ?? '';
    const number = text.trim() === '' ? Number.NaN : Number(text);
    if (kind === 'text') {
      if (text.trim() === '') reader.issue(name, 'must not be empty');
      else if (text.length > MAX_QUERY_TEXT)
        reader.issue(name, `is ${text.length.toLocaleString('en')} characters long; at most ${MAX_QUERY_TEXT}`);
      else result[name] = text;
    } else if (kind === 'count' && !(Number.isInteger(number) && number >= 0))
      reader.issue(name, `expected a whole number from 0, got ${JSON.stringify(text)}`);
    else if (kind === 'number' && !Number.isFinite(number))
      reader.issue(name, `expected a number, got ${JSON.stringify(text)}`);
    else result[name] = number;
  }
  if (reader.issues.length > 0) throw new ValidationError({ subject: 'query', issues: reader.issues });
  return result as QueryValues<T>;
}

// A text parameter (a search query, an id) is capped like a path's ids: a client cannot make a lookup of megabytes.
const MAX_QUERY_TEXT = 8 * MAX_ID_LENGTH;

function invalid(reader: JsonReader, hint?: string): ValidationError {
  return new ValidationError({
    subject: 'request body',
    issues: reader.issues,
    ...(hint === undefined ? {} : { hint }),
  });
}
