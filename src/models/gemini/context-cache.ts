import type { Usage } from '../../contracts/event.js';
import type { ModelCallOptions } from '../../contracts/model.js';
import type { ContextCacheConfig } from './context-cache-settings.js';
import type { GeminiCacheCreate, GeminiRequest, GeminiRequestContent } from './gemini-wire.js';

/*
 * Explicit context caching (Gemini `cachedContents`), as ADK Python's `GeminiContextCacheManager` does it, without
 * its two known faults:
 *
 * - Only the request's stable prefix is fingerprinted (`ModelCallOptions.stablePrefix`: the tools, the system text,
 *   the messages before the first volatile one). A dynamic instruction beside a static one is a message after that
 *   prefix, so it never changes the fingerprint, and the cache is used (adk-python #6062 never used it).
 * - A cache is fingerprinted by the prefix it holds, the stable prefix of the request that created it, and a later
 *   request uses it when it starts with that prefix: as the conversation grows the fingerprint stays where it is
 *   (in adk-python #6216 the fingerprint never settled, so no cache came of it).
 *
 * The lifecycle, per agent and session: a first request leaves a candidate (its stable prefix's fingerprint, and
 * later its prompt token count). A following request that starts with the candidate, once the candidate's request
 * reached `minTokens`, creates a cache of its own stable prefix (the system instruction, the tools, and the contents
 * before its last run of user turns) and names it in place of those; later requests that start with the same prefix
 * use it. After `cacheIntervals` calls it is replaced by a cache of the longer conversation, and the old one deleted;
 * shortly before its lifetime ends it is extended (`caches.update` of its TTL), and once ended it is created anew. A
 * request that no longer starts with the cached prefix (compacted history, a changed instruction) deletes it.
 * ADK counts `cache_intervals` in invocations; an adapter sees calls, so here every call that names a cache counts.
 *
 * Entries are kept per app, user, session and agent (`options.session`, `options.agentName`), so two sessions never
 * share one. Direct calls that name neither share one entry per model; as a cache is only named for a request that
 * starts with exactly what it holds, sharing can cost a cache, never send a wrong one.
 *
 * A system text with a volatile tail (a page, a hook's text) cannot be cached: a request naming a cache may not
 * carry a system instruction at all, and moving the tail into a user turn would change what the model is told. Such
 * a request is sent whole, without the cache, and leaves the cache and candidate as they were for the next request.
 *
 * A failed create (too small for the model, quota, network) never fails the call: it is sent without the cache, and
 * the next create is tried `cacheIntervals` calls later. A cache the server refuses when it is named (deleted or
 * expired early) is forgotten and the call sent again without it.
 */

/** The cache endpoints, as the adapter reaches them through its own SDK client. */
export type GeminiCacheService = {
  /** Creates a cache; its resource name and, when the API reports it, its size in tokens. */
  create(
    entry: GeminiCacheCreate,
    signal: AbortSignal | undefined,
  ): Promise<{ name: string; tokens: number | undefined }>;
  /** Sets a cache's TTL (from now) anew. */
  extend(name: string, ttl: string, signal: AbortSignal | undefined): Promise<void>;
  delete(name: string, signal: AbortSignal | undefined): Promise<void>;
};

/** How one call goes out: the request to send, and what to do with its answer. */
export type CachePlan = {
  readonly request: GeminiRequest;
  /** The cache the request names, if it names one. */
  readonly cacheName: string | undefined;
  /** Takes the answer's usage (recorded for the next call); returns it with any cache storage this call started. */
  settle(usage: Usage | undefined): Usage | undefined;
  /** The server refused the named cache: it is forgotten, and the plan for sending the request without it. */
  abandon(): CachePlan;
};

export type ContextCacheOptions = {
  /** Milliseconds since the epoch; `Date.now` unless a test gives its own. */
  now?: (() => number) | undefined;
  /** Agents and sessions remembered at most (the least recently used are forgotten); default 1000. */
  maxEntries?: number | undefined;
};

type ActiveCache = {
  name: string;
  fingerprint: string;
  /** Contents held (after the system instruction and tools). */
  count: number;
  expiresAt: number;
  /** Calls that named it, the one that created it included. */
  uses: number;
  tokens: number | undefined;
  /** Lifetime started (created, extended) and not yet reported in a call's usage. */
  unreportedSeconds: number;
};

type Candidate = { fingerprint: string; count: number; promptTokens: number | undefined };

type Entry = { active: ActiveCache | undefined; candidate: Candidate | undefined; createPause: number };

// Extended when less than this is left: ADK's two minutes, or a quarter of a shorter TTL.
const EXTEND_MARGIN_SECONDS = 120;
const DISPLAY_NAME_LIMIT = 128;

/** The context caches of one model instance: one entry per app, user, session and agent. */
export class GeminiContextCache {
  readonly #config: ContextCacheConfig;
  readonly #service: GeminiCacheService;
  readonly #now: () => number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Entry>();
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(config: ContextCacheConfig, service: GeminiCacheService, options: ContextCacheOptions = {}) {
    this.#config = config;
    this.#service = service;
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 1000;
  }

  /**
   * The plan for one request: the request as it is, or naming a cache in place of the prefix it holds. Cache
   * requests made on the way (create, extend, delete) never fail the call. Calls of one agent in one session are
   * planned one at a time.
   */
  async prepare(request: GeminiRequest, options: ModelCallOptions | undefined): Promise<CachePlan> {
    const system = request.config.systemInstruction?.parts[0].text ?? '';
    const stable = options?.stablePrefix ?? { systemChars: system.length, messages: request.contents.length };
    if (request.contents.length === 0 || stable.systemChars < system.length) return plainPlan(request);
    const messages = Math.max(0, Math.min(stable.messages, request.contents.length));
    const key = JSON.stringify([
      options?.session?.appName ?? '',
      options?.session?.userId ?? '',
      options?.session?.sessionId ?? '',
      options?.agentName ?? '',
    ]);
    const label = `agentctx ${options?.agentName ?? 'model'}`.slice(0, DISPLAY_NAME_LIMIT);
    return this.#serial(key, () => this.#plan(this.#entry(key), { request, messages, label, signal: options?.signal }));
  }

  async #plan(entry: Entry, call: Call): Promise<CachePlan> {
    const { request } = call;
    if (entry.createPause > 0) entry.createPause--;
    const active = entry.active;
    if (active !== undefined) {
      if (request.contents.length > active.count && (await fingerprint(request, active.count)) === active.fingerprint)
        return this.#reuse(entry, active, call);
      // The request no longer starts with what the cache holds: no later one will either.
      entry.active = undefined;
      await this.#drop(active.name, call.signal);
    }
    const candidate = entry.candidate;
    if (
      candidate?.promptTokens !== undefined &&
      candidate.promptTokens >= this.#config.minTokens &&
      request.contents.length >= candidate.count &&
      (await fingerprint(request, candidate.count)) === candidate.fingerprint
    ) {
      const created = await this.#create(entry, call, undefined);
      if (created !== undefined) return this.#use(entry, created, request);
    }
    return this.#plainWithCandidate(entry, call);
  }

  async #reuse(entry: Entry, active: ActiveCache, call: Call): Promise<CachePlan> {
    const now = this.#now();
    if (now >= active.expiresAt) {
      // Gone on the server by now: a new one holds the conversation as it is.
      entry.active = undefined;
      const created = await this.#create(entry, call, undefined);
      return created === undefined ? this.#plainWithCandidate(entry, call) : this.#use(entry, created, call.request);
    }
    const ttl = this.#config.ttlSeconds;
    const nearEnd = active.expiresAt - now < Math.min(EXTEND_MARGIN_SECONDS, ttl / 4) * 1000;
    if (active.uses >= this.#config.cacheIntervals || (nearEnd && !(await this.#extend(active, call.signal)))) {
      const created = await this.#create(entry, call, active);
      if (created !== undefined) return this.#use(entry, created, call.request);
      // Not replaced: the old cache still holds a prefix of this request, and serves until it ends.
    }
    active.uses++;
    return this.#use(entry, active, call.request);
  }

  /** Creates a cache of the call's stable prefix; the one it replaces is deleted once it exists. */
  async #create(entry: Entry, call: Call, replacing: ActiveCache | undefined): Promise<ActiveCache | undefined> {
    if (entry.createPause > 0) return undefined;
    const { request } = call;
    const count = cacheableCount(request.contents, call.messages);
    const { systemInstruction, tools, toolConfig } = request.config;
    // Nothing to hold: the API refuses an empty cache.
    if (count === 0 && systemInstruction === undefined && tools === undefined) return undefined;
    const ttl = this.#config.ttlSeconds;
    const body: GeminiCacheCreate = {
      model: request.model,
      ttl: `${ttl}s`,
      displayName: call.label,
      contents: request.contents.slice(0, count),
      ...(systemInstruction === undefined ? {} : { systemInstruction }),
      ...(tools === undefined ? {} : { tools }),
      // The API refuses a request that names a cache and sets its tool config: the cache holds it.
      ...(toolConfig === undefined ? {} : { toolConfig }),
    };
    const started = this.#now();
    let made: { name: string; tokens: number | undefined };
    try {
      made = await this.#service.create(body, call.signal);
    } catch {
      if (call.signal?.aborted !== true) entry.createPause = this.#config.cacheIntervals;
      return undefined;
    }
    const created: ActiveCache = {
      name: made.name,
      fingerprint: await fingerprint(request, count),
      count,
      expiresAt: started + ttl * 1000,
      uses: 1,
      tokens: made.tokens,
      unreportedSeconds: ttl,
    };
    entry.active = created;
    entry.candidate = undefined;
    if (replacing !== undefined) await this.#drop(replacing.name, call.signal);
    return created;
  }

  /** Extends a cache's lifetime to a full TTL from now; false when the server would not. */
  async #extend(active: ActiveCache, signal: AbortSignal | undefined): Promise<boolean> {
    const started = this.#now();
    try {
      await this.#service.extend(active.name, `${this.#config.ttlSeconds}s`, signal);
    } catch {
      return false;
    }
    const expiresAt = started + this.#config.ttlSeconds * 1000;
    active.unreportedSeconds += Math.max(0, expiresAt - active.expiresAt) / 1000;
    active.expiresAt = expiresAt;
    return true;
  }

  async #drop(name: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.#service.delete(name, signal);
    } catch {
      // It ends with its TTL all the same.
    }
  }

  #use(entry: Entry, active: ActiveCache, request: GeminiRequest): CachePlan {
    const settle = (usage: Usage | undefined): Usage | undefined => {
      active.tokens ??= usage?.cachedTokens;
      if (active.unreportedSeconds === 0 || active.tokens === undefined) return usage;
      const cacheStorageTokenHours = (active.tokens * active.unreportedSeconds) / 3600;
      active.unreportedSeconds = 0;
      return { ...usage, cacheStorageTokenHours };
    };
    const plan: CachePlan = {
      request: usingCache(request, active.name, active.count),
      cacheName: active.name,
      settle,
      abandon: () => {
        if (entry.active === active) entry.active = undefined;
        const plain = plainPlan(request);
        return { ...plain, settle };
      },
    };
    return plan;
  }

  /** The request sent whole; its stable prefix becomes the candidate a later request may create a cache from. */
  async #plainWithCandidate(entry: Entry, call: Call): Promise<CachePlan> {
    const candidate: Candidate = {
      fingerprint: await fingerprint(call.request, call.messages),
      count: call.messages,
      promptTokens: undefined,
    };
    entry.candidate = candidate;
    return plainPlan(call.request, (usage) => {
      if (usage?.promptTokens !== undefined) candidate.promptTokens = usage.promptTokens;
    });
  }

  #entry(key: string): Entry {
    const entry = this.#entries.get(key) ?? { active: undefined, candidate: undefined, createPause: 0 };
    // Most recently used last, so the first is the one to forget.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#maxEntries) {
      const [oldest, forgotten] = this.#entries.entries().next().value as [string, Entry];
      this.#entries.delete(oldest);
      if (forgotten.active !== undefined) void this.#drop(forgotten.active.name, undefined);
    }
    return entry;
  }

  #serial<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(key) ?? Promise.resolve();
    const result = previous.then(run, run);
    const done = result.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(key, done);
    void done.then(() => {
      if (this.#queues.get(key) === done) this.#queues.delete(key);
    });
    return result;
  }
}

type Call = { request: GeminiRequest; messages: number; label: string; signal: AbortSignal | undefined };

function plainPlan(request: GeminiRequest, onSettle?: (usage: Usage | undefined) => void): CachePlan {
  const plan: CachePlan = {
    request,
    cacheName: undefined,
    settle: (usage) => {
      onSettle?.(usage);
      return usage;
    },
    abandon: () => plan,
  };
  return plan;
}

/**
 * The request naming the cache: without the system instruction, the tools (and their config) and the contents the
 * cache holds. The request given is not changed.
 */
export function usingCache(request: GeminiRequest, name: string, count: number): GeminiRequest {
  const { systemInstruction: _system, tools: _tools, toolConfig: _toolConfig, ...config } = request.config;
  return { model: request.model, contents: request.contents.slice(count), config: { ...config, cachedContent: name } };
}

/**
 * How many leading contents a cache created from this request holds: the stable ones before the last run of user
 * turns (the new question, the tool results), which is sent with every call; at least one content is always left
 * to send, as the API wants one.
 */
export function cacheableCount(contents: readonly GeminiRequestContent[], stableMessages: number): number {
  let lastUserRun = contents.length;
  while (lastUserRun > 0 && contents[lastUserRun - 1]?.role === 'user') lastUserRun--;
  return Math.max(0, Math.min(stableMessages, lastUserRun, contents.length - 1));
}

/** SHA-256 of the system instruction, the tools and the first `count` contents, as they go on the wire. */
export async function fingerprint(request: GeminiRequest, count: number): Promise<string> {
  const { systemInstruction, tools, toolConfig } = request.config;
  // A tool config goes into the cache with the tools, so a change of it needs a cache of its own.
  const text = JSON.stringify([
    systemInstruction ?? null,
    tools ?? null,
    request.contents.slice(0, count),
    ...(toolConfig === undefined ? [] : [toolConfig]),
  ]);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a failed call was refused because of the cache it named (not found, no longer usable): the SDK's
 * `ApiError` with 403 or 404, or a 400 about cached content.
 */
export function refusesCache(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ApiError') return false;
  const status = (error as { status?: unknown }).status;
  return status === 403 || status === 404 || (status === 400 && /cached ?content/i.test(error.message));
}
