import type { Event } from '../../src/contracts/event.js';

/**
 * Events for compaction planning tests, on a clock of their own (each event one tick later): a user question, a
 * model answer (with billed prompt tokens when given), a tool call (`callId` null for one without an id) and its
 * response.
 */
export function eventBuilders() {
  let clock = 0;
  const base = (id: string, invocationId: string, author: string): Event => ({
    id,
    invocationId,
    author,
    timestamp: ++clock,
    actions: { stateDelta: {}, artifactDelta: {} },
  });
  return {
    base,
    user: (id: string, invocationId: string, text = `question ${id}`): Event => ({
      ...base(id, invocationId, 'user'),
      content: { role: 'user', parts: [{ text }] },
    }),
    answer: (id: string, invocationId: string, promptTokens?: number): Event => ({
      ...base(id, invocationId, 'agent'),
      content: { role: 'model', parts: [{ text: `answer ${id}` }] },
      ...(promptTokens === undefined ? {} : { usage: { promptTokens } }),
    }),
    call: (id: string, invocationId: string, callId: string | null = `c-${id}`, name = 'tool'): Event => ({
      ...base(id, invocationId, 'agent'),
      content: {
        role: 'model',
        parts: [{ functionCall: { ...(callId === null ? {} : { id: callId }), name, args: {} } }],
      },
    }),
    result: (id: string, invocationId: string, callId: string, author = 'agent'): Event => ({
      ...base(id, invocationId, author),
      content: { role: 'user', parts: [{ functionResponse: { id: callId, name: 'tool', response: { ok: true } } }] },
    }),
  };
}
