import type { FunctionCall, FunctionResponse, Part } from '../../contracts/content.js';
import type { LlmRequest, Message, ToolDeclaration } from '../../contracts/request.js';
import { withDeferredToolsLoaded } from '../../engine/tools/deferred-tools.js';
import { providerOptionsOf } from '../shared/refuse-config.js';
import { applyOpenAIBuiltIns, applyOpenAIConfig, imageDetail } from './openai-config.js';
import type { OpenAIContentPart, OpenAIMessage, OpenAIRequestBody, OpenAITool, OpenAIToolCall } from './openai-wire.js';

export type OpenAIRequestOptions = {
  /** The model id sent: the adapter's, not `request.config.model`. */
  model: string;
  /** OpenAI's name for the output limit, or the older one most compatible servers (Ollama, llama.cpp) know. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
};

/**
 * The Chat Completions body for a request. `topK` is not sent: Chat Completions has no such parameter and OpenAI
 * refuses unknown ones. `providerOptions.openai` goes over the body as given.
 */
export function toOpenAIRequest(given: LlmRequest, options: OpenAIRequestOptions): OpenAIRequestBody {
  // Chat Completions cannot hold definitions back: loaded deferred ones go as ordinary tools.
  const request = withDeferredToolsLoaded(given);
  const { config } = request;
  const messages: OpenAIMessage[] = request.system === '' ? [] : [{ role: 'system', content: request.system }];
  messages.push(...toOpenAIMessages(request.messages, imageDetail(config)));
  const body: OpenAIRequestBody = { model: options.model, messages };
  // OpenAI refuses an empty tools list.
  if (request.tools.length > 0) body.tools = request.tools.map(toOpenAITool);
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) body[options.maxTokensField] = config.maxOutputTokens;
  if (config.stopSequences !== undefined && config.stopSequences.length > 0) body.stop = [...config.stopSequences];
  applyOpenAIConfig(body, config);
  applyOpenAIBuiltIns(body, request.builtInTools);
  return { ...body, ...providerOptionsOf(config, 'openai') };
}

export function toOpenAITool(tool: ToolDeclaration): OpenAITool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    },
  };
}

/** The id given to a call that has none: stable for the same history, so a call and its answer always agree. */
export function generatedCallId(message: number, part: number): string {
  return `call_${message}_${part}`;
}

/** A call of the history not answered yet, for pairing responses that carry no id. */
export type OpenCall = { id: string; name: string };

/**
 * The conversation as Chat Completions messages. Calls and responses pair by id: calls without one get
 * `call_<message>_<part>`, and a response without one answers the oldest unanswered call of the same name.
 * Thoughts are not sent.
 */
export function toOpenAIMessages(messages: readonly Message[], detail?: 'low' | 'high'): OpenAIMessage[] {
  const open: OpenCall[] = [];
  const out: OpenAIMessage[] = [];
  messages.forEach((message, m) => {
    const calls: OpenAIToolCall[] = [];
    const answers: OpenAIMessage[] = [];
    const rest: Part[] = [];
    message.content.forEach((part, p) => {
      if ('functionCall' in part) {
        const id = part.functionCall.id ?? generatedCallId(m, p);
        open.push({ id, name: part.functionCall.name });
        calls.push(toToolCall(part.functionCall, id));
      } else if ('functionResponse' in part) {
        answers.push(toToolMessage(part.functionResponse, answeredId(part.functionResponse, open, m, p)));
      } else if (!('text' in part && part.thought === true)) {
        rest.push(part);
      }
    });
    const fromModel = message.role === 'model';
    if (calls.length > 0 || (fromModel && rest.length > 0)) out.push(assistantMessage(fromModel ? rest : [], calls));
    // Tool messages must follow the assistant message that called; anything else the user said comes after them.
    out.push(...answers);
    if (!fromModel && rest.length > 0) out.push({ role: 'user', content: userContent(rest, detail) });
  });
  return out;
}

function toToolCall(call: FunctionCall, id: string): OpenAIToolCall {
  return { id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } };
}

function toToolMessage(response: FunctionResponse, id: string): OpenAIMessage {
  return { role: 'tool', tool_call_id: id, content: JSON.stringify(response.response ?? {}) };
}

/** The id a response answers: its own, else that of the oldest open call of its name (which it closes). */
export function answeredId(response: FunctionResponse, open: OpenCall[], message: number, part: number): string {
  const index = open.findIndex((call) =>
    response.id === undefined ? call.name === response.name : call.id === response.id,
  );
  const call = index === -1 ? undefined : open.splice(index, 1)[0];
  return response.id ?? call?.id ?? generatedCallId(message, part);
}

function assistantMessage(parts: readonly Part[], calls: OpenAIToolCall[]): OpenAIMessage {
  const text = joinAsText(parts);
  if (calls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: calls };
}

function userContent(parts: readonly Part[], detail: 'low' | 'high' | undefined): string | OpenAIContentPart[] {
  const image = (url: string): OpenAIContentPart => ({
    type: 'image_url',
    image_url: { url, ...(detail === undefined ? {} : { detail }) },
  });
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only !== undefined && 'text' in only) return only.text;
  return parts.map((part): OpenAIContentPart => {
    if ('inlineData' in part && IMAGE_TYPES.has(part.inlineData.mimeType)) {
      return image(`data:${part.inlineData.mimeType};base64,${part.inlineData.data}`);
    }
    if ('fileData' in part && isImageUrl(part.fileData)) return image(part.fileData.fileUri);
    return { type: 'text', text: 'text' in part ? part.text : describe(part) };
  });
}

/** Text parts run together (providers split one answer into several); anything else stands apart as a note. */
function joinAsText(parts: readonly Part[]): string {
  const pieces: string[] = [];
  let inText = false;
  for (const part of parts) {
    if ('text' in part && inText) pieces[pieces.length - 1] += part.text;
    else pieces.push('text' in part ? part.text : describe(part));
    inText = 'text' in part;
  }
  return pieces.join('\n\n');
}

// The image types Chat Completions (and Responses) accept.
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
]);

export function isImageUrl(file: { fileUri: string; mimeType?: string }): boolean {
  if (!/^https?:\/\//i.test(file.fileUri)) return false;
  if (file.mimeType !== undefined) return IMAGE_TYPES.has(file.mimeType);
  return /\.(png|jpe?g|gif|webp)(\?|#|$)/i.test(file.fileUri);
}

/** Parts Chat Completions cannot carry, as text: code and its result in full, data as a note that it was left out. */
export function describe(part: Part): string {
  if ('executableCode' in part)
    return `\`\`\`${part.executableCode.language.toLowerCase()}\n${part.executableCode.code}\n\`\`\``;
  if ('codeExecutionResult' in part) {
    const { outcome, output } = part.codeExecutionResult;
    return `Code execution result (${outcome})${output === undefined ? '' : `:\n${output}`}`;
  }
  if ('inlineData' in part) return leftOut(part.inlineData.displayName ?? 'inline data', part.inlineData.mimeType);
  if ('fileData' in part) return leftOut(part.fileData.displayName ?? part.fileData.fileUri, part.fileData.mimeType);
  return '';
}

function leftOut(name: string, mimeType: string | undefined): string {
  return `[${name}${mimeType === undefined ? '' : ` (${mimeType})`} left out: this model API takes only text and images]`;
}
