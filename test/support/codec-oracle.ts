import fc from 'fast-check';
import { expect } from 'vitest';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';

// What the codec tests (test/sessions/fuzz-codecs.test.ts) expect, written without the codec: the key orders of the
// JSON forms (docs/server.md), hand-written vectors with their exact bytes, and which value a reader must accept in
// one field of an event. None of it calls `eventToJson`, `parseEvent` or the stores, so a broken codec cannot agree
// with itself here.

/** The JSON form's key order: an event's top level, its actions, and a session (docs/server.md). */
export const EVENT_KEYS = [
  'id',
  'invocationId',
  'author',
  'branch',
  'timestamp',
  'content',
  'actions',
  'usage',
  'partial',
  'errorCode',
  'errorMessage',
];
export const ACTION_KEYS = [
  'stateDelta',
  'stateOps',
  'artifactDelta',
  'transferToAgent',
  'escalate',
  'skipSummarization',
  'compaction',
  'rewindBeforeInvocationId',
  'requestedToolConfirmations',
  'requestedAuthConfigs',
];
export const SESSION_KEYS = [
  'schemaVersion',
  'appName',
  'userId',
  'id',
  'state',
  'events',
  'lastUpdateTime',
  'revision',
];
const USAGE_KEYS = ['promptTokens', 'outputTokens', 'cachedTokens', 'totalTokens'];
// ADK's action fields that a reader accepts and drops.
const ADK_ACTION_KEYS = ['endOfAgent', 'agentState', 'renderUiWidgets', 'route', 'setModelResponse'];

/** A plain copy through JSON text: what the generated value says, with undefined fields gone. */
export const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks that the keys of `value` come in the documented `order` (and are all documented). */
export function expectKeyOrder(value: unknown, order: readonly string[], what: string): void {
  const keys = Object.keys(value as object);
  expect(keys, `${what}: undocumented keys`).toEqual(keys.filter((key) => order.includes(key)));
  expect(keys, `${what}: key order`).toEqual(order.filter((key) => keys.includes(key)));
}

/** The same object with its keys (and its actions' keys) in reverse order: a writer must not depend on it. */
export function reversedKeys<T extends object>(value: T): T {
  const flip = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).reverse());
  const event = flip(value as Record<string, unknown>);
  if (isRecord(event['actions'])) event['actions'] = flip(event['actions']);
  return event as T;
}

/** Events as JSON text, each with the exact text it must come back as after `parseEvent` then `eventToJson`. */
export const EVENT_VECTORS: { name: string; text: string; canonical: string }[] = [
  {
    name: 'every field',
    text: String.raw`{"errorMessage":"boom \" {name} \u0000 😀","id":"e1","invocationId":"i1","author":"agent","branch":"root.agent","timestamp":12.5,"content":{"role":"model","parts":[{"text":"hi {user:x?}","thought":true,"thoughtSignature":"c2ln"},{"functionCall":{"id":"c1","name":"look","args":{"q":"x"}},"thought":false},{"functionResponse":{"id":"c1","name":"look","response":{"ok":[1,null]}}},{"inlineData":{"mimeType":"image/png","data":"AAE=","displayName":"dot"}},{"fileData":{"fileUri":"gs://b/f.pdf","mimeType":"application/pdf"}},{"executableCode":{"code":"print(1)","language":"PYTHON"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1"}}]},"actions":{"requestedAuthConfigs":{"c2":{"scheme":"oauth"}},"stateDelta":{"k":1,"user:u":[1,"two"],"app:a":{"b":null}},"artifactDelta":{"a.txt":2},"transferToAgent":"other","escalate":false,"skipSummarization":true,"rewindBeforeInvocationId":"i0","compaction":{"startTimestamp":1,"endTimestamp":2,"compactedContent":{"role":"model","parts":[{"text":"sum"}]},"eventIds":["e0"]},"requestedToolConfirmations":{"c1":{"hint":"ok?"}}},"usage":{"promptTokens":3,"outputTokens":4,"cachedTokens":1,"totalTokens":7},"partial":false,"errorCode":"E"}`,
    canonical: String.raw`{"id":"e1","invocationId":"i1","author":"agent","branch":"root.agent","timestamp":12.5,"content":{"role":"model","parts":[{"text":"hi {user:x?}","thought":true,"thoughtSignature":"c2ln"},{"functionCall":{"id":"c1","name":"look","args":{"q":"x"}},"thought":false},{"functionResponse":{"id":"c1","name":"look","response":{"ok":[1,null]}}},{"inlineData":{"mimeType":"image/png","data":"AAE=","displayName":"dot"}},{"fileData":{"fileUri":"gs://b/f.pdf","mimeType":"application/pdf"}},{"executableCode":{"code":"print(1)","language":"PYTHON"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1"}}]},"actions":{"stateDelta":{"k":1,"user:u":[1,"two"],"app:a":{"b":null}},"artifactDelta":{"a.txt":2},"transferToAgent":"other","escalate":false,"skipSummarization":true,"compaction":{"startTimestamp":1,"endTimestamp":2,"compactedContent":{"role":"model","parts":[{"text":"sum"}]},"eventIds":["e0"]},"rewindBeforeInvocationId":"i0","requestedToolConfirmations":{"c1":{"hint":"ok?"}},"requestedAuthConfigs":{"c2":{"scheme":"oauth"}}},"usage":{"promptTokens":3,"outputTokens":4,"cachedTokens":1,"totalTokens":7},"partial":false,"errorCode":"E","errorMessage":"boom \" {name} \u0000 😀"}`,
  },
  {
    name: 'the fewest fields',
    text: '{"id":"e2","author":"user","timestamp":0}',
    canonical:
      '{"id":"e2","invocationId":"","author":"user","timestamp":0,"actions":{"stateDelta":{},"artifactDelta":{}}}',
  },
  {
    name: "ADK's form (usageMetadata, ADK-only fields, an empty branch)",
    text: '{"id":"e3","invocationId":"i","author":"model_agent","branch":"","timestamp":1.25,"content":{"role":"model","parts":[{"text":"ok"}]},"actions":{"stateDelta":{},"artifactDelta":{},"endOfAgent":true},"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7,"trafficType":"x"},"turnComplete":true,"modelVersion":"m"}',
    canonical:
      '{"id":"e3","invocationId":"i","author":"model_agent","timestamp":1.25,"content":{"role":"model","parts":[{"text":"ok"}]},"actions":{"stateDelta":{},"artifactDelta":{}},"usage":{"promptTokens":5,"outputTokens":2,"totalTokens":7}}',
  },
];

/** The fields of an event the garbage test replaces. */
export const REPLACED_FIELDS = [
  'id',
  'invocationId',
  'author',
  'branch',
  'timestamp',
  'content',
  'actions',
  'usage',
  'partial',
  'errorCode',
  'errorMessage',
] as const;
export type ReplacedField = (typeof REPLACED_FIELDS)[number];

const ABSENT = Symbol('absent');
/** How a reader must treat one field's value: refused (naming that field), read as `read` (ABSENT: left out), or not decided here. */
export type Verdict = { refused: true } | { refused: false; read: unknown } | undefined;
const REFUSED: Verdict = { refused: true };
const read = (value: unknown): Verdict => ({ refused: false, read: value });
const EMPTY_ACTIONS = { stateDelta: {}, artifactDelta: {} };

/** The rule for one field, from the event format's definition; `undefined` where a nested value would need the whole reader. */
export function verdictFor(field: ReplacedField, value: unknown): Verdict {
  switch (field) {
    case 'id':
      return typeof value === 'string' && value.trim() !== '' ? read(value) : REFUSED;
    case 'author':
    case 'invocationId':
    case 'errorCode':
    case 'errorMessage':
      return typeof value === 'string' ? read(value) : REFUSED;
    case 'branch':
      return typeof value === 'string' ? read(value === '' ? ABSENT : value) : REFUSED;
    case 'timestamp':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? read(value) : REFUSED;
    case 'partial':
      return typeof value === 'boolean' ? read(value) : REFUSED;
    case 'usage':
      if (value === null) return read(ABSENT);
      return isRecord(value) &&
        Object.entries(value).every(
          ([key, count]) => USAGE_KEYS.includes(key) && Number.isInteger(count) && (count as number) >= 0,
        )
        ? read(value)
        : REFUSED;
    case 'content': {
      if (value === null) return read(ABSENT);
      if (!isRecord(value) || (value['role'] !== 'user' && value['role'] !== 'model') || !Array.isArray(value['parts']))
        return REFUSED;
      if (Object.keys(value).some((key) => key !== 'role' && key !== 'parts')) return REFUSED;
      return value['parts'].length === 0 ? read(value) : undefined;
    }
    case 'actions': {
      if (value === null) return read(EMPTY_ACTIONS);
      if (
        !isRecord(value) ||
        Object.keys(value).some((key) => !ACTION_KEYS.includes(key) && !ADK_ACTION_KEYS.includes(key))
      )
        return REFUSED;
      return Object.keys(value).every((key) => ADK_ACTION_KEYS.includes(key)) ? read(EMPTY_ACTIONS) : undefined;
    }
  }
}

/** Values near the edge of each field's rule, with the verdict written out by hand. */
export const NEAR_MISSES: { field: ReplacedField; value: unknown; verdict: Verdict }[] = [
  ...['', ' ', '\t\n', 7, null, ['e'], {}].map((value) => ({ field: 'id' as const, value, verdict: REFUSED })),
  { field: 'id', value: ' e ', verdict: read(' e ') },
  ...[-1, -0.001, '1', true, null, [], 1e400 /* Infinity */].map((value) => ({
    field: 'timestamp' as const,
    value,
    verdict: REFUSED,
  })),
  { field: 'timestamp', value: 0, verdict: read(0) },
  { field: 'timestamp', value: 1e12 + 0.5, verdict: read(1e12 + 0.5) },
  ...[null, 0, 'false', []].map((value) => ({ field: 'partial' as const, value, verdict: REFUSED })),
  ...[null, 1, false].map((value) => ({ field: 'author' as const, value, verdict: REFUSED })),
  { field: 'author', value: '', verdict: read('') },
  { field: 'branch', value: '', verdict: read(ABSENT) },
  { field: 'branch', value: null, verdict: REFUSED },
  { field: 'invocationId', value: null, verdict: REFUSED },
  { field: 'errorMessage', value: null, verdict: REFUSED },
  ...[{ promptTokens: 1.5 }, { promptTokens: -1 }, { prompt_tokens: 1 }, { totalTokens: '3' }, [], 'usage'].map(
    (value) => ({ field: 'usage' as const, value, verdict: REFUSED }),
  ),
  { field: 'usage', value: {}, verdict: read({}) },
  { field: 'usage', value: { promptTokens: 0, totalTokens: 9 }, verdict: read({ promptTokens: 0, totalTokens: 9 }) },
  ...[
    { role: 'system', parts: [] },
    { role: 'user' },
    { role: 'user', parts: {} },
    { role: 'user', parts: [], extra: 1 },
    { role: 'user', parts: [{}] },
    { role: 'user', parts: [{ text: 1 }] },
    { role: 'user', parts: [{ text: 'a', functionCall: { name: 'f' } }] },
    { role: 'model', parts: [{ functionCall: { name: '' } }] },
    { role: 'model', parts: [{ functionCall: { name: 'f', args: [] } }] },
    { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }] },
    { role: 'model', parts: [{ text: 'a', thought: 'yes' }] },
    'text',
  ].map((value) => ({ field: 'content' as const, value, verdict: REFUSED })),
  {
    field: 'content',
    value: { role: 'user', parts: [{ text: '{x}' }, { functionResponse: { name: 'f' } }] },
    verdict: read({ role: 'user', parts: [{ text: '{x}' }, { functionResponse: { name: 'f' } }] }),
  },
  {
    field: 'content',
    value: { role: 'model', parts: [{ executableCode: { code: 'x' } }] },
    verdict: read({ role: 'model', parts: [{ executableCode: { code: 'x', language: 'PYTHON' } }] }),
  },
  ...[
    [],
    { stateDelta: [] },
    { artifactDelta: { a: -1 } },
    { artifactDelta: { a: 1.5 } },
    { escalate: 'yes' },
    { transferToAgent: '' },
    { rewindBeforeInvocationId: ' ' },
    { compaction: { startTimestamp: 2, endTimestamp: 1, compactedContent: { role: 'user', parts: [] } } },
    { compaction: { startTimestamp: 1, endTimestamp: 2 } },
    {
      compaction: { startTimestamp: 1, endTimestamp: 2, compactedContent: { role: 'user', parts: [] }, eventIds: [1] },
    },
    { requestedToolConfirmations: [] },
  ].map((value) => ({ field: 'actions' as const, value, verdict: REFUSED })),
  { field: 'actions', value: {}, verdict: read(EMPTY_ACTIONS) },
  { field: 'actions', value: { endOfAgent: true, stateDelta: null }, verdict: read(EMPTY_ACTIONS) },
  {
    field: 'actions',
    value: { stateDelta: { 'user:k': [1] }, escalate: true },
    verdict: read({ stateDelta: { 'user:k': [1] }, artifactDelta: {}, escalate: true }),
  },
];

/** A value for a field: any JSON (judged by `verdictFor`), or a hand-judged near miss. */
export const replacement: fc.Arbitrary<{ field: ReplacedField; value: unknown; verdict: Verdict }> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...REPLACED_FIELDS), fc.jsonValue({ maxDepth: 3 }))
    .map(([field, value]) => ({ field, value, verdict: verdictFor(field, value) })),
  fc.constantFrom(...NEAR_MISSES),
);

/**
 * Checks what `parse` did with `event` whose `field` now holds a value of this verdict: refused with a
 * ValidationError naming the field, or read as the event with that field's value as the verdict says.
 */
export function expectVerdict(
  parse: () => unknown,
  event: Record<string, unknown>,
  field: ReplacedField,
  verdict: Verdict,
): void {
  let result: unknown;
  let error: unknown;
  try {
    result = parse();
  } catch (caught) {
    error = caught;
  }
  if (verdict === undefined) {
    if (error !== undefined) expect(error, String(error)).toBeInstanceOf(ValidationError);
    return;
  }
  if (verdict.refused) {
    expect(error, `${field} must be refused`).toBeInstanceOf(ValidationError);
    const paths = (error as ValidationError).issues.map((issue) => issue.path);
    expect(
      paths.some((path) => path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`)),
      `issues name ${field}: ${paths.join(', ')}`,
    ).toBe(true);
    return;
  }
  expect(error, `${field} must be read: ${String(error)}`).toBeUndefined();
  const expected: Record<string, unknown> = { ...event };
  if (verdict.read === ABSENT) delete expected[field];
  else expected[field] = verdict.read;
  expect(result).toEqual(expected);
}
