import { createHash } from 'node:crypto';

/** A difference from an earlier call's body: `body = base.slice(0, prefix) + middle + base.slice(base.length - suffix)`. */
export type WireDelta = { base: number; prefix: number; suffix: number };

/** A wire body as written to its row. */
export type StoredWire = {
  /** The whole body, or the middle text of a difference. */
  text: string;
  delta: WireDelta | undefined;
  /** Identifies the whole body; a later difference checks its base's row still holds it. */
  hash: string;
  /** The hash the base's row must show, or the reference is stale. */
  baseHash: string | undefined;
};

type Remembered = { index: number; body: string; hash: string; depth: number };

// A chain of differences is cut now and then, so reading one body never walks back through hundreds of rows.
const MAX_DEPTH = 32;
// Below this many shared characters a difference saves less than the lookup of its base costs.
const MIN_SHARED = 64;

/**
 * Writes a session's wire bodies as differences: consecutive calls of a long session send mostly the same text (the
 * history grows at its end, tools and options repeat), so a body stores only what lies between the prefix and the
 * suffix it shares with the last body this process wrote for the session, and a reference to that call.
 */
export class WireDeltas {
  readonly #last = new Map<string, Remembered>();

  encode(sessionKey: string, body: string): StoredWire & { remember(index: number): void } {
    const previous = this.#last.get(sessionKey);
    const hash = hashBody(body);
    let stored: StoredWire = { text: body, delta: undefined, hash, baseHash: undefined };
    if (previous !== undefined && previous.depth < MAX_DEPTH) {
      const { prefix, suffix } = commonEnds(previous.body, body);
      if (prefix + suffix >= MIN_SHARED) {
        stored = {
          text: body.slice(prefix, body.length - suffix),
          delta: { base: previous.index, prefix, suffix },
          hash,
          baseHash: previous.hash,
        };
      }
    }
    const depth = stored.delta === undefined ? 0 : (previous?.depth ?? 0) + 1;
    return { ...stored, remember: (index) => this.#last.set(sessionKey, { index, body, hash, depth }) };
  }

  forget(sessionKey: string): void {
    this.#last.delete(sessionKey);
  }
}

/** How many characters `a` and `b` share at their start and, after that, at their end; the two never overlap. */
export function commonEnds(a: string, b: string): { prefix: number; suffix: number } {
  const limit = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < limit - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix))
    suffix++;
  return { prefix, suffix };
}

/** A whole body from its stored difference and the whole body of its base. */
export function applyWireDelta(base: string, delta: Pick<WireDelta, 'prefix' | 'suffix'>, middle: string): string {
  return base.slice(0, delta.prefix) + middle + base.slice(base.length - delta.suffix);
}

/** Over the UTF-16 code units, so bodies that differ only in unpaired surrogates hash apart too. */
export function hashBody(body: string): string {
  return createHash('sha256').update(body, 'utf16le').digest('base64url');
}
