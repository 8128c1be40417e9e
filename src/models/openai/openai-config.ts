import type { BuiltInTool, RequestConfig } from '../../contracts/request.js';
import { refuseConfig, refuseFields, refuseForeignBuiltIns, refuseRequest } from '../shared/refuse-config.js';
import type { OpenAIRequestBody } from './openai-wire.js';
import { isStrictCompatible } from './strict-schema.js';

const API = 'Chat Completions';

/**
 * Writes the config's fields that Chat Completions has onto `body`, after refusing the ones it has not. `topK` is
 * not sent (documented: Chat Completions has no such parameter, and OpenAI refuses unknown ones).
 */
export function applyOpenAIConfig(body: OpenAIRequestBody, config: RequestConfig): void {
  refuseFields(API, config, {
    safetySettings: 'Chat Completions has no safety settings (OpenAI moderates on its own)',
  });
  const { responseSchema, responseMimeType, toolChoice, thinking } = config;
  if (responseSchema !== undefined) {
    if (responseMimeType !== undefined && responseMimeType !== 'application/json')
      refuseConfig(API, 'responseMimeType', `a schema's answer is JSON; got ${responseMimeType}`);
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: responseSchema,
        ...(isStrictCompatible(responseSchema) ? { strict: true } : {}),
      },
    };
  } else if (responseMimeType === 'application/json') body.response_format = { type: 'json_object' };
  else if (responseMimeType !== undefined && responseMimeType !== 'text/plain')
    refuseConfig(API, 'responseMimeType', `answers are text or JSON; got ${responseMimeType}`);
  if (toolChoice !== undefined)
    body.tool_choice =
      typeof toolChoice === 'string' ? toolChoice : { type: 'function', function: { name: toolChoice.name } };
  if (thinking?.budgetTokens !== undefined)
    refuseConfig(
      API,
      'thinking.budgetTokens',
      'reasoning is set by effort, not by a token budget; use thinking.effort',
    );
  if (thinking?.includeThoughts !== undefined)
    refuseConfig(API, 'thinking.includeThoughts', 'OpenAI does not return reasoning text on Chat Completions');
  if (thinking?.effort !== undefined) body.reasoning_effort = thinking.effort;
  if (config.labels !== undefined) body.metadata = { ...config.labels };
  if (config.seed !== undefined) body.seed = config.seed;
  if (config.presencePenalty !== undefined) body.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) body.frequency_penalty = config.frequencyPenalty;
  if (config.candidateCount !== undefined) body.n = config.candidateCount;
}

/** The `detail` of every image sent, from `mediaResolution`; Chat Completions has no medium level. */
export function imageDetail(config: RequestConfig): 'low' | 'high' | undefined {
  const resolution = config.mediaResolution;
  if (resolution === 'medium')
    refuseConfig(API, 'mediaResolution', "images are read at 'low' or 'high' detail; there is no medium");
  return resolution;
}

/** The one built-in tool Chat Completions has: `web_search`, sent as `web_search_options`. */
export function applyOpenAIBuiltIns(body: OpenAIRequestBody, tools: readonly BuiltInTool[] | undefined): void {
  refuseForeignBuiltIns(API, 'openai', tools, body.model);
  for (const [index, tool] of (tools ?? []).entries()) {
    if (tool.type !== 'web_search')
      refuseRequest(
        API,
        `builtInTools[${index}]`,
        `'${tool.type}' is not a Chat Completions tool (only web_search is)`,
      );
    body.web_search_options = { ...tool.settings };
  }
}
