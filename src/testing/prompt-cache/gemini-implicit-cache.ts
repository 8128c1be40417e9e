import {
  asArray,
  asRecord,
  measurePrompt,
  MINUTE_MS,
  purgeExpired,
  type MeasuredPrompt,
  type PromptBlock,
  type TokenCounter,
} from './prompt-blocks.js';

/*
 * Gemini API implicit caching (ai.google.dev, "Context caching"), offline: give it each `generateContent` body in
 * order, with the model from the URL, and it returns the `usageMetadata` Gemini would report.
 *
 * - The prompt: each part of `systemInstruction`, each entry of `tools`, `toolConfig`, then each part of each of
 *   `contents` in order; one block each (the REST names, their snake_case spellings, or the SDK's `config` nesting).
 * - A request that shares with a live earlier request of the same model a prefix of at least the model's minimum
 *   gets `cachedContentTokenCount` = the shared prefix. Every request leaves its prefixes for `ttlMs` (5 minutes;
 *   the docs give no lifetime, only "requests with a similar prefix in a short amount of time"), renewed by each
 *   later request that contains them. The real cache is best effort; this one always hits.
 * - Shared length is counted in whole blocks (a part that differs partway shares none of its tokens).
 * - A body naming `cachedContent` (an explicit cache, simulated elsewhere) is billed as that cache's tokens, which the
 *   caller supplies, followed by the body: those tokens are cached and count in `promptTokenCount`; the body's own
 *   blocks may add an implicit hit, keyed by the cache's name and counted against the minimum from its end.
 */

/** A `usageMetadata` of a `generateContent` response. */
export type GeminiUsageMetadata = {
  promptTokenCount: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  totalTokenCount: number;
};

export type GeminiImplicitCacheSimulatorOptions = {
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Counts a block's canonical text: an approximation of Gemini's tokenizer, such as `(await loadTokenCounter()).count` (o200k_base, from agentctx/tokens). */
  countTokens: TokenCounter;
  /** The shortest shared prefix that is a hit, by model. Default `defaultGeminiMinCacheableTokens`. */
  minCacheableTokens?: (model: string) => number;
  /** How long an unused prefix stays. Default 5 minutes. */
  ttlMs?: number;
  /** The token count of an explicit cache a body names, when a call does not give it. */
  cachedContentTokens?: (name: string) => number;
};

export const GEMINI_IMPLICIT_TTL_MS: number = 5 * MINUTE_MS;

// The docs' table moved over 2026: the page updated 2026-05-07 lists 2.5 Flash and 3 Flash Preview at 1024, 2.5 Pro
// and 3 Pro Preview at 4096; the page updated 2026-10-23 lists 2.5 Flash and 2.5 Pro at 2048 and 3.1 Pro, 3.5+ Flash
// and Gemini 4 at 4096. The newer page wins where it has the model. First match wins.
const MIN_CACHEABLE: readonly [RegExp, number][] = [
  [/^gemini-2\.5-/, 2048],
  [/^gemini-3-flash/, 1024],
  [/^gemini-(1\.|2\.0)/, Number.POSITIVE_INFINITY],
];

/**
 * The documented minimum for implicit caching: 2048 for Gemini 2.5 Flash and Pro, 1024 for Gemini 3 Flash
 * (preview), 4096 for Gemini 3 Pro, 3.1 and later; never for Gemini 2.0 and older (implicit caching is 2.5+).
 * Unknown names get 4096.
 */
export function defaultGeminiMinCacheableTokens(model: string): number {
  const id = normalizeGeminiModel(model).toLowerCase();
  for (const [pattern, tokens] of MIN_CACHEABLE) if (pattern.test(id)) return tokens;
  return 4096;
}

/** `models/gemini-2.5-flash` → `gemini-2.5-flash`. */
export function normalizeGeminiModel(model: string): string {
  return model.replace(/^(.*\/)?models\//, '');
}

function field(request: Record<string, unknown>, camel: string, snake: string): unknown {
  return request[camel] ?? request[snake] ?? asRecord(request['config'])?.[camel];
}

/** The explicit cache a body names (`cachedContent`), if any. */
export function geminiCachedContentName(body: unknown): string | undefined {
  const name = field(asRecord(body) ?? {}, 'cachedContent', 'cached_content');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * Splits a `generateContent` body into prompt blocks: system instruction parts, tools, tool config, content parts.
 * Reusable by an explicit-cache simulator (the blocks of a `cachedContents` body are the same fields).
 */
export function splitGeminiPrompt(body: unknown): PromptBlock[] {
  const request = asRecord(body) ?? {};
  const blocks: PromptBlock[] = [];
  const system = field(request, 'systemInstruction', 'system_instruction');
  const systemParts = typeof system === 'string' ? [{ text: system }] : asArray(asRecord(system)?.['parts']);
  for (const part of systemParts) blocks.push({ kind: 'system', tag: 'system:', value: part });
  for (const tool of asArray(field(request, 'tools', 'tools')))
    blocks.push({ kind: 'tool', tag: 'tool:', value: tool });
  const toolConfig = field(request, 'toolConfig', 'tool_config');
  if (toolConfig !== undefined) blocks.push({ kind: 'toolConfig', tag: 'toolConfig:', value: toolConfig });
  for (const content of asArray(request['contents'])) {
    const record = asRecord(content) ?? {};
    const role = String(record['role'] ?? 'user');
    asArray(record['parts']).forEach((part, index) => {
      // The first part of a turn says so: two turns of one part differ from one turn of two.
      blocks.push({ kind: 'part', tag: `${index === 0 ? 'content' : 'part'}:${role}:`, value: part });
    });
  }
  return blocks;
}

/** Measures a Gemini body's blocks (token counts per block and prefix keys), with the shared counter memo. */
export function measureGeminiPrompt(model: string, body: unknown, counter: TokenCounter, seed = ''): MeasuredPrompt {
  return measurePrompt(splitGeminiPrompt(body), `gemini\u0000${normalizeGeminiModel(model)}\u0000${seed}`, counter);
}

type Entry = { expiresAt: number };

/** Simulates Gemini's implicit cache across calls; one instance is one project's cache. */
export class GeminiImplicitCacheSimulator {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly counter: TokenCounter;
  private readonly minimum: (model: string) => number;
  private readonly ttlMs: number;
  private readonly cachedContentTokens: ((name: string) => number) | undefined;
  private calls = 0;

  constructor(options: GeminiImplicitCacheSimulatorOptions) {
    this.now = options.now ?? Date.now;
    this.counter = options.countTokens;
    this.minimum = options.minCacheableTokens ?? defaultGeminiMinCacheableTokens;
    this.ttlMs = options.ttlMs ?? GEMINI_IMPLICIT_TTL_MS;
    this.cachedContentTokens = options.cachedContentTokens;
  }

  /** The number of live cached prefixes. */
  get size(): number {
    purgeExpired(this.entries, this.now());
    return this.entries.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The `usageMetadata` for this body sent to `model`, updating the cache. `cachedContentTokens` is the size of the
   * explicit cache the body names (required then, here or in the options).
   */
  bill(
    model: string,
    body: unknown,
    options: { candidatesTokens?: number; thoughtsTokens?: number; cachedContentTokens?: number } = {},
  ): GeminiUsageMetadata {
    const name = geminiCachedContentName(body);
    let explicit = 0;
    if (name !== undefined) {
      const count = options.cachedContentTokens ?? this.cachedContentTokens?.(name);
      if (count === undefined)
        throw new Error(`the body names cachedContent ${name}: give its token count (cachedContentTokens)`);
      explicit = count;
    }
    const { cumulative, keys, total } = measureGeminiPrompt(model, body, this.counter, name ?? '');
    const now = this.now();
    if (++this.calls % 64 === 0) purgeExpired(this.entries, now);
    const minimum = this.minimum(normalizeGeminiModel(model));

    let shared = 0;
    for (let block = keys.length - 1; block >= 0 && explicit + (cumulative[block] as number) >= minimum; block--) {
      const entry = this.entries.get(keys[block] as string);
      if (entry !== undefined && entry.expiresAt > now) {
        shared = cumulative[block] as number;
        break;
      }
    }
    const expiresAt = now + this.ttlMs;
    for (let block = keys.length - 1; block >= 0 && explicit + (cumulative[block] as number) >= minimum; block--) {
      const entry = this.entries.get(keys[block] as string);
      if (entry === undefined) this.entries.set(keys[block] as string, { expiresAt });
      else entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
    }

    const prompt = explicit + total;
    const cached = explicit + shared;
    const candidates = options.candidatesTokens ?? 0;
    const thoughts = options.thoughtsTokens;
    return {
      promptTokenCount: prompt,
      ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
      candidatesTokenCount: candidates,
      ...(thoughts === undefined ? {} : { thoughtsTokenCount: thoughts }),
      totalTokenCount: prompt + candidates + (thoughts ?? 0),
    };
  }
}

/** A new simulator (see `GeminiImplicitCacheSimulator`). */
export function createGeminiImplicitCacheSimulator(
  options: GeminiImplicitCacheSimulatorOptions,
): GeminiImplicitCacheSimulator {
  return new GeminiImplicitCacheSimulator(options);
}
