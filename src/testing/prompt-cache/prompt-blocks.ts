import { createHash } from 'node:crypto';

/*
 * What the three prompt-cache simulators share: a prompt as a list of blocks, each with an identity, a token count
 * and a chained prefix key, so "is this prefix cached?" is one Map lookup per block boundary.
 *
 * Token counts are a local approximation: each provider bills with its own tokenizer (and adds its own framing
 * tokens), which no offline code reproduces. The caller's counter (agentctx/tokens' o200k_base, typically) counts the
 * canonical text of each block (`blockText`: its tag, then its JSON).
 */

/** Counts the tokens of one text. */
export type TokenCounter = (text: string) => number;

/** A block of a prompt: equal tag and value (`cache_control` aside) are the same block, as far as a cache can tell. */
export type PromptBlock = {
  /** Where the block comes from, for reports and tests: `tool`, `system`, `message`, `part`… */
  kind: string;
  /** What sets the block apart beyond its value: its section, the role of its message, whether it starts one. */
  tag: string;
  /** The block as sent (a tool definition, a content block, a part…). */
  value: unknown;
};

/** A measured prompt: per block, its tokens, the tokens up to and including it, and the key of that prefix. */
export type MeasuredPrompt = {
  blocks: readonly PromptBlock[];
  tokens: readonly number[];
  /** `cumulative[i]`: the tokens of blocks 0..i. */
  cumulative: readonly number[];
  /** `keys[i]`: a key of the seed and blocks 0..i; equal keys mean equal prefixes (within this process). */
  keys: readonly string[];
  total: number;
};

/** An extra item mixed into the chain just before block `at` (a setting that invalidates what follows it). */
export type ChainSalt = { at: number; text: string };

/** The canonical text of a block, which its tokens are counted on: the tag, then the JSON of the value. */
export function blockText(block: PromptBlock): string {
  return block.tag + canonicalJson(block.value);
}

/**
 * The JSON of a value with its `cache_control` left out, and that of the items of its `content` (a breakpoint is not
 * content; Anthropic puts marks nowhere deeper).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(withoutCacheControl(value)) ?? 'null';
}

function withoutCacheControl(value: unknown): unknown {
  const record = asRecord(value);
  if (record === undefined) return value;
  let out = record;
  if (record['cache_control'] !== undefined) {
    out = {};
    for (const key of Object.keys(record)) if (key !== 'cache_control') out[key] = record[key];
  }
  const content = out['content'];
  if (Array.isArray(content) && content.some((item) => asRecord(item)?.['cache_control'] !== undefined)) {
    out = { ...out, content: content.map(withoutCacheControl) };
  }
  return out;
}

// Identity: a SHA-1 of the tag and the value's structure, fed without building the JSON. Long strings go to the
// hash as they are (length-prefixed after a \u0001, which JSON never leaves raw), so a 10k-token document costs
// one pass of the hash, not a JSON copy and a Map hash of the copy. `cache_control` is left out at any depth.
const LONG = 256;

function blockDigest(block: PromptBlock): string {
  const hash = createHash('sha1');
  let small = JSON.stringify(block.tag);
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length <= LONG) {
        small += JSON.stringify(value);
      } else {
        hash.update(`${small}\u0001${value.length}\u0001`);
        hash.update(value);
        small = '';
      }
    } else if (Array.isArray(value)) {
      small += '[';
      for (const item of value) {
        walk(item);
        small += ',';
      }
      small += ']';
    } else if (typeof value === 'object' && value !== null) {
      small += '{';
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const inner = record[key];
        if (inner === undefined || typeof inner === 'function' || key === 'cache_control') continue;
        small += `${JSON.stringify(key)}:`;
        walk(inner);
        small += ',';
      }
      small += '}';
    } else {
      small += JSON.stringify(value) ?? 'null';
    }
  };
  walk(block.value);
  hash.update(small);
  return hash.digest('base64');
}

// Every distinct block gets a small id (by digest), and every distinct prefix (parent prefix, block) a node id, so
// a prefix key costs one short Map lookup per block. Each block is counted once per counter.
const blockIds = new Map<string, number>();
const prefixNodes = new Map<string, number>();
let countsByCounter = new WeakMap<TokenCounter, number[]>();

function internedId(ids: Map<string, number>, key: string): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size + 1;
    ids.set(key, id);
  }
  return id;
}

/**
 * Measures the blocks: each distinct block is counted once per counter (the count is remembered), so a growing
 * conversation costs one count per new block, not one per block per call.
 */
export function measurePrompt(
  blocks: readonly PromptBlock[],
  seed: string,
  counter: TokenCounter,
  salts: readonly ChainSalt[] = [],
): MeasuredPrompt {
  let counts = countsByCounter.get(counter);
  if (counts === undefined) {
    counts = [];
    countsByCounter.set(counter, counts);
  }
  const tokens: number[] = [];
  const cumulative: number[] = [];
  const keys: string[] = [];
  let total = 0;
  let node = internedId(prefixNodes, `seed/${JSON.stringify(seed)}`);
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index] as PromptBlock;
    const id = internedId(blockIds, blockDigest(block));
    let count = counts[id];
    if (count === undefined) {
      count = counter(blockText(block));
      counts[id] = count;
    }
    for (const salt of salts)
      if (salt.at === index) node = internedId(prefixNodes, `${node}/salt/${JSON.stringify(salt.text)}`);
    node = internedId(prefixNodes, `${node}/${id}`);
    total += count;
    tokens.push(count);
    cumulative.push(total);
    keys.push(String(node));
  }
  return { blocks, tokens, cumulative, keys, total };
}

/**
 * Forgets every remembered block, count and prefix (they stay for the life of the process otherwise). For long
 * benchmarks only: keys made before and after do not match, so clear the simulators too.
 */
export function clearPromptMemo(): void {
  blockIds.clear();
  prefixNodes.clear();
  countsByCounter = new WeakMap();
}

/** The value as a plain object, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The value as an array, or an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A time-limited entry: live while `now < expiresAt`. */
export type TimedEntry = { expiresAt: number };

/** Drops the entries that have expired at `now`. */
export function purgeExpired<T extends TimedEntry>(entries: Map<string, T>, now: number): void {
  for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
}

export const MINUTE_MS = 60_000;
export const HOUR_MS: number = 60 * MINUTE_MS;
