import { AgentctxError } from '../../contracts/errors/agentctx-error.js';

/** Where a provider adapter takes its key and address from. */
export type ProviderSettings = {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** Read for keys and base URLs instead of `process.env` (tests pass their own). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
};

/** The API key from the settings or the first environment variable set; one clear error when there is none. */
export function requireApiKey(provider: string, settings: ProviderSettings, variables: readonly string[], environment: Readonly<Record<string, string | undefined>>): string {
  if (settings.apiKey !== undefined && settings.apiKey !== '') return settings.apiKey;
  for (const variable of variables) {
    const value = environment[variable];
    if (value !== undefined && value !== '') return value;
  }
  throw new AgentctxError({
    code: 'missing_credentials',
    message: `No API key for ${provider}: ${variables.join(' or ')} is not set.`,
    hint: `Export ${variables[0] ?? 'the key'}, or pass apiKey when creating the model.`,
  });
}
