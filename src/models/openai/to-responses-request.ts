import type { Part, TextPart } from '../../contracts/content.js';
import type { LlmRequest, Message, ToolDeclaration } from '../../contracts/request.js';
import { withDeferredToolsLoaded } from '../../engine/tools/deferred-tools.js';
import { providerOptionsOf } from '../shared/refuse-config.js';
import { openAIReasoning } from './reasoning-part.js';
import { chainHash, chainLink, type ChainStamp } from './responses-chain.js';
import { applyResponsesConfig, responsesBuiltIns, responsesImageDetail } from './responses-config.js';
import type {
  ResponsesFunctionTool,
  ResponsesInputContent,
  ResponsesInputItem,
  ResponsesReasoningItem,
  ResponsesRequestBody,
} from './responses-wire.js';
import { isStrictCompatible } from './strict-schema.js';
import { answeredId, describe, generatedCallId, IMAGE_TYPES, isImageUrl, type OpenCall } from './to-openai-request.js';

export type ResponsesRequestOptions = {
  /** The model id sent: the adapter's, not `request.config.model`. */
  model: string;
  /** Ask for the model's reasoning encrypted (`include`), to send it back on the next call: reasoning models only. */
  encryptedReasoning: boolean;
  /**
   * OpenAI stores the responses (`store: true`): the request continues the last response of the history with
   * `previous_response_id` when the history before it is unchanged (`responses-chain.ts`), and reasoning items may
   * go back by id alone. Default false.
   */
  stored?: boolean | undefined;
};

/**
 * The Responses body for a request: stateless (`store: false`) unless `stored`, so the whole conversation goes as
 * `input` every time, with the model's earlier reasoning items sent back encrypted as they came; when `stored`, a
 * request whose history OpenAI holds up to its last answer continues it (`previous_response_id`) with only what is
 * new. `providerOptions.openai` goes over the body as given.
 */
export function toResponsesRequest(given: LlmRequest, options: ResponsesRequestOptions): ResponsesRequestBody {
  // Deferred definitions cannot be held back here either: loaded ones go as ordinary tools.
  const request = withDeferredToolsLoaded(given);
  const { config } = request;
  const stored = options.stored === true;
  const detail = responsesImageDetail(config);
  const input = toResponsesInput(request.messages, detail, stored);
  const link = stored ? chainLink(request.messages, (prefix) => toResponsesInput(prefix, detail, true)) : undefined;
  // OpenAI holds the items up to the linked response: only those after it are sent (and something always is).
  const continued = link !== undefined && link.items < input.length ? link : undefined;
  const body: ResponsesRequestBody = {
    model: options.model,
    ...(request.system === '' ? {} : { instructions: request.system }),
    input: continued === undefined ? input : input.slice(continued.items),
    store: stored,
    ...(continued === undefined ? {} : { previous_response_id: continued.responseId }),
  };
  const tools = [...request.tools.map(toResponsesTool), ...responsesBuiltIns(request.builtInTools, options.model)];
  // OpenAI refuses an empty tools list.
  if (tools.length > 0) body.tools = tools;
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) body.max_output_tokens = config.maxOutputTokens;
  applyResponsesConfig(body, config);
  if (options.encryptedReasoning) body.include = ['reasoning.encrypted_content'];
  return { ...body, ...providerOptionsOf(config, 'openai') };
}

/**
 * The chain stamp of an answer to this request when OpenAI stores it (see `responses-chain.ts`): the hash of the
 * history and the answer as input items.
 */
export function responsesChainAfter(request: LlmRequest, answer: readonly Part[], responseId: string): ChainStamp {
  const messages: Message[] = [...request.messages, { role: 'model', content: [...answer] }];
  const items = toResponsesInput(messages, responsesImageDetail(request.config), true);
  return { responseId, chain: chainHash(items) };
}

/** Responses makes function tools strict unless told otherwise: `strict` is said each time, true when the schema allows. */
export function toResponsesTool(tool: ToolDeclaration): ResponsesFunctionTool {
  const parameters = tool.parameters ?? { type: 'object', properties: {} };
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters,
    strict: isStrictCompatible(parameters),
  };
}

/**
 * The conversation as input items, each message's in the order of its parts: the model's reasoning (only what OpenAI
 * gave with its encrypted content, since it refuses anything else when nothing is stored; by id alone too when
 * `stored`), text and calls; then the function outputs, then anything else the user said. Calls and outputs pair by id as on Chat Completions
 * (`call_<message>_<part>` for calls without one); thoughts of other providers are not sent.
 */
export function toResponsesInput(
  messages: readonly Message[],
  detail: 'low' | 'high' | 'auto' = 'auto',
  stored = false,
): ResponsesInputItem[] {
  const open: OpenCall[] = [];
  const out: ResponsesInputItem[] = [];
  messages.forEach((message, m) => {
    const fromModel = message.role === 'model';
    const said = modelSaid(stored);
    const outputs: ResponsesInputItem[] = [];
    const rest: Part[] = [];
    message.content.forEach((part, p) => {
      if ('functionCall' in part) {
        const call = part.functionCall;
        const id = call.id ?? generatedCallId(m, p);
        open.push({ id, name: call.name });
        said.add({ type: 'function_call', call_id: id, name: call.name, arguments: JSON.stringify(call.args ?? {}) });
      } else if ('functionResponse' in part) {
        const response = part.functionResponse;
        outputs.push({
          type: 'function_call_output',
          call_id: answeredId(response, open, m, p),
          output: JSON.stringify(response.response ?? {}),
        });
      } else if ('text' in part && part.thought === true) {
        if (fromModel) said.reason(part);
      } else if (fromModel) said.write(part);
      else rest.push(part);
    });
    out.push(...said.items(), ...outputs);
    if (rest.length > 0) out.push({ role: 'user', content: userContent(rest, detail) });
  });
  return out;
}

/**
 * A model turn's items as its parts come: text parts run together into one message until a call or reasoning.
 * `stored`: OpenAI keeps the items, so reasoning without its encrypted content may go back by its id.
 */
function modelSaid(stored: boolean) {
  const items: ResponsesInputItem[] = [];
  let text: string[] = [];
  let inText = false;
  const flush = () => {
    if (text.length > 0) items.push({ role: 'assistant', content: text.join('\n\n') });
    text = [];
    inText = false;
  };
  return {
    add(item: ResponsesInputItem) {
      flush();
      items.push(item);
    },
    write(part: Part) {
      // Providers split one answer into several text parts; anything else stands apart as a note.
      const piece = 'text' in part ? part.text : describe(part);
      if ('text' in part && inText) text[text.length - 1] += piece;
      else if (piece !== '') text.push(piece);
      inText = 'text' in part && piece !== '';
    },
    reason(part: TextPart) {
      const reasoning = openAIReasoning(part);
      if (reasoning === undefined) return;
      // A reasoning item with several summaries came as several thought parts sharing its id: they join again.
      const last = items.at(-1);
      const same = last !== undefined && 'type' in last && last.type === 'reasoning' && last.id === reasoning.itemId;
      if (same && text.length === 0) {
        if (part.text !== '') last.summary.push({ type: 'summary_text', text: part.text });
        return;
      }
      if (reasoning.encryptedContent === undefined && !stored) return;
      flush();
      const item: ResponsesReasoningItem = {
        type: 'reasoning',
        id: reasoning.itemId,
        ...(reasoning.encryptedContent === undefined ? {} : { encrypted_content: reasoning.encryptedContent }),
        summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
      };
      items.push(item);
    },
    items(): ResponsesInputItem[] {
      flush();
      return items;
    },
  };
}

function userContent(parts: readonly Part[], detail: 'low' | 'high' | 'auto'): string | ResponsesInputContent[] {
  const image = (url: string): ResponsesInputContent => ({ type: 'input_image', image_url: url, detail });
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only !== undefined && 'text' in only) return only.text;
  return parts.map((part): ResponsesInputContent => {
    if ('inlineData' in part && IMAGE_TYPES.has(part.inlineData.mimeType))
      return image(`data:${part.inlineData.mimeType};base64,${part.inlineData.data}`);
    if ('fileData' in part && isImageUrl(part.fileData)) return image(part.fileData.fileUri);
    return { type: 'input_text', text: 'text' in part ? part.text : describe(part) };
  });
}
