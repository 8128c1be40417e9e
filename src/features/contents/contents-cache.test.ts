import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../test/support/property-runs.js';
import type { Event } from '../../contracts/event.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { buildContents } from './build-contents.js';
import { ContentsCache } from './contents-cache.js';

type Step =
  | { kind: 'user'; text: string }
  | { kind: 'text'; author: string; text: string; thought: boolean }
  | { kind: 'call'; author: string; count: number }
  | { kind: 'respond'; author: string; back: number }
  | { kind: 'rewind'; back: number }
  | { kind: 'compact'; span: number; withIds: boolean }
  | { kind: 'state' };

const authors = fc.constantFrom('me', 'me', 'other', 'user');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('user' as const), text: fc.string({ maxLength: 6 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      author: authors,
      text: fc.string({ maxLength: 6 }),
      thought: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      author: authors,
      count: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('respond' as const),
      author: authors,
      back: fc.integer({ min: 0, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), back: fc.integer({ min: 0, max: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      span: fc.integer({ min: 1, max: 4 }),
      withIds: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('state' as const) }) },
);
// Now and then an event lands on a child branch, out of the view of the agent (on branch 'a').
const placed = fc.record({ step, elsewhere: fc.integer({ min: 0, max: 9 }).map((n) => n === 0) });

// Turns steps into a plausible history: responses answer earlier calls (recent ones, or long-running ones further back).
function toEvents(steps: readonly { step: Step; elsewhere: boolean }[]): Event[] {
  const events: Event[] = [];
  const calls: string[] = [];
  const base = (index: number, author: string): Omit<Event, 'content'> => ({
    id: `e${index}`,
    invocationId: `inv${Math.floor(index / 3)}`,
    author,
    timestamp: index + 1,
    branch: steps[index]?.elsewhere === true ? 'a.b' : 'a',
    actions: { stateDelta: {}, artifactDelta: {} },
  });
  steps.forEach(({ step: item }, index) => {
    if (item.kind === 'user')
      events.push({ ...base(index, 'user'), content: { role: 'user', parts: [{ text: item.text }] } });
    else if (item.kind === 'text')
      events.push({
        ...base(index, item.author),
        content: { role: 'model', parts: [{ text: item.text, thought: item.thought }] },
      });
    else if (item.kind === 'call') {
      const parts = Array.from({ length: item.count }, (_, n) => {
        calls.push(`c${index}_${n}`);
        return { functionCall: { id: `c${index}_${n}`, name: 'tool', args: { n } } };
      });
      events.push({ ...base(index, item.author), content: { role: 'model', parts } });
    } else if (item.kind === 'respond') {
      const id = calls[calls.length - 1 - item.back];
      if (id !== undefined)
        events.push({
          ...base(index, item.author),
          content: { role: 'user', parts: [{ functionResponse: { id, name: 'tool', response: { ok: index } } }] },
        });
    } else if (item.kind === 'rewind') {
      const target = events[Math.max(0, events.length - 1 - item.back)]?.invocationId;
      if (target !== undefined)
        events.push({
          ...base(index, 'me'),
          actions: { stateDelta: {}, artifactDelta: {}, rewindBeforeInvocationId: target },
        });
    } else if (item.kind === 'state') {
      events.push({ ...base(index, 'me'), actions: { stateDelta: { k: index }, artifactDelta: {} } });
    } else if (events.length > 0) {
      const covered = events.slice(Math.max(0, events.length - item.span));
      const start = covered[0]?.timestamp ?? 1;
      const end = covered.at(-1)?.timestamp ?? 1;
      const eventIds = item.withIds
        ? { eventIds: covered.filter((event) => event.actions.compaction === undefined).map((event) => event.id) }
        : {};
      const compaction = {
        startTimestamp: start,
        endTimestamp: end,
        compactedContent: { role: 'model' as const, parts: [{ text: 'summary' }] },
        ...eventIds,
      };
      events.push({ ...base(index, 'user'), actions: { stateDelta: {}, artifactDelta: {}, compaction } });
    }
  });
  return events;
}

describe.each(['exact', 'adk'] as const)('ContentsCache (%s compaction view)', (compactionView) => {
  // As the contents processor sets them: abandoned calls are answered with agentctx's summaries only.
  const options = {
    agentName: 'me',
    branch: 'a',
    preserveFunctionCallIds: false,
    embed: pythonStr,
    compactionView,
    answerAbandonedCalls: compactionView === 'exact',
  };
  it('gives, after every appended event, exactly what a full rebuild gives', () => {
    fc.assert(
      fc.property(fc.array(placed, { minLength: 1, maxLength: 40 }), (steps) => {
        const events = toEvents(steps);
        const cache = new ContentsCache();
        for (let length = 1; length <= events.length; length++) {
          const prefix = events.slice(0, length);
          let expected: unknown;
          try {
            expected = buildContents(prefix, options);
          } catch (error) {
            expected = error;
          }
          let actual: unknown;
          try {
            actual = cache.build(prefix, options, 'python');
          } catch (error) {
            actual = error;
          }
          expect(actual).toEqual(expected);
        }
      }),
      propertyRuns(200),
    );
  });
});
