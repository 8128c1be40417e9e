import type { BuiltInTool, RequestConfig } from '../../contracts/request.js';
import { refuseConfig, refuseFields, refuseForeignBuiltIns } from '../shared/refuse-config.js';
import type { AnthropicRequestBody, AnthropicServerTool } from './anthropic-wire.js';

const API = 'Anthropic Messages API';
const NO_SUCH = 'the Messages API has no such setting';

/**
 * Writes the config's fields the Messages API has onto `body`, after refusing the ones it has not. `temperature`,
 * `topP` and `topK` are the exception, not sent and not refused (documented in `toAnthropicRequest`).
 */
export function applyAnthropicConfig(body: AnthropicRequestBody, config: RequestConfig): void {
  refuseFields(API, config, {
    safetySettings: NO_SUCH,
    labels: 'the Messages API keeps no labels (its metadata holds a user id only; set it in providerOptions.anthropic)',
    seed: NO_SUCH,
    presencePenalty: NO_SUCH,
    frequencyPenalty: NO_SUCH,
    mediaResolution: NO_SUCH,
  });
  if (config.candidateCount !== undefined && config.candidateCount !== 1)
    refuseConfig(API, 'candidateCount', 'the Messages API answers once per call');
  const { responseSchema, responseMimeType, toolChoice, thinking } = config;
  if (
    responseMimeType !== undefined &&
    responseMimeType !== 'text/plain' &&
    !(responseMimeType === 'application/json' && responseSchema !== undefined)
  ) {
    refuseConfig(
      API,
      'responseMimeType',
      `JSON answers need a responseSchema here; got ${responseMimeType}${responseSchema === undefined ? ' without one' : ''}`,
    );
  }
  if (responseMimeType === 'text/plain' && responseSchema !== undefined)
    refuseConfig(API, 'responseMimeType', "a schema's answer is JSON, not text/plain");
  if (toolChoice !== undefined)
    body.tool_choice =
      toolChoice === 'required'
        ? { type: 'any' }
        : typeof toolChoice === 'string'
          ? { type: toolChoice }
          : { type: 'tool', name: toolChoice.name };
  if (thinking !== undefined) {
    if (thinking.effort === 'minimal')
      refuseConfig(API, 'thinking.effort', "effort is 'low', 'medium' or 'high' here; there is no minimal");
    const display =
      thinking.includeThoughts === undefined
        ? {}
        : { display: thinking.includeThoughts ? ('summarized' as const) : ('omitted' as const) };
    // A budget turns thinking on with it (0: off); without one, Claude decides how much to think.
    if (thinking.budgetTokens === 0) body.thinking = { type: 'disabled' };
    else if (thinking.budgetTokens !== undefined)
      body.thinking = { type: 'enabled', budget_tokens: thinking.budgetTokens, ...display };
    else body.thinking = { type: 'adaptive', ...display };
  }
  const effort = thinking?.effort === 'minimal' ? undefined : thinking?.effort;
  if (effort !== undefined || responseSchema !== undefined) {
    body.output_config = {
      ...(effort === undefined ? {} : { effort }),
      ...(responseSchema === undefined ? {} : { format: { type: 'json_schema', schema: responseSchema } }),
    };
  }
}

/** The built-in tools as server tools (`{ type, ...settings }`); another provider's are refused. */
export function toAnthropicServerTools(
  tools: readonly BuiltInTool[] | undefined,
  model?: string,
): AnthropicServerTool[] {
  refuseForeignBuiltIns(API, 'anthropic', tools, model);
  return (tools ?? []).map((tool) => ({ ...tool.settings, type: tool.type }));
}
