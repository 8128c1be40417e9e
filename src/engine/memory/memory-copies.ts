import type { MemoryEntry, MemoryScope } from '../../contracts/memory-service.js';
import type { ModelCallReader } from '../../contracts/model-call-log.js';
import type { SessionStore } from '../../contracts/session-store.js';
import { textOf } from './memory-entries.js';

/** A place a memory's text was copied to: an event of a session (a `load_memory` result), or a recorded request. */
export type MemoryCopy =
  | {
      readonly kind: 'event';
      readonly sessionId: string;
      readonly eventId: string;
      readonly author: string;
      readonly memoryId: string;
    }
  | { readonly kind: 'request'; readonly sessionId: string; readonly call: number; readonly memoryId: string };

/**
 * Where copies of memories were made (the dry run before an erasure): every event and every recorded request of the
 * user's other sessions in the app that holds a memory's text (a memory of eight characters or more; shorter ones
 * would match by chance). Deleting a memory stops it reaching later requests; these copies stay until erased.
 */
export async function findMemoryCopies(
  store: Pick<SessionStore, 'listSessions' | 'getSession'> & Partial<ModelCallReader>,
  scope: MemoryScope,
  memories: readonly MemoryEntry[],
): Promise<MemoryCopy[]> {
  const texts = memories.flatMap((memory) => {
    const text = textOf(memory.content);
    return text.length < 8 ? [] : [{ memory, text, json: JSON.stringify(text).slice(1, -1) }];
  });
  if (texts.length === 0) return [];
  const copies: MemoryCopy[] = [];
  for (const listed of await store.listSessions(scope)) {
    const key = { ...scope, sessionId: listed.id };
    const session = await store.getSession(key);
    // A memory's own session holds its text as history, not as a copy.
    const others = texts.filter(({ memory }) => memory.source?.sessionId !== listed.id);
    if (others.length === 0) continue;
    for (const event of session?.events ?? [])
      for (const { memory, json } of others)
        if (JSON.stringify(event.content ?? {}).includes(json))
          copies.push({
            kind: 'event',
            sessionId: listed.id,
            eventId: event.id,
            author: event.author,
            memoryId: memory.id,
          });
    if (store.listModelCalls === undefined || store.getModelCall === undefined) continue;
    for (const summary of await store.listModelCalls(key)) {
      const record = await store.getModelCall({ ...key, index: summary.index });
      const request = JSON.stringify(record?.request ?? {});
      for (const { memory, json } of others)
        if (request.includes(json))
          copies.push({ kind: 'request', sessionId: listed.id, call: summary.index, memoryId: memory.id });
    }
  }
  return copies;
}
