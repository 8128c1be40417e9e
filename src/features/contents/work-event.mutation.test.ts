import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import { functionCalls, functionResponses, hasFunctionCall, hasFunctionResponse, toWorkEvent } from './work-event.js';

const event = (parts: Part[] | undefined): Event => ({
  id: 'e',
  invocationId: 'i',
  author: 'me',
  timestamp: 1,
  actions: { stateDelta: {}, artifactDelta: {} },
  ...(parts === undefined ? {} : { content: { role: 'model' as const, parts } }),
});

describe('toWorkEvent', () => {
  it("finds an event's calls and responses, each part with the event as its source", () => {
    const call = { id: 'c', name: 'f' };
    const response = { id: 'r', name: 'g' };
    const work = toWorkEvent(event([{ text: 'x' }, { functionCall: call }, { functionResponse: response }]));
    expect(functionCalls(work)).toEqual([call]);
    expect(functionResponses(work)).toEqual([response]);
    expect(hasFunctionCall(work)).toBe(true);
    expect(hasFunctionResponse(work)).toBe(true);
    expect(work.sources).toEqual(
      [0, 1, 2].map(() => ({ kind: 'history', processor: 'contents', agent: 'me', eventIds: ['e'] })),
    );
  });

  it('gives an event without content or without calls no parts, calls or responses', () => {
    for (const work of [toWorkEvent(event(undefined)), toWorkEvent(event([{ text: 'x' }]))]) {
      expect(hasFunctionCall(work)).toBe(false);
      expect(hasFunctionResponse(work)).toBe(false);
      expect(work.calls).toEqual([]);
      expect(work.responses).toEqual([]);
    }
    expect(toWorkEvent(event(undefined)).parts).toEqual([]);
  });
});
