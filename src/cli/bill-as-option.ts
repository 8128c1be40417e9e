import { UsageError } from '../contracts/errors/usage-error.js';
import { parseModelString } from '../models/registry/model-string.js';
import type { SimulatedBillingOptions } from '../testing/prompt-cache/simulated-billing.js';

/** The help line of `--bill-as`. */
export const BILL_AS_HELP = `  --bill-as <provider:model>
                     bill every call as that model would be billed (anthropic:,
                     openai: or google:), from the exact body its adapter sends
                     and the provider's prompt-cache rules: tokens and USD for
                     offline runs of scripted models; nothing is sent`;

const PROVIDERS = ['anthropic', 'openai', 'google'] as const;

/** `--bill-as anthropic:claude-sonnet-4-6`: the provider and model whose bill is simulated; absent, none. */
export function billAsChoice(value: string | undefined): { billAs?: SimulatedBillingOptions } {
  if (value === undefined) return {};
  const colon = value.indexOf(':');
  const provider = value.slice(0, colon);
  const modelId = value.slice(colon + 1);
  if (colon < 0 || modelId === '' || !(PROVIDERS as readonly string[]).includes(provider))
    throw new UsageError(
      `--bill-as takes <provider>:<model> with provider ${PROVIDERS.join(', ')}, got '${value}'.`,
      'For example: --bill-as anthropic:claude-sonnet-4-6',
    );
  // An `openai:` reasoning model is called through the Responses API (model strings), so its bill is of that body.
  const api = provider === 'openai' ? parseModelString(`openai:${modelId}`) : undefined;
  return {
    billAs: {
      provider: provider as SimulatedBillingOptions['provider'],
      modelId,
      ...(api !== undefined && 'api' in api && api.api === 'responses' ? { openaiApi: 'responses' as const } : {}),
    },
  };
}
