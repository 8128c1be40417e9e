/**
 * Explicit context caching for a Gemini model (`GeminiModelSettings.contextCache`), with ADK Python's
 * `ContextCacheConfig` fields and defaults in camelCase. Absent means off: an explicit cache is billed for storage
 * every hour it lives, so agentctx creates none unless asked.
 */
export type GeminiContextCacheSettings = {
  /**
   * A cache is created only once the request before has reached this many prompt tokens (as Gemini counted them).
   * An integer ≥ 0; default 0. Gemini refuses caches below its own minimum (1,024 tokens or more, by model); such a
   * refusal leaves the call uncached.
   */
  minTokens?: number | undefined;
  /** How long each cache lives, in seconds: an integer > 0; default 1800 (30 minutes). */
  ttlSeconds?: number | undefined;
  /**
   * How many calls one cache serves (the call that created it counted) before it is replaced by one holding the
   * conversation as it has grown: an integer from 1 to 100; default 10.
   */
  cacheIntervals?: number | undefined;
};

/** The settings with every default applied. */
export type ContextCacheConfig = { minTokens: number; ttlSeconds: number; cacheIntervals: number };

export const CONTEXT_CACHE_DEFAULTS: Readonly<ContextCacheConfig> = {
  minTokens: 0,
  ttlSeconds: 1800,
  cacheIntervals: 10,
};

/**
 * The settings checked and completed; a value ADK would refuse is refused here too, with a `TypeError` naming the
 * field and its range.
 */
export function contextCacheConfig(settings: GeminiContextCacheSettings): ContextCacheConfig {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new TypeError(
      `contextCache must be an object ({ minTokens?, ttlSeconds?, cacheIntervals? }), not ${describe(settings)}`,
    );
  }
  return {
    minTokens: integerIn(
      'minTokens',
      settings.minTokens,
      CONTEXT_CACHE_DEFAULTS.minTokens,
      0,
      Number.MAX_SAFE_INTEGER,
      'an integer ≥ 0',
    ),
    ttlSeconds: integerIn(
      'ttlSeconds',
      settings.ttlSeconds,
      CONTEXT_CACHE_DEFAULTS.ttlSeconds,
      1,
      Number.MAX_SAFE_INTEGER,
      'an integer > 0',
    ),
    cacheIntervals: integerIn(
      'cacheIntervals',
      settings.cacheIntervals,
      CONTEXT_CACHE_DEFAULTS.cacheIntervals,
      1,
      100,
      'an integer from 1 to 100',
    ),
  };
}

function integerIn(field: string, value: unknown, fallback: number, min: number, max: number, range: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`contextCache.${field} must be ${range}, not ${describe(value)}`);
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? String(value);
}
