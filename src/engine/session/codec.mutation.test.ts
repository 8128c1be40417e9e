import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { parseEvent, parseEvents } from './decode-event.js';
import { parseSession } from './session-json.js';

// The event codec pinned where mutants survived `npm run mutate -- codec` (docs/mutation.md): what a valid list
// gives back, which fields must not be empty, and the exact path of each problem.

const minimal = { id: 'e1', author: 'user', timestamp: 1 };

function issues(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map(({ path, message }) => ({ path, message }));
  }
  throw new Error('expected a ValidationError');
}
const paths = (run: () => unknown) => issues(run).map((issue) => issue.path);

describe('parseEvents', () => {
  it('returns every event of a valid list, in order', () => {
    expect(parseEvents([minimal, { ...minimal, id: 'e2' }]).map((event) => event.id)).toEqual(['e1', 'e2']);
    expect(parseEvents([])).toEqual([]);
  });

  it('refuses what is not a list, and names the item and field of each problem', () => {
    expect(paths(() => parseEvents({}))).toEqual(['']);
    expect(paths(() => parseEvents([minimal, { ...minimal, id: 'e2', timestamp: -1 }]))).toEqual(['[1].timestamp']);
    expect(paths(() => parseEvents([minimal, { ...minimal, id: 'e2' }, minimal]))).toEqual(['[2].id']);
  });
});

describe('parseEvent', () => {
  it('names the path of a problem inside actions, usage and content', () => {
    expect(paths(() => parseEvent({ ...minimal, actions: { stateDelta: [] } }))).toEqual(['actions.stateDelta']);
    expect(paths(() => parseEvent({ ...minimal, actions: { artifactDelta: { a: -1 } } }))).toEqual([
      'actions.artifactDelta.a',
    ]);
    expect(paths(() => parseEvent({ ...minimal, actions: { requestedAuthConfigs: 1 } }))).toEqual([
      'actions.requestedAuthConfigs',
    ]);
    expect(paths(() => parseEvent({ ...minimal, usage: { promptTokens: 1.5 } }))).toEqual(['usage.promptTokens']);
    expect(
      paths(() =>
        parseEvent({
          ...minimal,
          content: { role: 'model', parts: [{ text: 'a' }, { functionResponse: { name: 'f', response: 1 } }] },
        }),
      ),
    ).toEqual(['content.parts[1].functionResponse.response']);
    expect(
      paths(() => parseEvent({ ...minimal, content: { role: 'model', parts: [{ fileData: { fileUri: '' } }] } })),
    ).toEqual(['content.parts[0].fileData.fileUri']);
    expect(
      paths(() =>
        parseEvent({ ...minimal, content: { role: 'model', parts: [{ inlineData: { mimeType: '', data: 'AA' } }] } }),
      ),
    ).toEqual(['content.parts[0].inlineData.mimeType']);
    expect(
      paths(() =>
        parseEvent({ ...minimal, content: { role: 'model', parts: [{ executableCode: { language: 'PYTHON' } }] } }),
      ),
    ).toEqual(['content.parts[0].executableCode.code']);
    expect(
      paths(() => parseEvent({ ...minimal, content: { role: 'model', parts: [{ codeExecutionResult: {} }] } })),
    ).toEqual(['content.parts[0].codeExecutionResult.outcome']);
  });

  it('keeps the parts it can read, and reads code parts whole', () => {
    const event = parseEvent({
      ...minimal,
      content: {
        role: 'model',
        parts: [
          { executableCode: { code: 'print(1)' } },
          { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
          { functionCall: { name: 'f', args: { a: 1 } }, thought: true },
        ],
      },
    });
    expect(event.content?.parts).toEqual(
      [
        { executableCode: { code: 'print(1)', language: 'PYTHON' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
        { functionCall: { name: 'f', payload: undefined, args: { a: 1 } }, thought: true },
      ].map((part) => JSON.parse(JSON.stringify(part)) as unknown),
    );
  });

  it('refuses a summary whose range ends before it starts, and reads one that does not', () => {
    const compaction = (startTimestamp: number, endTimestamp: number) => ({
      ...minimal,
      actions: {
        compaction: {
          startTimestamp,
          endTimestamp,
          compactedContent: { role: 'model', parts: [{ text: 's' }] },
          eventIds: ['x'],
        },
      },
    });
    expect(paths(() => parseEvent(compaction(2, 1)))).toEqual(['actions.compaction']);
    expect(parseEvent(compaction(1, 1)).actions.compaction).toEqual({
      startTimestamp: 1,
      endTimestamp: 1,
      compactedContent: { role: 'model', parts: [{ text: 's' }] },
      eventIds: ['x'],
    });
    expect(
      paths(() =>
        parseEvent({
          ...minimal,
          actions: {
            compaction: {
              startTimestamp: 1,
              endTimestamp: 2,
              compactedContent: { role: 'model', parts: [] },
              eventIds: [1],
            },
          },
        }),
      ),
    ).toEqual(['actions.compaction.eventIds']);
  });

  it('takes ADK’s usage counts that are whole and not negative, zero included', () => {
    const usage = parseEvent({
      ...minimal,
      usageMetadata: {
        promptTokenCount: 0,
        candidatesTokenCount: 3,
        cachedContentTokenCount: -1,
        totalTokenCount: 2.5,
      },
    }).usage;
    expect(usage).toEqual({ promptTokens: 0, outputTokens: 3 });
    expect(parseEvent({ ...minimal, usageMetadata: { promptTokenCount: '7' } }).usage).toEqual({});
    expect(parseEvent({ ...minimal, usageMetadata: 'none' }).usage).toBeUndefined();
  });
});

describe('parseSession', () => {
  const session = { appName: 'a', userId: 'u', id: 's', state: {}, events: [] };

  it('refuses empty ids and names each', () => {
    expect(paths(() => parseSession({ ...session, appName: '', userId: ' ', id: '' }))).toEqual([
      'appName',
      'userId',
      'id',
    ]);
    expect(paths(() => parseSession([]))).toEqual(['']);
    expect(paths(() => parseSession({ ...session, state: [] }))).toEqual(['state']);
  });

  it('names the event and field of a problem in its events', () => {
    expect(paths(() => parseSession({ ...session, events: [minimal, { ...minimal, id: 'e2', author: 3 }] }))).toEqual([
      'events[1].author',
    ]);
    expect(paths(() => parseSession({ ...session, events: [minimal, minimal] }))).toEqual(['events[1].id']);
  });
});
