import { describe, expect, it } from 'vitest';
import {
  runConversation,
  TOKEN,
  tokenBoundViolations,
  TURNS,
  type ConversationRun,
} from '../../bench/compaction-conversation.js';

const sum = (run: ConversationRun): number => run.calls.reduce((total, call) => total + call.tokens, 0);

// The conversation of `npm run bench:compaction`, through the real runner (it imports the built package: build first).
describe('bench:compaction conversation', () => {
  it('token trigger: every call of the 200 turns stays under tokenThreshold + the retained tail, and no call loses its response', {
    timeout: 60_000,
  }, async () => {
    const token = await runConversation({ mode: 'token' });
    expect(token.calls.length).toBeGreaterThan(2 * TURNS);
    expect(token.compactions.length).toBeGreaterThanOrEqual(10);
    expect(tokenBoundViolations(token.calls, TOKEN.tokenThreshold)).toEqual([]);
    for (const call of token.calls) {
      expect(
        call.tokens < TOKEN.tokenThreshold ||
          (call.compactedBefore && call.tokens < TOKEN.tokenThreshold + call.tailTokens),
      ).toBe(true);
    }
    expect(token.pairProblems).toEqual([]);
  });

  it('sliding window and token trigger send fewer prompt tokens in total than no compaction, with pairs intact', {
    timeout: 60_000,
  }, async () => {
    const none = await runConversation({ mode: 'none' });
    const window = await runConversation({ mode: 'window' });
    const token = await runConversation({ mode: 'token' });
    expect(window.calls.length).toBe(none.calls.length);
    expect(token.calls.length).toBe(none.calls.length);
    expect(window.compactions.length).toBeGreaterThanOrEqual(TURNS / 10 - 1);
    expect(sum(window)).toBeLessThan(sum(none));
    expect(sum(token)).toBeLessThan(sum(none));
    expect(none.pairProblems).toEqual([]);
    expect(window.pairProblems).toEqual([]);
  });
});
