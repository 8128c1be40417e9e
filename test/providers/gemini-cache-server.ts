import type { FakeReply, FakeServer, ReceivedRequest, startFakeServer } from './fake-server.js';

/*
 * A Gemini API on 127.0.0.1 with explicit caches, speaking the real wire format: `cachedContents` (POST to create,
 * GET, PATCH of the TTL, DELETE) and `generateContent` / `streamGenerateContent?alt=sse` that take `cachedContent`.
 * Like Gemini it answers 400 to a request that names a cache and also sends a system instruction, tools or a tool
 * config, 403 to a cache it does not have (or that has expired by its clock), and reports the tokens read from the
 * cache as `cachedContentTokenCount` (part of `promptTokenCount`). Tokens are counted as a quarter of each piece's
 * JSON length, rounded up, so every count can be worked out by hand.
 */

type Json = Record<string, unknown>;

/** A cache the server holds. */
export type StoredCache = {
  name: string;
  model: string;
  displayName: string | undefined;
  systemInstruction: unknown;
  tools: unknown;
  toolConfig: unknown;
  contents: unknown[];
  tokens: number;
  expiresAt: number;
};

export type GeminiCacheServerOptions = {
  /** The server's clock, in milliseconds (tests share it with the model). */
  now: () => number;
  /** Answers a create instead of the server (to make one fail); undefined lets the server create the cache. */
  refuseCreate?: (request: ReceivedRequest) => FakeReply | undefined;
  /** Caches smaller than this are refused, as Gemini refuses caches under a model's minimum. Default 0. */
  minCacheTokens?: number;
};

export type GeminiCacheServer = FakeServer & {
  /** The caches held now, by name. */
  caches: Map<string, StoredCache>;
  /** The requests received, as `METHOD path` (the query left out). */
  calls(): string[];
  /** The bodies of the generateContent requests (streamed or not), in order. */
  generateBodies(): Json[];
};

/** Tokens of a piece of the request, as this server counts them. */
export function tokensOf(value: unknown): number {
  return value === undefined ? 0 : Math.ceil(JSON.stringify(value).length / 4);
}

/** Tokens of a request's (or a cache's) system instruction, tools, tool config and contents. */
export function promptTokensOf(body: {
  systemInstruction?: unknown;
  tools?: unknown;
  toolConfig?: unknown;
  contents?: unknown[];
}): number {
  return (
    tokensOf(body.systemInstruction) +
    tokensOf(body.tools) +
    tokensOf(body.toolConfig) +
    (body.contents ?? []).reduce<number>((sum, content) => sum + tokensOf(content), 0)
  );
}

const error = (code: number, status: string, message: string): FakeReply => ({
  status: code,
  json: { error: { code, message, status } },
});
const notFound = (name: string) =>
  error(403, 'PERMISSION_DENIED', `CachedContent not found (or permission denied): ${name}`);

export async function startGeminiCacheServer(
  serve: typeof startFakeServer,
  options: GeminiCacheServerOptions,
): Promise<GeminiCacheServer> {
  const caches = new Map<string, StoredCache>();
  let made = 0;
  const live = (name: string): StoredCache | undefined => {
    const cache = caches.get(name);
    if (cache !== undefined && options.now() >= cache.expiresAt) caches.delete(name);
    return caches.get(name);
  };
  const view = (cache: StoredCache): Json => ({
    name: cache.name,
    model: cache.model,
    ...(cache.displayName === undefined ? {} : { displayName: cache.displayName }),
    createTime: new Date(options.now()).toISOString(),
    updateTime: new Date(options.now()).toISOString(),
    expireTime: new Date(cache.expiresAt).toISOString(),
    usageMetadata: { totalTokenCount: cache.tokens },
  });

  const handle = (request: ReceivedRequest): FakeReply => {
    const path = request.url.split('?')[0] ?? '';
    const body = (request.body ?? {}) as Json;
    if (path === '/v1beta/cachedContents' && request.method === 'POST') {
      const refused = options.refuseCreate?.(request);
      if (refused !== undefined) return refused;
      const ttl = typeof body['ttl'] === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(body['ttl']) : null;
      if (typeof body['model'] !== 'string' || !body['model'].startsWith('models/') || ttl?.[1] === undefined)
        return error(400, 'INVALID_ARGUMENT', 'Invalid cached content.');
      const tokens = promptTokensOf(body as Parameters<typeof promptTokensOf>[0]);
      const minimum = options.minCacheTokens ?? 0;
      if (tokens < minimum)
        return error(
          400,
          'INVALID_ARGUMENT',
          `Cached content is too small. total_token_count=${tokens}, min_total_token_count=${minimum}`,
        );
      const cache: StoredCache = {
        name: `cachedContents/c${++made}`,
        model: body['model'],
        displayName: typeof body['displayName'] === 'string' ? body['displayName'] : undefined,
        systemInstruction: body['systemInstruction'],
        tools: body['tools'],
        toolConfig: body['toolConfig'],
        contents: Array.isArray(body['contents']) ? body['contents'] : [],
        tokens,
        expiresAt: options.now() + Number(ttl[1]) * 1000,
      };
      caches.set(cache.name, cache);
      return { json: view(cache) };
    }
    const cacheMatch = /^\/v1beta\/(cachedContents\/[^/:]+)$/.exec(path);
    if (cacheMatch?.[1] !== undefined) {
      const cache = live(cacheMatch[1]);
      if (cache === undefined) return notFound(cacheMatch[1]);
      if (request.method === 'GET') return { json: view(cache) };
      if (request.method === 'DELETE') {
        caches.delete(cache.name);
        return { json: {} };
      }
      if (request.method === 'PATCH') {
        const ttl = typeof body['ttl'] === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(body['ttl']) : null;
        if (ttl?.[1] === undefined) return error(400, 'INVALID_ARGUMENT', 'Only the ttl or expireTime may be updated.');
        cache.expiresAt = options.now() + Number(ttl[1]) * 1000;
        return { json: view(cache) };
      }
    }
    const generate = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
    if (generate !== null && request.method === 'POST')
      return answer(body, `models/${generate[1] ?? ''}`, generate[2] === 'streamGenerateContent');
    return error(404, 'NOT_FOUND', `No route for ${request.method} ${path}`);
  };

  const answer = (body: Json, model: string, streamed: boolean): FakeReply => {
    let cachedTokens = 0;
    if (body['cachedContent'] !== undefined) {
      if (body['systemInstruction'] !== undefined || body['tools'] !== undefined || body['toolConfig'] !== undefined) {
        return error(
          400,
          'INVALID_ARGUMENT',
          'CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.',
        );
      }
      const cache = live(String(body['cachedContent']));
      if (cache === undefined) return notFound(String(body['cachedContent']));
      if (cache.model !== model)
        return error(
          400,
          'INVALID_ARGUMENT',
          `Model ${model} does not match the cached content's model ${cache.model}.`,
        );
      cachedTokens = cache.tokens;
    }
    const contents = body['contents'];
    if (!Array.isArray(contents) || contents.length === 0)
      return error(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified');
    const promptTokenCount = cachedTokens + promptTokensOf(body as Parameters<typeof promptTokensOf>[0]);
    const usageMetadata = {
      promptTokenCount,
      candidatesTokenCount: 2,
      totalTokenCount: promptTokenCount + 2,
      ...(cachedTokens === 0 ? {} : { cachedContentTokenCount: cachedTokens }),
    };
    const reply = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata,
    };
    return streamed ? { events: [{ data: reply }] } : { json: reply };
  };

  const server = await serve(handle);
  return {
    ...server,
    caches,
    calls: () => server.received.map((request) => `${request.method} ${request.url.split('?')[0] ?? ''}`),
    generateBodies: () =>
      server.received
        .filter((request) => /:(stream)?[gG]enerateContent/.test(request.url))
        .map((request) => request.body as Json),
  };
}
