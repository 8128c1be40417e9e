import type { BuiltInTool, RequestConfig } from '../../contracts/request.js';
import { refuseConfig, refuseFields, refuseForeignBuiltIns } from '../shared/refuse-config.js';
import type { ResponsesBuiltInTool, ResponsesRequestBody } from './responses-wire.js';
import { isStrictCompatible } from './strict-schema.js';

const API = 'Responses API';

/**
 * Writes the config's fields that the Responses API has onto `body`, after refusing the ones it has not. `topK` is
 * not sent, as on Chat Completions (documented: OpenAI has no such parameter).
 */
export function applyResponsesConfig(body: ResponsesRequestBody, config: RequestConfig): void {
  refuseFields(API, config, {
    safetySettings: 'the Responses API has no safety settings (OpenAI moderates on its own)',
    seed: 'the Responses API has no seed',
    presencePenalty: 'the Responses API has no presence penalty',
    frequencyPenalty: 'the Responses API has no frequency penalty',
    candidateCount: 'the Responses API gives one answer per request',
  });
  if (config.stopSequences !== undefined && config.stopSequences.length > 0)
    refuseConfig(API, 'stopSequences', 'the Responses API has no stop sequences');
  const { responseSchema, responseMimeType, toolChoice, thinking } = config;
  if (responseSchema !== undefined) {
    if (responseMimeType !== undefined && responseMimeType !== 'application/json')
      refuseConfig(API, 'responseMimeType', `a schema's answer is JSON; got ${responseMimeType}`);
    body.text = {
      format: {
        type: 'json_schema',
        name: 'response',
        schema: responseSchema,
        ...(isStrictCompatible(responseSchema) ? { strict: true } : {}),
      },
    };
  } else if (responseMimeType === 'application/json') body.text = { format: { type: 'json_object' } };
  else if (responseMimeType !== undefined && responseMimeType !== 'text/plain')
    refuseConfig(API, 'responseMimeType', `answers are text or JSON; got ${responseMimeType}`);
  if (toolChoice !== undefined)
    body.tool_choice = typeof toolChoice === 'string' ? toolChoice : { type: 'function', name: toolChoice.name };
  if (thinking?.budgetTokens !== undefined)
    refuseConfig(
      API,
      'thinking.budgetTokens',
      'reasoning is set by effort, not by a token budget; use thinking.effort',
    );
  // Summaries are asked for only when thoughts are: OpenAI refuses them to organizations it has not verified.
  const summary = thinking?.includeThoughts === true;
  if (thinking?.effort !== undefined || summary)
    body.reasoning = {
      ...(thinking?.effort === undefined ? {} : { effort: thinking.effort }),
      ...(summary ? { summary: 'auto' } : {}),
    };
  if (config.labels !== undefined) body.metadata = { ...config.labels };
}

/** The `detail` of every image sent, from `mediaResolution` (`auto` without one); there is no medium level. */
export function responsesImageDetail(config: RequestConfig): 'low' | 'high' | 'auto' {
  const resolution = config.mediaResolution;
  if (resolution === 'medium')
    refuseConfig(API, 'mediaResolution', "images are read at 'low' or 'high' detail; there is no medium");
  return resolution ?? 'auto';
}

/** OpenAI's built-in tools (`web_search`, `file_search`, `code_interpreter`…), each sent as `{ type, ...settings }`. */
export function responsesBuiltIns(tools: readonly BuiltInTool[] | undefined, model: string): ResponsesBuiltInTool[] {
  refuseForeignBuiltIns(API, 'openai', tools, model);
  return (tools ?? []).map((tool) => ({ type: tool.type, ...tool.settings }));
}
