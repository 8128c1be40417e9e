import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/contracts/memory-service.js';
import type { Message } from '../../src/contracts/request.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { memoryReplacer, memoryTombstone } from '../../src/engine/memory/memory-erasure.js';
import { STORE_KINDS, sessionStores, storeSkip } from '../support/session-stores.js';

// Erasing a memory's copies in place (issue 49, `--redact`): the replacer changes only the memory's text, wherever
// and however it is written; each store's rewriteText applies it to events, requests (stored as differences too),
// responses and wire bodies (stored as character differences too), and reads stay exact afterwards.

const SECRET = 'My favourite city is Lisbon, and my PIN is 4321.';
const memory: MemoryEntry = {
  id: 'm-1',
  content: { role: 'user', parts: [{ text: SECRET }] },
  author: 'user',
  source: { sessionId: 's1', eventId: 'e-1' },
};
const AT = new Date('2026-12-07T10:00:00Z');
const TOMBSTONE = memoryTombstone(memory, AT);

describe('memoryReplacer', () => {
  const replace = memoryReplacer([memory], AT);

  it('replaces the text in strings, in JSON inside strings, and as Python escapes it; nothing else', () => {
    const python = JSON.stringify('é ' + SECRET).replace('é', '\\u00e9');
    const document = {
      plain: `before ${SECRET} after`,
      body: JSON.stringify({ text: `quoted "${SECRET}"` }),
      python,
      number: 12345678.5,
      other: 'unrelated',
    };
    const out = JSON.parse(replace(JSON.stringify(document))) as typeof document;
    expect(out.plain).toBe(`before ${TOMBSTONE} after`);
    expect(JSON.parse(out.body)).toEqual({ text: `quoted "${TOMBSTONE}"` });
    expect(out.python).not.toContain('Lisbon');
    expect(out.number).toBe(12345678.5);
    expect(out.other).toBe('unrelated');
    expect(TOMBSTONE).toBe('[erased 2026-12-07T10:00:00Z: memory m-1, deleted from memory]');
  });

  it('leaves a text without the memory as it was, byte for byte', () => {
    const text = '{"a" : 1.0, "b": "Lisbon"}';
    expect(replace(text)).toBe(text);
  });
});

const stores = sessionStores('rewrite_text');
afterAll(() => stores.closeAll());

describe.each(STORE_KINDS)('rewriteText on the %s store', (kind) => {
  it.skipIf(storeSkip(kind) !== undefined)(
    'erases the text from events, requests and wire bodies, and every read stays exact',
    async () => {
      const store = await stores.open(kind);
      const key = { appName: 'app', userId: 'u', sessionId: 's2' };
      const session = await store.createSession(key);
      const asked = await store.appendEvent({
        session,
        event: createEvent(
          { author: 'user', invocationId: 'i1', content: { role: 'user', parts: [{ text: 'Where?' }] } },
          { newId: () => 'e-a' },
        ),
      });
      await store.appendEvent({
        session,
        event: createEvent(
          {
            author: 'assistant',
            invocationId: 'i1',
            content: {
              role: 'user',
              parts: [
                { functionResponse: { name: 'load_memory', response: { result: { memories: [{ text: SECRET }] } } } },
              ],
            },
          },
          { newId: () => 'e-b' },
        ),
      });
      // Messages reused from call to call, as the runner does: the SQL stores keep later requests as differences.
      const filler = 'x'.repeat(300);
      const messages: Message[] = [
        { role: 'user', content: [{ text: `Where? ${filler}` }] },
        { role: 'user', content: [{ text: `Remembered: ${SECRET}` }] },
        { role: 'model', content: [{ text: `Noted. ${filler}` }] },
        { role: 'user', content: [{ text: `And now? ${filler}` }] },
      ];
      const requestOf = (count: number) => ({ system: 'S', tools: [], messages: messages.slice(0, count), config: {} });
      const bodyOf = (count: number) => JSON.stringify({ contents: messages.slice(0, count), tools: filler });
      const record = async (n: number, count: number) => {
        const index = await store.recordModelCall({
          ...key,
          call: {
            invocationId: 'i1',
            agent: 'assistant',
            timestamp: n,
            request: requestOf(count),
            provenance: { system: [], tools: [], messages: messages.slice(0, count).map(() => []) },
            editedByCallback: false,
          },
        });
        await store.completeModelCall({
          ...key,
          index,
          outcome: {
            status: 'answered',
            latencyMs: 1,
            wire: { url: 'http://127.0.0.1/x', method: 'POST', body: bodyOf(count), status: 200, attempts: 1 },
          },
        });
      };
      await record(1, 1);
      await record(2, 2);
      await record(3, 3);
      const before = await store.getSession(key);
      const first = await store.getModelCall({ ...key, index: 1 });

      const counts = await store.rewriteText?.({ ...key, replace: memoryReplacer([memory], AT) });
      expect(counts).toEqual({ events: 1, calls: 2 });

      const after = await store.getSession(key);
      expect(after?.revision).toBe(before?.revision);
      expect(after?.lastUpdateTime).not.toBe(before?.lastUpdateTime);
      expect(JSON.stringify(after?.events[0])).toBe(JSON.stringify(asked));
      expect(JSON.stringify(after?.events)).not.toContain('Lisbon');
      expect(JSON.stringify(after?.events[1])).toContain(TOMBSTONE);
      expect(await store.getModelCall({ ...key, index: 1 })).toEqual(first);
      const erased = (count: number) => JSON.parse(JSON.stringify(requestOf(count)).replaceAll(SECRET, TOMBSTONE));
      for (const count of [2, 3]) {
        const call = await store.getModelCall({ ...key, index: count });
        expect(call?.request).toEqual(erased(count));
        expect(call?.wire?.body).toBe(bodyOf(count).replaceAll(SECRET, TOMBSTONE));
      }
      const sizes = (await store.listModelCalls(key)).map((call) => call.requestChars);
      expect(sizes).toEqual([1, 2, 3].map((count) => JSON.stringify(erased(count)).length));

      // A call recorded after it, against rows that changed under this process's differences, reads back exactly.
      await record(4, 4);
      const fourth = await store.getModelCall({ ...key, index: 4 });
      expect(fourth?.request).toEqual(requestOf(4));
      expect(fourth?.wire?.body).toBe(bodyOf(4));
      expect(await store.rewriteText?.({ ...key, sessionId: 'none', replace: memoryReplacer([memory], AT) })).toEqual({
        events: 0,
        calls: 0,
      });
    },
  );
});
