import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { MemoryEntry, MemoryScope } from '../../contracts/memory-service.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { MemoryCopy } from './memory-copies.js';
import { textOf } from './memory-entries.js';

/** What an erasure rewrote in one session: how many of its events and recorded calls. */
export type MemoryErasure = { readonly sessionId: string; readonly events: number; readonly calls: number };

/** The text that takes an erased memory's place: what was erased and when (ASCII, nothing JSON escapes). */
export function memoryTombstone(memory: MemoryEntry, at: Date): string {
  return `[erased ${at.toISOString().slice(0, 19)}Z: memory ${memory.id}, deleted from memory]`;
}

/**
 * Erases the copies of memories (`findMemoryCopies`) in place: in each session holding one, every occurrence of a
 * memory's text — in events, recorded requests, responses and wire bodies — becomes its tombstone
 * (`SessionStore.rewriteText`). A store without `rewriteText` is refused before anything changes.
 */
export async function eraseMemoryCopies(
  store: Pick<SessionStore, 'rewriteText'>,
  scope: MemoryScope,
  memories: readonly MemoryEntry[],
  copies: readonly MemoryCopy[],
  at: Date,
): Promise<MemoryErasure[]> {
  const rewrite = store.rewriteText;
  if (copies.length === 0) return [];
  if (rewrite === undefined)
    throw new AgentctxError({
      code: 'invalid_input',
      message: 'This session store cannot erase the copies: it has no rewriteText.',
      hint: 'Erase them in a store that has it (the SQL and in-memory stores), or delete the sessions that hold them.',
    });
  const erased: MemoryErasure[] = [];
  for (const sessionId of new Set(copies.map((copy) => copy.sessionId))) {
    // Only the memories copied into this session: a memory's own session holds its text as history, not as a copy.
    const copied = new Set(copies.filter((copy) => copy.sessionId === sessionId).map((copy) => copy.memoryId));
    const replace = memoryReplacer(
      memories.filter((memory) => copied.has(memory.id)),
      at,
    );
    const counts = await rewrite.call(store, { ...scope, sessionId, replace });
    erased.push({ sessionId, ...counts });
  }
  return erased;
}

/**
 * A `rewriteText` replacer: a JSON text that holds a memory's text (its parts', and theirs joined as the memory tools
 * write it; eight characters or more, as copies are found) is parsed, each string in it has the text replaced by the
 * tombstone — also as it is written inside strings that hold JSON themselves (wire bodies, results), JSON-escaped
 * and ASCII-escaped as Python writes it — and written again. Other texts come back as they were, byte for byte.
 */
export function memoryReplacer(memories: readonly MemoryEntry[], at: Date): (json: string) => string {
  const pairs = memories
    .flatMap((memory) => {
      const tombstone = memoryTombstone(memory, at);
      const texts = [
        textOf(memory.content),
        ...memory.content.parts.flatMap((part) => ('text' in part ? [part.text] : [])),
      ];
      return [...new Set(texts)].filter((text) => text.length >= 8).map((text) => ({ text, tombstone }));
    })
    // The longest first: a memory's joined text goes before one of its parts.
    .sort((a, b) => b.text.length - a.text.length);
  const forms = pairs.map(({ text, tombstone }) => {
    const inner = [escaped(text), asciiEscaped(escaped(text))];
    return { text, tombstone, inner: [...new Set(inner)], outer: [...new Set([...inner, ...inner.map(escaped)])] };
  });
  const inString = (value: string): string => {
    let out = value;
    for (const form of forms) {
      out = out.split(form.text).join(form.tombstone);
      for (const text of form.inner) out = out.split(text).join(form.tombstone);
    }
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return inString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return (json) => {
    if (!forms.some((form) => form.outer.some((text) => json.includes(text)))) return json;
    return JSON.stringify(walk(JSON.parse(json)));
  };
}

function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

// Python's json.dumps (ensure_ascii) writes every non-ASCII character as \uXXXX, lowercase.
function asciiEscaped(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
