import type { Content } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import type { MemoryEntry, MemoryInput } from '../../contracts/memory-service.js';
import { copyValue } from '../util/copy-value.js';
import { pythonIsoTime, sharedWords, wordsOf } from './memory-words.js';

// What every memory service shares: which events are remembered and as what, and how memories are matched and ranked.

/** ADK's session id for events added without one. */
export const UNKNOWN_SESSION = '__unknown_session_id__';
/** Where memories added directly (`addMemory`) are kept: they belong to no session. */
export const DIRECT = '';

/** How a search chooses: ADK 2.5.0's rule, or agentctx's ranking (see `InMemoryMemoryServiceOptions`). */
export type MemoryMatching = { readonly matching: 'ranked' | 'adk'; readonly limit: number };

/** A memory with what matching reads of it: its text, its words, and its place in the order remembered. */
export type Candidate = {
  readonly entry: MemoryEntry;
  readonly text: string;
  readonly words: ReadonlySet<string>;
  readonly order: number;
};

/**
 * The memories a query chooses among candidates: under `adk` every one sharing a word, in the order remembered;
 * under `ranked` those sharing more distinct words first, newer first among equals, at most `limit`.
 */
export function rankMemories<C extends Candidate>(
  candidates: readonly C[],
  query: string,
  options: MemoryMatching,
): C[] {
  const words = wordsOf(query);
  const ordered = [...candidates].sort((a, b) => a.order - b.order);
  const hits = ordered.flatMap((item) => {
    if (item.words.size === 0) return [];
    if (options.matching === 'adk') return [...words].some((word) => item.words.has(word)) ? [{ item, score: 1 }] : [];
    const score = sharedWords(words, item.text, item.words);
    return score > 0 ? [{ item, score }] : [];
  });
  if (options.matching === 'adk') return hits.map(({ item }) => item);
  hits.sort((a, b) => b.score - a.score || b.item.order - a.item.order);
  return hits.slice(0, options.limit).map(({ item }) => item);
}

// ADK remembers the events that have content with parts.
export function remembered(events: readonly Event[]): Event[] {
  return events.filter((event) => (event.content?.parts.length ?? 0) > 0);
}

export function fromEvent(
  event: Event,
  sessionId: string,
  customMetadata?: Readonly<Record<string, unknown>>,
): MemoryEntry {
  return {
    id: event.id,
    content: copyValue(event.content as Content),
    author: event.author,
    timestamp: pythonIsoTime(event.timestamp),
    ...(customMetadata === undefined || Object.keys(customMetadata).length === 0
      ? {}
      : { customMetadata: copyValue(customMetadata) }),
    source: { sessionId, eventId: event.id },
  };
}

export function direct(
  memory: MemoryInput,
  newId: () => string,
  customMetadata: Readonly<Record<string, unknown>> | undefined,
): MemoryEntry {
  const metadata = { ...(customMetadata ?? {}), ...(memory.customMetadata ?? {}) };
  return {
    ...copyValue(memory),
    id: memory.id ?? newId(),
    ...(Object.keys(metadata).length === 0 ? {} : { customMetadata: metadata }),
  };
}

/** The text of a memory's parts, joined by spaces (ADK's `_memory_entry_utils.extract_text`). */
export function textOf(content: Content): string {
  return content.parts.flatMap((part) => ('text' in part && part.text !== '' ? [part.text] : [])).join(' ');
}
