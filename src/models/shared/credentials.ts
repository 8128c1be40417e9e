import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { environmentOf, type Environment, type ProviderSettings } from './settings.js';

/**
 * The API key from the settings, else from the first of the variables that is set (read from `environment`, by
 * default the settings' `env` or `process.env`); one clear error when there is none, or when it cannot be a key.
 */
export function requireApiKey(
  provider: string,
  settings: ProviderSettings,
  variables: readonly string[],
  environment: Environment = environmentOf(settings),
): string {
  if (settings.apiKey !== undefined && settings.apiKey !== '') return usableKey(settings.apiKey, 'apiKey');
  for (const variable of variables) {
    const value = environment[variable];
    if (value !== undefined && value !== '') return usableKey(value, variable);
  }
  throw new AgentctxError({
    code: 'missing_credentials',
    message: `No API key for ${provider}: ${variables.join(' or ')} is not set.`,
    hint: `Export ${variables[0] ?? 'the key'}, or pass apiKey when creating the model.`,
  });
}

/**
 * The key, checked: it goes out in an HTTP header, which carries no character outside Latin-1, so a key holding one
 * (the `…` of a placeholder copied from documentation, a typographic quote) would fail in `fetch` with a message
 * that names neither the key nor where it came from. Keys are plain printable ASCII; white space around one is
 * dropped, as HTTP drops it. `source` is the option or variable it was read from.
 */
export function usableKey(key: string, source: string): string {
  const trimmed = key.trim();
  const chars = [...trimmed];
  const at = chars.findIndex((char) => char < '!' || char > '~');
  if (at < 0) return trimmed;
  const char = chars[at] as string;
  const code = `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = char > '~' && char.trim() !== '' ? `'${char}' (${code})` : code;
  throw new AgentctxError({
    code: 'invalid_input',
    message: `The API key in ${source} holds ${shown} at character ${at + 1}, which an API key never holds and an HTTP header cannot carry.`,
    hint: `Set ${source} to the key itself, as the provider's console shows it: plain letters, digits and punctuation, no placeholder like sk-… and no quotes or spaces inside.`,
  });
}
