import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import { withRetrySetting } from '../shared/retry.js';
import { fromResponsesResponse } from './from-responses-response.js';
import { checkOpenAIPromptCache, openAICacheFields } from './openai-prompt-cache.js';
import { openAIClientConfig, openAIConnection, type OpenAIClient, type OpenAIModelSettings } from './openai-model.js';
import { isOpenAIReasoningModel } from './reasoning-models.js';
import { createResponsesStreamAssembler } from './responses-stream.js';
import type { ResponsesRequestBody, ResponsesResponse, ResponsesStreamEvent } from './responses-wire.js';
import { stampChain } from './responses-chain.js';
import { responsesChainAfter, toResponsesRequest } from './to-responses-request.js';

export type OpenAIResponsesModelSettings = OpenAIModelSettings & {
  /**
   * Whether the model reasons, so that its reasoning is asked for encrypted (`include: ["reasoning.encrypted_content"]`)
   * and sent back on the next call. Default: from the model's name (the o-series and the gpt-5 family, but not
   * `gpt-5-chat…`).
   */
  reasoning?: boolean | undefined;
  /**
   * `true`: OpenAI stores each response (`store: true`), and a request continues the last one with
   * `previous_response_id`, sending only what is new, as long as the history before it is unchanged; a history
   * rewritten since (compaction, paging) starts a new chain with the whole conversation. Default `false`: nothing is
   * stored and every request carries the whole conversation.
   */
  store?: boolean | undefined;
};

// The SDK's tool types, reached through the one file that imports the SDK. Built-in tools go as the caller named
// them (`{ type, ...settings }`), which the SDK's closed union cannot know; the rest of the body is checked as it is.
type SdkTools = Parameters<OpenAIClient['responses']['create']>[0]['tools'];
const forSdk = (sent: ResponsesRequestBody) =>
  sent as Omit<ResponsesRequestBody, 'tools'> & { tools?: NonNullable<SdkTools> };

/**
 * An OpenAI model through the Responses API (`POST /v1/responses`), stateless by default: `store: false`, the whole
 * conversation sent with each call, and a reasoning model's reasoning asked for encrypted and sent back with the next
 * call (kept with its thought parts in the session, so it survives tool calls and restarts). `store: true` lets
 * OpenAI hold the conversation instead. Key, address and prompt caching as `createOpenAIModel`.
 */
export function createOpenAIResponsesModel(settings: OpenAIResponsesModelSettings): Model {
  const config = openAIClientConfig(settings);
  const promptCache = settings.promptCache ?? {};
  checkOpenAIPromptCache(promptCache);
  const connection = openAIConnection(config);
  const encryptedReasoning = settings.reasoning ?? isOpenAIReasoningModel(config.modelId);
  const stored = settings.store === true;
  const body = (request: LlmRequest, options: ModelCallOptions | undefined): ResponsesRequestBody => ({
    ...toResponsesRequest(request, { model: config.modelId, encryptedReasoning, stored }),
    ...openAICacheFields(promptCache, options),
  });
  // A stored answer's last part says which response it was and what OpenAI holds with it, for the next request.
  const chained = (request: LlmRequest, answer: ModelResponse): ModelResponse => {
    const responseId = answer.providerMetadata?.['openai']?.['responseId'];
    if (!stored || answer.content === undefined || typeof responseId !== 'string') return answer;
    const stamp = responsesChainAfter(request, answer.content.parts, responseId);
    return { ...answer, content: { ...answer.content, parts: stampChain(answer.content.parts, stamp) } };
  };
  return withRetrySetting(
    withoutSecrets(
      {
        specificationVersion: 'v1',
        provider: 'openai',
        modelId: config.modelId,
        pairsCallsById: true,
        async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
          const signal = options?.signal;
          // Mapped outside the call's error handling: a request the adapter refuses fails with its own error, unsent.
          const sent = body(request, options);
          const wire = connection.tap(options);
          const client = await connection.client(wire);
          let usage: unknown;
          try {
            // Read loosely: the SDK's item types are a closed union, and servers add kinds of their own.
            const response = (await client.responses.create(forSdk(sent), { signal })) as ResponsesResponse;
            usage = response.usage;
            return chained(request, fromResponsesResponse(response));
          } catch (error) {
            throw connection.failure(error, signal);
          } finally {
            wire?.answered(usage);
          }
        },
        async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
          const signal = options?.signal;
          const assembler = createResponsesStreamAssembler('openai');
          const sent = body(request, options);
          const wire = connection.tap(options);
          const client = await connection.client(wire);
          let answer: ModelResponse;
          try {
            const stream = await client.responses.create({ ...forSdk(sent), stream: true }, { signal });
            for await (const event of stream) {
              const text = assembler.add(event as ResponsesStreamEvent);
              if (text !== '') yield { content: { role: 'model', parts: [{ text }] }, partial: true };
            }
            // The SDK ends an aborted stream quietly; what was read so far is not the whole answer.
            signal?.throwIfAborted();
            answer = chained(request, assembler.finish());
          } catch (error) {
            throw connection.failure(error, signal);
          } finally {
            wire?.answered(assembler.usage());
          }
          yield { ...answer, partial: false };
        },
      },
      [config.apiKey],
    ),
    settings.retry,
  );
}
