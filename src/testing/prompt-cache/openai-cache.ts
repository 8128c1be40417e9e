import {
  asArray,
  asRecord,
  HOUR_MS,
  measurePrompt,
  MINUTE_MS,
  purgeExpired,
  type PromptBlock,
  type TokenCounter,
} from './prompt-blocks.js';

/*
 * OpenAI automatic prompt caching (developers.openai.com, "Prompt caching"; the mechanics of models before GPT-5.6,
 * which added paid cache writes and explicit breakpoints, not simulated here), offline: give it each Chat
 * Completions or Responses body in order and it returns the usage OpenAI would report.
 *
 * - The prompt, in this canonical order: each tool definition, the response format (Chat `response_format`,
 *   Responses `text.format`), the Responses `instructions`, then each message (Chat `messages`) or input item
 *   (Responses `input`; a string input is one user message). One block each.
 * - A prompt of `minimumTokens` (1024) or more is cached; a later prompt hits the longest prefix it shares with a
 *   live earlier prompt of the same routing group, and `cached_tokens` is that length rounded down to
 *   1024 + a multiple of 128 (nothing below 1024).
 * - Routing group: the model and `prompt_cache_key`; without a key, the model and the prefix up to the first block
 *   boundary at or past `routingTokens` (256), standing for the hash of the first ~256 tokens.
 * - Retention: `prompt_cache_retention: 'in_memory'` (the default) keeps a prefix 10 minutes after its last use (the
 *   docs say 5–10 minutes of inactivity, at most an hour; the upper bound is taken); `'24h'` keeps it 24 hours.
 *   Every call that contains a prefix, hit or not, renews it (never shortening a longer retention).
 * - Shared length is counted in whole blocks: a block that differs partway shares none of its tokens (the real
 *   cache matches token by token, so it may report up to one block more). Overflow routing past ~15 requests per
 *   minute per prefix, and `previous_response_id` (whose earlier turns the body does not carry), are not simulated.
 */

export type OpenAICacheRetention = 'in_memory' | '24h';

/** The `usage` of a Chat Completions response. */
export type OpenAIChatUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
};

/** The `usage` of a Responses API response. */
export type OpenAIResponsesUsage = {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
};

export type OpenAICacheSimulatorOptions = {
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Counts a block's canonical text: an approximation of OpenAI's tokenizer, such as `(await loadTokenCounter()).count` (o200k_base, from agentctx/tokens). */
  countTokens: TokenCounter;
  /** The shortest prompt that is cached, and the shortest hit. Default 1024. */
  minimumTokens?: number;
  /** Hits grow in steps of this many tokens past the minimum. Default 128. */
  incrementTokens?: number;
  /** How much of the prompt routes a request without `prompt_cache_key`. Default 256. */
  routingTokens?: number;
  /** The retention of a body without `prompt_cache_retention`. Default `'in_memory'`. */
  defaultRetention?: (model: string) => OpenAICacheRetention;
  /** How long each retention keeps an unused prefix. Default 10 minutes and 24 hours. */
  retentionMs?: Partial<Record<OpenAICacheRetention, number>>;
};

export const OPENAI_RETENTION_MS: Readonly<Record<OpenAICacheRetention, number>> = {
  in_memory: 10 * MINUTE_MS,
  '24h': 24 * HOUR_MS,
};

/** The cached part of a shared prefix: 0 below `minimum`, else `minimum` plus whole `increment`s. */
export function openAICachedTokens(shared: number, minimum = 1024, increment = 128): number {
  if (shared < minimum) return 0;
  return minimum + Math.floor((shared - minimum) / increment) * increment;
}

/** Splits a Chat Completions or Responses body into prompt blocks, in the canonical order above. */
export function splitOpenAIPrompt(body: unknown): PromptBlock[] {
  const request = asRecord(body) ?? {};
  const blocks: PromptBlock[] = [];
  for (const tool of asArray(request['tools'])) blocks.push({ kind: 'tool', tag: 'tool:', value: tool });
  const format = request['response_format'] ?? asRecord(request['text'])?.['format'];
  if (format !== undefined) blocks.push({ kind: 'format', tag: 'format:', value: format });
  if (typeof request['instructions'] === 'string' && request['instructions'] !== '') {
    blocks.push({ kind: 'instructions', tag: 'instructions:', value: request['instructions'] });
  }
  const input = request['input'];
  const items =
    request['messages'] !== undefined
      ? asArray(request['messages'])
      : typeof input === 'string'
        ? [{ role: 'user', content: input }]
        : asArray(input);
  for (const item of items) blocks.push({ kind: 'message', tag: 'message:', value: item });
  return blocks;
}

type Entry = { expiresAt: number };

/** Simulates OpenAI's automatic prompt cache across calls; one instance is one organization's cache. */
export class OpenAICacheSimulator {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly counter: TokenCounter;
  private readonly minimum: number;
  private readonly increment: number;
  private readonly routing: number;
  private readonly defaultRetention: (model: string) => OpenAICacheRetention;
  private readonly retentionMs: Record<OpenAICacheRetention, number>;
  private calls = 0;

  constructor(options: OpenAICacheSimulatorOptions) {
    this.now = options.now ?? Date.now;
    this.counter = options.countTokens;
    this.minimum = options.minimumTokens ?? 1024;
    this.increment = options.incrementTokens ?? 128;
    this.routing = options.routingTokens ?? 256;
    this.defaultRetention = options.defaultRetention ?? (() => 'in_memory');
    this.retentionMs = { ...OPENAI_RETENTION_MS, ...options.retentionMs };
  }

  /** The number of live cached prefixes (one per block boundary past the minimum). */
  get size(): number {
    purgeExpired(this.entries, this.now());
    return this.entries.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /** The prompt and cached token counts of this body, updating the cache. */
  measure(body: unknown): { promptTokens: number; cachedTokens: number } {
    const request = asRecord(body) ?? {};
    const model = String(request['model']);
    const measured = measurePrompt(splitOpenAIPrompt(body), `openai\u0000${model}`, this.counter);
    const { cumulative, keys, total } = measured;
    const now = this.now();
    // Expired entries are never read (the check below); sweeping them now and then only bounds memory.
    if (++this.calls % 64 === 0) purgeExpired(this.entries, now);

    const key = request['prompt_cache_key'];
    let route = cumulative.findIndex((tokens) => tokens >= this.routing);
    if (route < 0) route = keys.length - 1;
    const group =
      typeof key === 'string' && key !== '' ? `key\u0000${model}\u0000${key}` : `prefix\u0000${keys[route] ?? ''}`;

    let shared = 0;
    for (let block = keys.length - 1; block >= 0 && (cumulative[block] as number) >= this.minimum; block--) {
      const entry = this.entries.get(`${group}\u0000${keys[block]}`);
      if (entry !== undefined && entry.expiresAt > now) {
        shared = cumulative[block] as number;
        break;
      }
    }

    if (total >= this.minimum) {
      const retention =
        request['prompt_cache_retention'] === '24h' || request['prompt_cache_retention'] === 'in_memory'
          ? request['prompt_cache_retention']
          : this.defaultRetention(model);
      const expiresAt = now + this.retentionMs[retention];
      for (let block = keys.length - 1; block >= 0 && (cumulative[block] as number) >= this.minimum; block--) {
        const id = `${group}\u0000${keys[block]}`;
        const entry = this.entries.get(id);
        if (entry === undefined || entry.expiresAt <= now) this.entries.set(id, { expiresAt });
        else entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
      }
    }
    return { promptTokens: total, cachedTokens: openAICachedTokens(shared, this.minimum, this.increment) };
  }

  /** The Chat Completions `usage` for this body, updating the cache. */
  bill(body: unknown, options: { completionTokens?: number } = {}): OpenAIChatUsage {
    const { promptTokens, cachedTokens } = this.measure(body);
    const completion = options.completionTokens ?? 0;
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      prompt_tokens_details: { cached_tokens: cachedTokens },
    };
  }

  /** The Responses API `usage` for this body, updating the cache. */
  billResponses(
    body: unknown,
    options: { outputTokens?: number; reasoningTokens?: number } = {},
  ): OpenAIResponsesUsage {
    return toOpenAIResponsesUsage(
      this.bill(body, { completionTokens: options.outputTokens ?? 0 }),
      options.reasoningTokens ?? 0,
    );
  }
}

/** The same counts in the Responses API's shape (`reasoningTokens` is part of the output tokens). */
export function toOpenAIResponsesUsage(usage: OpenAIChatUsage, reasoningTokens = 0): OpenAIResponsesUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details.cached_tokens },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: usage.total_tokens,
  };
}

/** A new simulator (see `OpenAICacheSimulator`). */
export function createOpenAICacheSimulator(options: OpenAICacheSimulatorOptions): OpenAICacheSimulator {
  return new OpenAICacheSimulator(options);
}
