import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { environmentOf, type Environment, type ProviderSettings } from './settings.js';

/**
 * The API key from the settings, else from the first of the variables that is set (read from `environment`, by
 * default the settings' `env` or `process.env`); one clear error when there is none.
 */
export function requireApiKey(provider: string, settings: ProviderSettings, variables: readonly string[], environment: Environment = environmentOf(settings)): string {
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
