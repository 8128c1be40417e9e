import {
  asArray,
  asRecord,
  canonicalJson,
  HOUR_MS,
  measurePrompt,
  MINUTE_MS,
  purgeExpired,
  type ChainSalt,
  type PromptBlock,
  type TokenCounter,
} from './prompt-blocks.js';

/*
 * Anthropic Messages API prompt caching, as documented (platform.claude.com, "Prompt caching"), simulated offline:
 * give it each `POST /v1/messages` body in order and it returns the `usage` Anthropic would bill, keeping the cache
 * between calls.
 *
 * - The prompt is tools → system → messages; its blocks are each tool definition, each system text block (a string
 *   system is one block) and each content block of each message (a string content is one text block).
 * - A tool with `defer_loading: true` is not in the prompt; a `tool_reference` in a tool_result puts its definition
 *   there, in that block. A reference to any other name is a 400, and so is a request whose every tool is deferred.
 * - `cache_control: { type: 'ephemeral', ttl?: '5m' | '1h' }` on a block is a breakpoint: the prefix ending with that
 *   block may be cached. More than 4 breakpoints, or a 1h breakpoint after a 5m one, is a 400
 *   (`AnthropicCacheRequestError`). A top-level `cache_control` puts one breakpoint on the last cacheable block (not
 *   a thinking block, not an empty text block) and counts against the 4; if that block has its own mark, that mark
 *   wins and no slot is used.
 * - Reading: for each breakpoint, the live entries at its own block boundary and the `lookBackBlocks` (20) boundaries
 *   before it are looked up, nearest first; the longest hit over all breakpoints is read (`cache_read_input_tokens`)
 *   and its expiry is refreshed (now + its TTL).
 * - Writing: each breakpoint whose prefix has no live entry creates one. Tokens from the end of what is already
 *   covered (the read, or the previous breakpoint written) to the breakpoint are billed as cache creation under
 *   that breakpoint's TTL. A breakpoint inside the read prefix writes its entry at no charge, and one whose entry is
 *   live has that entry refreshed (guess: it is part of what was used).
 * - A prefix shorter than `minCacheableTokens(model)` is neither read nor written, silently.
 * - The key of an entry is the model and the exact blocks (without their `cache_control`); a change of `tool_choice`
 *   or `thinking` changes the keys from the first message on (the docs list both as invalidating the message
 *   cache, not tools or system).
 * - Entries written by a call are readable from the next call on. An entry lives while `now < expiresAt`.
 * - `input_tokens` is what is neither read nor written: the tokens after the last breakpoint, and all of them when
 *   nothing can be cached. Output tokens come from the caller.
 */

export type AnthropicCacheTtl = '5m' | '1h';

/** The `usage` of a Messages API response, input side simulated. */
export type AnthropicCacheUsage = {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
};

/** The error body Anthropic answers a 400 with. */
export type AnthropicErrorBody = { type: 'error'; error: { type: 'invalid_request_error'; message: string } };

/** A request Anthropic would refuse with a 400; `body()` is the JSON to answer with. */
export class AnthropicCacheRequestError extends Error {
  readonly status = 400;
  readonly errorType = 'invalid_request_error';
  constructor(message: string) {
    super(message);
    this.name = 'AnthropicCacheRequestError';
  }
  body(): AnthropicErrorBody {
    return { type: 'error', error: { type: 'invalid_request_error', message: this.message } };
  }
}

export type AnthropicCacheSimulatorOptions = {
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Counts a block's canonical text: an approximation of Anthropic's tokenizer, such as `(await loadTokenCounter()).count` (o200k_base, from agentctx/tokens). */
  countTokens: TokenCounter;
  /** The shortest prefix that is cached, by model. Default `defaultAnthropicMinCacheableTokens`. */
  minCacheableTokens?: (model: string) => number;
  /** How many block boundaries before a breakpoint are checked for a hit. Default 20. */
  lookBackBlocks?: number;
};

export const ANTHROPIC_MAX_BREAKPOINTS = 4;
export const ANTHROPIC_LOOK_BACK_BLOCKS = 20;
export const ANTHROPIC_TTL_MS: Readonly<Record<AnthropicCacheTtl, number>> = { '5m': 5 * MINUTE_MS, '1h': HOUR_MS };

// The minimum cacheable prompt length by model family, from the docs' table as of 2026 (secondary sources agree on
// these; they disagree on Sonnet 4.6, listed at 1024 by the docs as quoted in anthropic-sdk-python#1194, and on
// Opus 4.7, which most list at 4096). First match wins; unknown models get 1024.
const MIN_CACHEABLE: readonly [RegExp, number][] = [
  [/opus-4-[567]\b|opus-4\.[567]\b/, 4096],
  [/haiku-4-5|haiku-4\.5/, 4096],
  [/haiku-3|3-5-haiku|3-haiku/, 2048],
  [/opus-4|sonnet-4|sonnet-3|3-7-sonnet|3-5-sonnet|opus-3|3-opus/, 1024],
];

/**
 * The documented minimum cacheable prompt length: 4096 for Opus 4.5, 4.6 and 4.7 and Haiku 4.5; 2048 for Haiku 3
 * and 3.5; 1024 for Opus 4, 4.1, Sonnet 4.x and 3.x; 1024 for any other model.
 */
export function defaultAnthropicMinCacheableTokens(model: string): number {
  const id = model.toLowerCase();
  for (const [pattern, tokens] of MIN_CACHEABLE) if (pattern.test(id)) return tokens;
  return 1024;
}

/** A block of a Messages API prompt, with the breakpoint it carries, if any. */
export type AnthropicPromptBlock = PromptBlock & {
  section: 'tools' | 'system' | 'messages';
  /** The TTL of the block's own `cache_control`, if it has one. */
  breakpoint?: AnthropicCacheTtl;
  /** Whether automatic caching may put its breakpoint here (not thinking, not empty text). */
  cacheable: boolean;
};

/** A request body split into prompt blocks (tools → system → messages), with the top-level breakpoint if any. */
export type AnthropicPrompt = {
  model: string;
  blocks: AnthropicPromptBlock[];
  automatic?: AnthropicCacheTtl;
  messageSalt: string;
  firstMessageBlock: number;
};

/** Splits a Messages API body into its prompt blocks. Throws `AnthropicCacheRequestError` for an invalid `cache_control`. */
export function splitAnthropicPrompt(body: unknown): AnthropicPrompt {
  const request = asRecord(body) ?? {};
  const blocks: AnthropicPromptBlock[] = [];
  const tools = asArray(request['tools']);
  const deferred = new Map<string, unknown>();
  for (const tool of tools) {
    const record = asRecord(tool);
    // A deferred definition is not in the prompt: it comes in where a tool_reference names it.
    if (record?.['defer_loading'] === true) {
      const { defer_loading: _deferred, ...definition } = record;
      deferred.set(String(record['name']), definition);
    } else blocks.push({ kind: 'tool', section: 'tools', tag: 'tool:', value: tool, cacheable: true, ...mark(tool) });
  }
  if (tools.length > 0 && deferred.size === tools.length)
    throw new AnthropicCacheRequestError(
      'All tools have defer_loading set. At least one tool must be loaded up front.',
    );
  const system = request['system'];
  const systemBlocks =
    typeof system === 'string' ? (system === '' ? [] : [{ type: 'text', text: system }]) : asArray(system);
  for (const block of systemBlocks) {
    blocks.push({
      kind: 'system',
      section: 'system',
      tag: 'system:',
      value: block,
      cacheable: isCacheable(block),
      ...mark(block),
    });
  }
  const firstMessageBlock = blocks.length;
  for (const message of asArray(request['messages'])) {
    const record = asRecord(message) ?? {};
    const role = String(record['role']);
    const content = record['content'];
    const parts = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content);
    parts.forEach((part, index) => {
      // The first block of a message says so: two messages of one block each differ from one message of two.
      const tag = `${index === 0 ? 'message' : 'block'}:${role}:`;
      blocks.push({
        kind: 'message',
        section: 'messages',
        tag,
        value: withReferencesExpanded(part, deferred),
        cacheable: isCacheable(part),
        ...mark(part),
      });
    });
  }
  const automatic = request['cache_control'] === undefined ? undefined : ttlOf(request['cache_control']);
  const messageSalt = canonicalJson({
    tool_choice: request['tool_choice'] ?? null,
    thinking: request['thinking'] ?? null,
  });
  return {
    model: String(request['model']),
    blocks,
    messageSalt,
    firstMessageBlock,
    ...(automatic === undefined ? {} : { automatic }),
  };
}

// A tool_result's tool_reference blocks stand for the definitions they name, which the prompt holds there instead.
function withReferencesExpanded(part: unknown, deferred: ReadonlyMap<string, unknown>): unknown {
  const record = asRecord(part);
  if (record?.['type'] !== 'tool_result' || !Array.isArray(record['content'])) return part;
  const content = asArray(record['content']);
  if (!content.some((inner) => asRecord(inner)?.['type'] === 'tool_reference')) return part;
  return {
    ...record,
    content: content.map((inner) => {
      const reference = asRecord(inner);
      if (reference?.['type'] !== 'tool_reference') return inner;
      const name = String(reference['tool_name']);
      const definition = deferred.get(name);
      if (definition === undefined)
        throw new AnthropicCacheRequestError(
          `tool_reference_unresolved: tool_reference names '${name}', which is not a tool with defer_loading set in this request.`,
        );
      return { type: 'tool_definition', definition };
    }),
  };
}

function mark(block: unknown): { breakpoint?: AnthropicCacheTtl } {
  const record = asRecord(block);
  if (record === undefined) return {};
  if (record['cache_control'] !== undefined) return { breakpoint: ttlOf(record['cache_control']) };
  // A mark inside a tool_result's content marks the tool_result block itself.
  for (const inner of asArray(record['content'])) {
    const control = asRecord(inner)?.['cache_control'];
    if (control !== undefined) return { breakpoint: ttlOf(control) };
  }
  return {};
}

function ttlOf(control: unknown): AnthropicCacheTtl {
  const record = asRecord(control);
  if (record === undefined || record['type'] !== 'ephemeral')
    throw new AnthropicCacheRequestError(
      `cache_control.type: expected 'ephemeral', got ${JSON.stringify(record?.['type'] ?? control)}`,
    );
  const ttl = record['ttl'] ?? '5m';
  if (ttl !== '5m' && ttl !== '1h')
    throw new AnthropicCacheRequestError(`cache_control.ttl: expected '5m' or '1h', got ${JSON.stringify(ttl)}`);
  return ttl;
}

function isCacheable(block: unknown): boolean {
  const record = asRecord(block);
  if (record === undefined) return false;
  if (record['type'] === 'thinking' || record['type'] === 'redacted_thinking') return false;
  return !(record['type'] === 'text' && record['text'] === '');
}

/** The breakpoints of a prompt in order: block index and TTL. Throws `AnthropicCacheRequestError` as the API would 400. */
export function anthropicBreakpoints(prompt: AnthropicPrompt): { block: number; ttl: AnthropicCacheTtl }[] {
  const points: { block: number; ttl: AnthropicCacheTtl }[] = [];
  prompt.blocks.forEach((block, index) => {
    if (block.breakpoint !== undefined) points.push({ block: index, ttl: block.breakpoint });
  });
  if (prompt.automatic !== undefined) {
    let last = prompt.blocks.length - 1;
    while (last >= 0 && !(prompt.blocks[last] as AnthropicPromptBlock).cacheable) last--;
    if (last >= 0 && (prompt.blocks[last] as AnthropicPromptBlock).breakpoint === undefined)
      points.push({ block: last, ttl: prompt.automatic });
    points.sort((a, b) => a.block - b.block);
  }
  if (points.length > ANTHROPIC_MAX_BREAKPOINTS) {
    throw new AnthropicCacheRequestError(
      `A maximum of ${ANTHROPIC_MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${points.length}.`,
    );
  }
  let seenShort = false;
  for (const point of points) {
    if (point.ttl === '5m') seenShort = true;
    else if (seenShort)
      throw new AnthropicCacheRequestError(
        "A 'ttl' of '1h' cache_control may not come after a 'ttl' of '5m' one: longer TTLs must come first.",
      );
  }
  return points;
}

type Entry = { expiresAt: number; ttlMs: number };

/** Simulates Anthropic's prompt cache across calls; one instance is one organization's cache. */
export class AnthropicCacheSimulator {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly counter: TokenCounter;
  private readonly minimum: (model: string) => number;
  private readonly lookBack: number;

  constructor(options: AnthropicCacheSimulatorOptions) {
    this.now = options.now ?? Date.now;
    this.counter = options.countTokens;
    this.minimum = options.minCacheableTokens ?? defaultAnthropicMinCacheableTokens;
    this.lookBack = options.lookBackBlocks ?? ANTHROPIC_LOOK_BACK_BLOCKS;
  }

  /** The number of live cache entries. */
  get size(): number {
    purgeExpired(this.entries, this.now());
    return this.entries.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The usage Anthropic would bill for this `POST /v1/messages` body, updating the cache. Throws
   * `AnthropicCacheRequestError` (nothing cached, nothing billed) for a body the API would refuse with a 400.
   */
  bill(body: unknown, options: { outputTokens?: number } = {}): AnthropicCacheUsage {
    const prompt = splitAnthropicPrompt(body);
    const points = anthropicBreakpoints(prompt);
    const salts: ChainSalt[] = [{ at: prompt.firstMessageBlock, text: prompt.messageSalt }];
    const measured = measurePrompt(prompt.blocks, `anthropic\u0000${prompt.model}`, this.counter, salts);
    const { cumulative, keys, total } = measured;
    const now = this.now();
    purgeExpired(this.entries, now);
    const minimum = this.minimum(prompt.model);
    const live = (block: number): Entry | undefined =>
      (cumulative[block] ?? 0) >= minimum ? this.entries.get(keys[block] as string) : undefined;

    let readBlock = -1;
    for (const point of points) {
      for (let block = point.block; block >= 0 && block >= point.block - this.lookBack; block--) {
        if (live(block) !== undefined) {
          readBlock = Math.max(readBlock, block);
          break;
        }
      }
    }
    const read = readBlock >= 0 ? (cumulative[readBlock] as number) : 0;
    const touched = new Set<Entry>();
    if (readBlock >= 0) touched.add(live(readBlock) as Entry);

    let covered = read;
    const creation = { '5m': 0, '1h': 0 };
    const writes: { key: string; ttl: AnthropicCacheTtl }[] = [];
    for (const point of points) {
      const end = cumulative[point.block] as number;
      if (end < minimum) continue;
      const existing = live(point.block);
      if (existing !== undefined) {
        touched.add(existing);
        continue;
      }
      if (end > covered) {
        creation[point.ttl] += end - covered;
        covered = end;
      }
      writes.push({ key: keys[point.block] as string, ttl: point.ttl });
    }

    for (const entry of touched) entry.expiresAt = now + entry.ttlMs;
    for (const write of writes) {
      const ttlMs = ANTHROPIC_TTL_MS[write.ttl];
      this.entries.set(write.key, { expiresAt: now + ttlMs, ttlMs });
    }

    const written = creation['5m'] + creation['1h'];
    return {
      input_tokens: total - read - written,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: creation['5m'], ephemeral_1h_input_tokens: creation['1h'] },
      output_tokens: options.outputTokens ?? 0,
    };
  }
}

/** A new simulator (see `AnthropicCacheSimulator`). */
export function createAnthropicCacheSimulator(options: AnthropicCacheSimulatorOptions): AnthropicCacheSimulator {
  return new AnthropicCacheSimulator(options);
}
