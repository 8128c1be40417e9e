import { describe, expect, it } from 'vitest';
import { eventBuilders } from '../../../test/support/compaction-events.js';
import type { Event, EventCompaction } from '../../contracts/event.js';
import { latestPromptTokens } from './prompt-tokens.js';
import { planTokenCompaction } from './token-threshold.js';

// The token trigger (docs/mutation.md, module `compaction`): the prompt size it is held against, the exact plan at
// the threshold, and a response whose call an earlier summary already took in.

const { base, user, answer, call, result } = eventBuilders();
const summary = (id: string, covered: readonly Event[], listIds = true): Event => {
  const compaction: EventCompaction = {
    startTimestamp: (covered[0] as Event).timestamp,
    endTimestamp: (covered.at(-1) as Event).timestamp,
    compactedContent: { role: 'model', parts: [{ text: 'the story so far' }] },
    ...(listIds ? { eventIds: covered.map((event) => event.id) } : {}),
  };
  return { ...base(id, '', 'user'), actions: { stateDelta: {}, artifactDelta: {}, compaction } };
};
const turns = (count: number, from = 1): Event[] =>
  Array.from({ length: count }, (_, i) => [
    user(`u${from + i}`, `i${from + i}`),
    answer(`a${from + i}`, `i${from + i}`),
  ]).flat();
const ids = (events: readonly Event[] | undefined) => events?.map((event) => event.id);

describe('planTokenCompaction', () => {
  const history = turns(2);
  const trigger = { tokenThreshold: 100, eventRetentionSize: 1 };

  it('plans nothing without a prompt size or under the threshold, and exactly this at it', () => {
    expect(planTokenCompaction(history, trigger, { promptTokens: undefined })).toBeUndefined();
    expect(planTokenCompaction(history, trigger, { promptTokens: 99 })).toBeUndefined();
    expect(planTokenCompaction(history, trigger, { promptTokens: 100 })).toStrictEqual({
      trigger: 'token_threshold',
      events: history.slice(0, 3),
      startTimestamp: (history[0] as Event).timestamp,
      endTimestamp: (history[2] as Event).timestamp,
      eventIds: ['u1', 'a1', 'u2'],
      promptTokens: 100,
    });
  });

  it('plans nothing when no more events than it keeps raw are new', () => {
    expect(
      planTokenCompaction(history, { tokenThreshold: 1, eventRetentionSize: 4 }, { promptTokens: 5 }),
    ).toBeUndefined();
    expect(
      ids(planTokenCompaction(history, { tokenThreshold: 1, eventRetentionSize: 3 }, { promptTokens: 5 })?.events),
    ).toEqual(['u1']);
  });

  it('summarizes a response whose call an earlier summary took in, under either rules', () => {
    // A long-running tool: its call was summarized while it ran, its response came after.
    const started = [user('u1', 'i1'), call('k1', 'i1')];
    const rest = [result('r1', 'i1', 'c-k1'), answer('a1', 'i1'), ...turns(1, 2)];
    const exact = planTokenCompaction(
      [...started, summary('s', started), ...rest],
      { tokenThreshold: 1, eventRetentionSize: 0 },
      { promptTokens: 1 },
    );
    expect(ids(exact?.events)).toEqual(['r1', 'a1', 'u2', 'a2']);
    expect(exact?.eventIds).toEqual(['u1', 'k1', 'r1', 'a1', 'u2', 'a2']);
    const adk = planTokenCompaction(
      [...started, summary('s', started, false), ...rest],
      { tokenThreshold: 1, eventRetentionSize: 0 },
      { promptTokens: 1, byIds: false },
    );
    expect(ids(adk?.events)).toEqual(['r1', 'a1', 'u2', 'a2']);
    expect(adk?.eventIds).toEqual(['u1', 'k1', 'r1', 'a1', 'u2', 'a2']);
  });

  it('under ADK’s rules, lists the raw events of the previous range, not an older summary inside it', () => {
    const first = turns(1);
    const older = summary('s1', first, false);
    const second = turns(1, 2);
    const wider = summary('s2', [...first, older, ...second], false);
    const events = [...first, older, ...second, wider, ...turns(1, 3)];
    const plan = planTokenCompaction(
      events,
      { tokenThreshold: 1, eventRetentionSize: 1 },
      { promptTokens: 1, byIds: false },
    );
    expect(plan?.eventIds).toEqual(['u1', 'a1', 'u2', 'a2', 'u3']);
    expect(plan?.seed?.id).toBe('seed-s2');
  });
});

describe('latestPromptTokens', () => {
  it('takes the most recent count, the first event’s included', () => {
    expect(latestPromptTokens([answer('a1', 'i1', 120)], false)).toBe(120);
    expect(
      latestPromptTokens([answer('a1', 'i1', 120), user('u2', 'i2'), answer('a2', 'i2', 300), user('u3', 'i3')], false),
    ).toBe(300);
    expect(latestPromptTokens([user('u1', 'i1')], false)).toBeUndefined();
  });

  it('skips what a summary replaced under agentctx’s rules; ADK reads the summarizer’s own count', () => {
    const first = [user('u1', 'i1'), answer('a1', 'i1', 500)];
    const compacted: Event = { ...summary('s', first), usage: { promptTokens: 40 } };
    expect(latestPromptTokens([...first, compacted], false)).toBeUndefined();
    expect(latestPromptTokens([...first, compacted], true)).toBe(40);
    expect(latestPromptTokens([...first, compacted, user('u2', 'i2'), answer('a2', 'i2', 200)], false)).toBe(200);
  });
});
