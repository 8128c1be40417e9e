import fc from 'fast-check';
import type { Content, Part } from '../../src/contracts/content.js';
import type { Event, EventActions } from '../../src/contracts/event.js';

// Generators for the property tests of this folder: events in their canonical JSON form (what a store writes and
// `parseEvent` reads back unchanged), and text full of the characters templates and JSON care about.

/** Text with braces, placeholders, quotes, escapes, NUL, surrogate pairs and line breaks mixed in. */
export const trickyText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '{',
          '}',
          '{{',
          '}}',
          '{user:secret}',
          '{name?}',
          '{artifact.a.txt}',
          '\\{',
          '"',
          '\\',
          '\u0000',
          '😀',
          '\n',
          'é',
          '\u2028',
        ),
      },
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(''));

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
const id = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,11}$/);
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const record = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 });
const seconds = fc.integer({ min: 0, max: 2_000_000_000 }).map((n) => n / 1000);

export const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record(
    { text: trickyText, thought: fc.boolean(), thoughtSignature: fc.base64String({ maxLength: 12 }) },
    { requiredKeys: ['text'] },
  ),
  fc.record(
    { functionCall: fc.record({ id, name, args: record }, { requiredKeys: ['name'] }), thought: fc.boolean() },
    { requiredKeys: ['functionCall'] },
  ),
  fc.record({ functionResponse: fc.record({ id, name, response: record }, { requiredKeys: ['name'] }) }),
  fc.record({
    inlineData: fc.record(
      {
        mimeType: fc.constantFrom('image/png', 'text/plain'),
        data: fc.base64String({ maxLength: 16 }),
        displayName: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: ['mimeType', 'data'] },
    ),
  }),
  fc.record({
    fileData: fc.record(
      { fileUri: fc.webUrl(), mimeType: fc.constant('application/pdf'), displayName: fc.string({ maxLength: 8 }) },
      { requiredKeys: ['fileUri'] },
    ),
  }),
  fc.record({ executableCode: fc.record({ code: trickyText, language: fc.constantFrom('PYTHON', 'JS') }) }),
  fc.record({
    codeExecutionResult: fc.record(
      { outcome: fc.constantFrom('OUTCOME_OK', 'OUTCOME_FAILED'), output: trickyText },
      { requiredKeys: ['outcome'] },
    ),
  }),
) as fc.Arbitrary<Part>;

export const content: fc.Arbitrary<Content> = fc.record({
  role: fc.constantFrom('user' as const, 'model' as const),
  parts: fc.array(part, { maxLength: 4 }),
});

const actions: fc.Arbitrary<EventActions> = fc
  .record(
    {
      stateDelta: fc.dictionary(
        fc.oneof(
          name,
          name.map((key) => `user:${key}`),
          name.map((key) => `app:${key}`),
        ),
        json,
        { maxKeys: 4 },
      ),
      artifactDelta: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.nat({ max: 50 }), { maxKeys: 2 }),
      transferToAgent: name,
      escalate: fc.boolean(),
      skipSummarization: fc.boolean(),
      rewindBeforeInvocationId: id,
      compaction: fc
        .tuple(seconds, seconds, content, fc.option(fc.array(id, { maxLength: 3 }), { nil: undefined }))
        .map(([a, b, compactedContent, eventIds]) => ({
          startTimestamp: Math.min(a, b),
          endTimestamp: Math.max(a, b),
          compactedContent,
          ...(eventIds === undefined ? {} : { eventIds }),
        })),
      requestedToolConfirmations: record,
    },
    { requiredKeys: ['stateDelta', 'artifactDelta'] },
  )
  .map((value) => value as EventActions);

/** One event as stored: every optional field sometimes present, in the form `eventToJson` writes. */
export const event: fc.Arbitrary<Event> = fc
  .record(
    {
      id,
      invocationId: fc.oneof(fc.constant(''), id),
      author: fc.oneof(fc.constant('user'), name),
      branch: fc.array(name, { minLength: 1, maxLength: 3 }).map((names) => names.join('.')),
      timestamp: seconds,
      content,
      actions,
      usage: fc.record(
        { promptTokens: fc.nat(), outputTokens: fc.nat(), cachedTokens: fc.nat(), totalTokens: fc.nat() },
        { requiredKeys: [] },
      ),
      partial: fc.boolean(),
      errorCode: fc.string({ maxLength: 8 }),
      errorMessage: trickyText,
    },
    { requiredKeys: ['id', 'invocationId', 'author', 'timestamp', 'actions'] },
  )
  .map((value) => value as Event);

/** Events with distinct ids, in order of time. */
export const events = (maxLength: number): fc.Arbitrary<Event[]> =>
  fc
    .uniqueArray(event, { selector: (item) => item.id, maxLength })
    .map((list) => list.map((item, index) => ({ ...item, timestamp: index + 1 })));
