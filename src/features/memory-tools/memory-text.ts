import type { MemoryEntry } from '../../contracts/memory-service.js';

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

/** Where a memory came from, for provenance: `session s1, event e1 (user, 2026-12-07T09:05:03)`. */
export function memoryOrigin(memory: MemoryEntry): string {
  const where =
    memory.source?.sessionId === undefined
      ? `memory ${memory.id}`
      : `session ${memory.source.sessionId}, event ${memory.source.eventId ?? '?'}`;
  const who = [memory.author, memory.timestamp].filter((item) => item !== undefined).join(', ');
  return who === '' ? where : `${where} (${who})`;
}
