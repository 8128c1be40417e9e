import type { MemoryEntry } from '../../contracts/memory-service.js';
import type { Source } from '../../contracts/source.js';

/** The text of a memory: its text parts joined by spaces (ADK's `_memory_entry_utils.extract_text`); other parts are dropped. */
export function memoryText(memory: MemoryEntry): string {
  return memory.content.parts.flatMap((part) => ('text' in part && part.text !== '' ? [part.text] : [])).join(' ');
}

/**
 * A memory as ADK's `load_memory` returns it (pydantic's `MemoryEntry`, nulls left out): its content, custom metadata,
 * id (a memory written directly has one; one taken from an event has none in ADK), author and time, in that order.
 */
export function memoryAsResult(memory: MemoryEntry): Record<string, unknown> {
  return {
    content: memory.content,
    custom_metadata: memory.customMetadata ?? {},
    ...(memory.source?.eventId === undefined ? { id: memory.id } : {}),
    ...(memory.author === undefined ? {} : { author: memory.author }),
    ...(memory.timestamp === undefined ? {} : { timestamp: memory.timestamp }),
  };
}

/** Where a memory came from, for provenance (`Source.memories`): its id, session, event, author and time, as known. */
export function memoryProvenance(memory: MemoryEntry): NonNullable<Source['memories']>[number] {
  return {
    id: memory.id,
    ...(memory.source?.sessionId === undefined ? {} : { sessionId: memory.source.sessionId }),
    ...(memory.source?.eventId === undefined ? {} : { eventId: memory.source.eventId }),
    ...(memory.author === undefined ? {} : { author: memory.author }),
    ...(memory.timestamp === undefined ? {} : { timestamp: memory.timestamp }),
  };
}
