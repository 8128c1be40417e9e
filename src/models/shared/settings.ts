/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where a provider adapter takes its key and address from. */
export type ProviderSettings = {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** Read for keys and base URLs instead of `process.env` (tests pass their own). */
  env?: Environment | undefined;
};

/** The variables the settings read: their own `env`, else `process.env`. */
export function environmentOf(settings: ProviderSettings): Environment {
  return settings.env ?? process.env;
}

/** The value without surrounding white space; undefined when nothing is left. */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The base URL from the settings, else from the environment variable, else the provider's own. Always a value, so
 * an SDK never looks the variable up in `process.env` behind the settings' back.
 */
export function baseURLFrom(settings: ProviderSettings, variable: string, fallback: string): string {
  return nonEmpty(settings.baseURL) ?? nonEmpty(environmentOf(settings)[variable]) ?? fallback;
}
