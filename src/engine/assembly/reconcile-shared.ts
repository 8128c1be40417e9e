import type { RequestEdit, RequestRemoval } from '../../contracts/provenance.js';
import type { Source } from '../../contracts/source.js';

// What the reconcilers of the system text, the tools and the messages share.

export type TextEdit = Omit<RequestEdit, 'target'>;

const PREVIEW_CHARS = 120;

export function partKey(message: number, part: number): string {
  return `${message}:${part}`;
}

export function internKey(keys: Map<string, number>, key: string): number {
  let id = keys.get(key);
  if (id === undefined) {
    id = keys.size;
    keys.set(key, id);
  }
  return id;
}

/** JSON with object keys sorted, so a hook that rebuilt an object in another key order did not change it. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

export function removal(what: RequestRemoval['what'], source: Source, by: Source, text: string): RequestRemoval {
  let preview = text.slice(0, PREVIEW_CHARS);
  // Cutting between a surrogate pair would leave half a character.
  if (preview.length === PREVIEW_CHARS && /[\uD800-\uDBFF]$/.test(preview)) preview = preview.slice(0, -1);
  return { what, source, by, preview };
}
