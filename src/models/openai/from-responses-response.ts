import type { Part } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { ModelResponse } from '../../contracts/model.js';
import { parseToolArguments } from './from-openai-response.js';
import { reasoningParts } from './reasoning-part.js';
import type { ResponsesOutputItem, ResponsesResponse, ResponsesUsage } from './responses-wire.js';

/**
 * A response as a model response, its output items in their order (text is not assumed to come first): reasoning as
 * thought parts carrying the item for the next call, message text, refusals as text, function calls. Items of the
 * tools OpenAI runs itself (`web_search_call`…) are not parts: what they found is in the message that follows.
 * `items` replaces the response's own output when a stream's items were gathered one by one.
 */
export function fromResponsesResponse(
  response: ResponsesResponse,
  items: readonly ResponsesOutputItem[] = response.output ?? [],
): ModelResponse {
  const usage = fromResponsesUsage(response.usage);
  const withUsage = usage === undefined ? {} : { usage };
  const metadata =
    typeof response.id === 'string' && response.id !== ''
      ? { providerMetadata: { openai: { responseId: response.id } } }
      : {};
  const parts = items.flatMap(toParts);
  const finishReason = finishReasonOf(response);
  const finish = finishReason === undefined ? {} : { finishReason };
  if (response.status === 'failed') {
    const code = response.error?.code ?? 'failed';
    const message = response.error?.message ?? 'The response failed.';
    return { errorCode: code, errorMessage: message, ...finish, ...withUsage, ...metadata };
  }
  // An answer cut short before it said anything is an error rather than silence (as ADK does).
  if (!parts.some((part) => !('thought' in part && part.thought === true)) && response.status === 'incomplete')
    return {
      errorCode: finishReason ?? 'incomplete',
      errorMessage: `The model returned no content (finish reason: ${finishReason ?? 'incomplete'}).`,
      ...finish,
      ...withUsage,
      ...metadata,
    };
  return { content: { role: 'model', parts }, ...finish, ...withUsage, ...metadata };
}

function toParts(item: ResponsesOutputItem): Part[] {
  switch (item.type) {
    case 'reasoning': {
      const summaries = (item.summary ?? []).flatMap((summary) =>
        typeof summary.text === 'string' && summary.text !== '' ? [summary.text] : [],
      );
      if (typeof item.id !== 'string' || item.id === '') return summaries.map((text) => ({ text, thought: true }));
      return reasoningParts(item.id, item.encrypted_content ?? undefined, summaries);
    }
    case 'message':
      return (item.content ?? []).flatMap((content): Part[] => {
        const text = content.type === 'refusal' ? content.refusal : content.text;
        return typeof text === 'string' && text !== '' ? [{ text }] : [];
      });
    case 'function_call':
      return [
        {
          functionCall: {
            ...(typeof item.call_id === 'string' && item.call_id !== '' ? { id: item.call_id } : {}),
            name: item.name ?? '',
            args: parseToolArguments(item.arguments ?? ''),
          },
        },
      ];
    default:
      return [];
  }
}

/** `completed`, or why the response is incomplete (`max_output_tokens`, `content_filter`), or `failed`. */
function finishReasonOf(response: ResponsesResponse): string | undefined {
  if (response.status === 'incomplete') return response.incomplete_details?.reason ?? 'incomplete';
  return typeof response.status === 'string' && response.status !== '' ? response.status : undefined;
}

/**
 * Responses usage as agentctx counts it; only the counts the provider gave. The counts nest the way `Usage` does:
 * cached (and cache-written) tokens are part of `input_tokens`, reasoning tokens part of `output_tokens`.
 */
export function fromResponsesUsage(usage: ResponsesUsage | null | undefined): Usage | undefined {
  if (usage == null) return undefined;
  const result: Usage = {};
  if (typeof usage.input_tokens === 'number') result.promptTokens = usage.input_tokens;
  if (typeof usage.output_tokens === 'number') result.outputTokens = usage.output_tokens;
  const cached = usage.input_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cachedTokens = cached;
  const written = usage.input_tokens_details?.cache_write_tokens;
  if (typeof written === 'number' && written > 0) result.cacheWriteTokens = written;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  if (typeof usage.total_tokens === 'number') result.totalTokens = usage.total_tokens;
  return Object.keys(result).length === 0 ? undefined : result;
}
