import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { parseEvent, parseEvents } from './decode-event.js';
import { parseSession, sessionToJson } from './session-json.js';

const minimal = { id: 'e1', author: 'user', timestamp: 1.5 };

describe('parseEvent', () => {
  it('fills defaults for a minimal event', () => {
    expect(parseEvent(minimal)).toEqual({
      id: 'e1',
      invocationId: '',
      author: 'user',
      timestamp: 1.5,
      actions: { stateDelta: {}, artifactDelta: {} },
    });
  });

  it('reads every part kind', () => {
    const event = parseEvent({
      ...minimal,
      content: {
        role: 'model',
        parts: [
          { text: 'hm', thought: true },
          { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } },
          { functionCall: { name: 'g' } },
          { functionResponse: { id: 'c1', name: 'f', response: { ok: true } } },
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          { fileData: { fileUri: 'file:///x.pdf' } },
        ],
      },
    });
    expect(event.content?.parts[2]).toEqual({ functionCall: { name: 'g' } });
    expect(event.content?.parts).toHaveLength(6);
  });

  it('names every problem with its path', () => {
    let error: unknown;
    try {
      parseEvent({
        id: '',
        author: 7,
        timestamp: 'now',
        content: { role: 'assistant', parts: [{ text: 'a', functionCall: { name: 'f' } }] },
        stateDetla: {},
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues.map((issue) => `${issue.path}: ${issue.message}`);
    expect(issues).toEqual([
      expect.stringMatching(/^stateDetla: unknown field/),
      'id: must not be empty',
      'author: expected a string, got the number 7',
      'timestamp: expected a finite number, got the string "now"',
      "content.role: expected 'user' or 'model', got the string \"assistant\"",
    ]);
    expect((error as ValidationError).message).toMatch(/^Invalid event: stateDetla: unknown field; .*\(and 2 more\)$/);
  });

  it('suggests the field a typo meant', () => {
    expect(() => parseEvent({ ...minimal, actions: { stateDetla: {} } })).toThrow(/did you mean 'stateDelta'/);
  });

  it("accepts ADK's event JSON, mapping usageMetadata and ignoring fields agentctx does not use", () => {
    const event = parseEvent({
      ...minimal,
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 },
      longRunningToolIds: [],
      turnComplete: true,
    });
    expect(event.usage).toEqual({ promptTokens: 12, outputTokens: 3, totalTokens: 15 });
  });

  it('refuses a compaction whose range runs backwards', () => {
    expect(() =>
      parseEvent({
        ...minimal,
        actions: { compaction: { startTimestamp: 5, endTimestamp: 4, compactedContent: { role: 'model', parts: [] } } },
      }),
    ).toThrow(/startTimestamp 5 is after endTimestamp 4/);
  });

  it('refuses duplicate ids in a list', () => {
    expect(() => parseEvents([minimal, minimal])).toThrow(/\[1\]\.id: duplicate event id 'e1'/);
  });
});

describe('parseSession / sessionToJson', () => {
  it('round-trips a session through JSON text', () => {
    const session = parseSession({
      appName: 'a',
      userId: 'u',
      id: 's',
      state: { k: [1] },
      events: [minimal],
      lastUpdateTime: 2,
    });
    const text = JSON.stringify(sessionToJson(session));
    expect(parseSession(JSON.parse(text))).toEqual(session);
    expect(JSON.parse(text)).toMatchObject({ schemaVersion: 1, revision: 1 });
  });

  it('refuses a session written by a newer schema version', () => {
    expect(() => parseSession({ schemaVersion: 2, appName: 'a', userId: 'u', id: 's' })).toThrow(
      expect.objectContaining({
        code: 'unsupported_version',
        message: expect.stringContaining('version 2 is not supported'),
      }),
    );
  });
});
