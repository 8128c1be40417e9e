import type { Content, FunctionCall, FunctionResponse, Part, Role } from '../../contracts/content.js';
import { readContent, readPart } from '../../engine/session/decode-content.js';
import { setOwn } from '../../engine/util/copy-value.js';
import { type JsonReader, describeValue, isPlainRecord, joinPath } from '../../engine/util/json-reader.js';

// google-genai's `Content`, `Part`, `FunctionCall`… as ADK's eval files hold them: snake_case (files are written
// without aliases), every field optional and often written as null (simple_test.test.json has `"video_metadata": null`
// on each part). They are read as agentctx's `Content` (src/contracts/content.ts): nulls dropped, keys camelCased, then
// checked by the engine's readers, so a problem's path names a key in its camelCase form. Tool arguments and responses
// are the tool's own JSON, kept as written.

const NESTED = ['functionCall', 'functionResponse', 'inlineData', 'fileData', 'executableCode', 'codeExecutionResult'];

/** The camelCase name of a snake_case one: `function_call` → `functionCall`. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * A genai message. ADK lets `role` be absent (`Content(parts=[…])` in its tests): it is then the role the message
 * has where it is (`user` for a user's content, `model` otherwise), as agentctx's messages always carry one.
 */
export function readGenaiContent(
  reader: JsonReader,
  value: unknown,
  path: string,
  defaultRole: Role,
): Content | undefined {
  const record = reader.object(value, path, 'a message ({ role, parts })');
  if (record === undefined) return undefined;
  const fields = camelLevel(reader, record, path);
  const parts = fields['parts'] === undefined ? [] : reader.array(fields['parts'], joinPath(path, 'parts'));
  if (parts === undefined) return undefined;
  // A role agentctx has no place for is reported here, so that the parts are still checked.
  const role = fields['role'] ?? defaultRole;
  const known = role === 'user' || role === 'model';
  if (!known) reader.issue(joinPath(path, 'role'), `expected 'user' or 'model', got ${describeValue(role)}`);
  const content = readContent(
    reader,
    { ...fields, role: known ? role : defaultRole, parts: parts.map(normalizePart) },
    path,
  );
  return known ? content : undefined;
}

/** A genai part; see readGenaiContent. */
export function readGenaiPart(reader: JsonReader, value: unknown, path: string): Part | undefined {
  if (!isPlainRecord(value)) return reader.issue(path, `expected a part, got ${describeValue(value)}`);
  return readPart(reader, normalizePart(value), path);
}

/** A genai `FunctionCall` (an entry of `tool_uses`): a name; `id` and `args` optional. */
export function readGenaiFunctionCall(reader: JsonReader, value: unknown, path: string): FunctionCall | undefined {
  const call = readCallLike(reader, value, path, 'args');
  if (call === undefined) return undefined;
  const { payload, ...rest } = call;
  return payload === undefined ? rest : { ...rest, args: payload };
}

/** A genai `FunctionResponse` (an entry of `tool_responses`): a name; `id` and `response` optional. */
export function readGenaiFunctionResponse(
  reader: JsonReader,
  value: unknown,
  path: string,
): FunctionResponse | undefined {
  const response = readCallLike(reader, value, path, 'response');
  if (response === undefined) return undefined;
  const { payload, ...rest } = response;
  return payload === undefined ? rest : { ...rest, response: payload };
}

function readCallLike(
  reader: JsonReader,
  value: unknown,
  path: string,
  payloadKey: 'args' | 'response',
): { id?: string; name: string; payload?: Record<string, unknown> } | undefined {
  const record = reader.object(value, path, payloadKey === 'args' ? 'a function call' : 'a function response');
  if (record === undefined) return undefined;
  const fields = camelLevel(reader, record, path);
  reader.keys(fields, path, ['id', 'name', payloadKey]);
  const id = reader.string(fields, 'id', path, { optional: true });
  const name = reader.string(fields, 'name', path, { nonEmpty: true });
  const raw = fields[payloadKey];
  const payload = raw === undefined ? undefined : reader.object(raw, joinPath(path, payloadKey));
  if (name === undefined || (raw !== undefined && payload === undefined)) return undefined;
  return { ...(id === undefined ? {} : { id }), name, ...(payload === undefined ? {} : { payload }) };
}

// A part with its keys, and the keys of its function call, data or code, camelCased and its nulls dropped.
function normalizePart(value: unknown): unknown {
  if (!isPlainRecord(value)) return value;
  const part: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null) continue;
    const name = camelCase(key);
    setOwn(part, name in part ? key : name, NESTED.includes(name) && isPlainRecord(inner) ? dropNulls(inner) : inner);
  }
  return part;
}

function dropNulls(record: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const name = camelCase(key);
    if (value !== null) setOwn(result, name in result ? key : name, value);
  }
  return result;
}

// One level of keys camelCased, nulls dropped (every genai field is optional); a key given both ways is an issue.
function camelLevel(reader: JsonReader, record: Record<string, unknown>, path: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) {
    if (value === null) continue;
    const name = camelCase(key);
    const first = givenAs.get(name);
    if (first !== undefined) {
      reader.issue(joinPath(path, key), `given twice, as '${first}' and as '${key}'`);
      continue;
    }
    givenAs.set(name, key);
    setOwn(result, name, value);
  }
  return result;
}
