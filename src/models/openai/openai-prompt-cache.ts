import { createHash } from 'node:crypto';
import type { ModelCallOptions } from '../../contracts/model.js';

/**
 * How requests ask OpenAI to reuse cached prompt prefixes. OpenAI caches every prompt of 1,024 tokens or more on its
 * own and bills hits at the cached-input price; `prompt_cache_key` routes requests that share a prefix to the same
 * cache, and `prompt_cache_retention` keeps entries in memory (minutes) or for 24 hours. Neither costs anything.
 *
 * `key`: `agent` (the default: one key per app and agent, since an agent's requests share their tools and system
 * text across sessions), `session` (one per session, for agents whose prefix differs per user), any other string
 * (sent as it is), or `false` for none.
 */
export type OpenAIPromptCacheSetting = {
  key?: 'agent' | 'session' | false | (string & {}) | undefined;
  retention?: 'in_memory' | '24h' | undefined;
};

/** The cache fields of a Chat Completions body. */
export type OpenAICacheFields = { prompt_cache_key?: string; prompt_cache_retention?: 'in_memory' | '24h' };

/**
 * The fields for one call. Derived keys are a hash of the app, agent (and session), so no user or session id is
 * sent to the provider; the same call always gets the same key.
 */
export function openAICacheFields(
  setting: OpenAIPromptCacheSetting | false,
  options: ModelCallOptions | undefined,
): OpenAICacheFields {
  if (setting === false) return {};
  const key = cacheKey(setting.key ?? 'agent', options);
  return {
    ...(key === undefined ? {} : { prompt_cache_key: key }),
    ...(setting.retention === undefined ? {} : { prompt_cache_retention: setting.retention }),
  };
}

function cacheKey(
  kind: NonNullable<OpenAIPromptCacheSetting['key']>,
  options: ModelCallOptions | undefined,
): string | undefined {
  if (kind === false) return undefined;
  if (kind !== 'agent' && kind !== 'session') return kind;
  const session = options?.session;
  const agent = options?.agentName;
  // A direct call (no runner) names neither; it gets no key rather than one shared by everything.
  if (session === undefined && agent === undefined) return undefined;
  const parts = [
    session?.appName ?? '',
    agent ?? '',
    ...(kind === 'session' ? [session?.userId ?? '', session?.sessionId ?? ''] : []),
  ];
  return `agentctx-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24)}`;
}

/** Refuses a setting OpenAI would refuse, naming the field. */
export function checkOpenAIPromptCache(setting: OpenAIPromptCacheSetting | false | undefined): void {
  if (setting === undefined || setting === false) return;
  if (setting.retention !== undefined && setting.retention !== 'in_memory' && setting.retention !== '24h') {
    throw new TypeError(`promptCache.retention must be 'in_memory' or '24h', not ${JSON.stringify(setting.retention)}`);
  }
  if (setting.key !== undefined && setting.key !== false && (typeof setting.key !== 'string' || setting.key === '')) {
    throw new TypeError(
      `promptCache.key must be 'agent', 'session', a non-empty string or false, not ${JSON.stringify(setting.key)}`,
    );
  }
}
