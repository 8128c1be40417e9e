import type { JSONValue } from '@ai-sdk/provider';
import type { Part, ProviderMetadata } from '../../contracts/content.js';
import type { StablePrefix } from '../../contracts/model.js';
import type { LlmRequest, Message } from '../../contracts/request.js';
import { refuseRequest } from '../shared/refuse-config.js';
import { toAiSdkSettings } from './ai-sdk-config.js';
import type { AiSdkCall, AiSdkMessage, AiSdkProviderOptions, SpecVersion } from './ai-sdk-spec.js';

export type AiSdkCallMapping = {
  /** Names the API in refusals: `mistral.chat through the AI SDK`. */
  api: string;
  version: SpecVersion;
  /** Options that mark a prompt-cache breakpoint for the provider, put where the stable prefix ends. */
  cacheBreakpoint?: AiSdkProviderOptions | undefined;
  stablePrefix?: StablePrefix | undefined;
};

type UserPart = Extract<AiSdkMessage, { role: 'user' }>['content'][number];
type AssistantPart = Extract<AiSdkMessage, { role: 'assistant' }>['content'][number];
type ToolResultPart = Extract<AiSdkMessage, { role: 'tool' }>['content'][number];

/**
 * A request as the AI SDK's call options: the system text as a system message, each message as user, assistant and
 * tool messages (a message's function responses become a tool message of their own, in their place), the tools,
 * the config's settings. A part's `providerMetadata` goes back as its `providerOptions`, which is how the AI SDK's
 * providers take back what they gave (a reasoning part's signature). Built in the newest version's shape;
 * `forVersion` adapts it.
 */
export function toAiSdkCall(request: LlmRequest, mapping: AiSdkCallMapping): AiSdkCall {
  const { api } = mapping;
  if (request.builtInTools !== undefined && request.builtInTools.length > 0)
    refuseRequest(api, 'builtInTools[0]', "the bridge sends function tools only; a provider's own tools are not sent");
  const converted = request.messages.map((message, index) => toMessages(message, index, api));
  const stable = stableEnd(request, mapping.stablePrefix);
  const mark = mapping.cacheBreakpoint;
  const system: AiSdkMessage[] =
    request.system === ''
      ? []
      : [
          {
            role: 'system',
            content: request.system,
            ...(mark !== undefined && stable.system ? { providerOptions: mark } : {}),
          },
        ];
  if (mark !== undefined && stable.messages > 0) {
    const last = converted[stable.messages - 1]?.at(-1);
    if (last !== undefined) last.providerOptions = mergeOptions(last.providerOptions, mark);
  }
  return {
    prompt: [...system, ...converted.flat()],
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: tool.name,
            description: tool.description,
            inputSchema: tool.parameters ?? { type: 'object', properties: {} },
          })),
        }),
    ...toAiSdkSettings(api, request.config, mapping.version),
  };
}

/**
 * The call in the shape of `version`. Versions 2 and 3 take a file's data bare (base64 text or a URL) where version
 * 4 wraps it; everything else the bridge sends is the same in all three.
 */
export function forVersion(call: AiSdkCall, version: SpecVersion): AiSdkCall {
  if (version === 'v4') return call;
  const unwrap = <P extends { type: string }>(part: P): P =>
    part.type === 'file' ? { ...part, data: bareData((part as unknown as { data: FileData }).data) } : part;
  const prompt = call.prompt.map((message) =>
    message.role === 'system' || message.role === 'tool'
      ? message
      : ({ ...message, content: (message.content as { type: string }[]).map(unwrap) } as AiSdkMessage),
  );
  // The cast is the one place the older shape is given where the newest one is typed.
  return { ...call, prompt } as AiSdkCall;
}

type FileData = { type: 'data'; data: string } | { type: 'url'; url: URL };

function bareData(data: FileData): string | URL {
  return data.type === 'data' ? data.data : data.url;
}

/** Where the stable prefix ends: whether the system text is all stable, and how many messages are. */
function stableEnd(request: LlmRequest, prefix: StablePrefix | undefined): { system: boolean; messages: number } {
  if (prefix === undefined) return { system: true, messages: request.messages.length };
  // A breakpoint caches everything before it, so none goes after a system text that changes from call to call.
  const system = prefix.systemChars >= request.system.length;
  return { system, messages: system ? Math.min(prefix.messages, request.messages.length) : 0 };
}

function mergeOptions(given: AiSdkProviderOptions | undefined, mark: AiSdkProviderOptions): AiSdkProviderOptions {
  const merged: AiSdkProviderOptions = { ...given };
  for (const [provider, options] of Object.entries(mark)) merged[provider] = { ...merged[provider], ...options };
  return merged;
}

function optionsOf(metadata: ProviderMetadata | undefined): { providerOptions?: AiSdkProviderOptions } {
  return metadata === undefined ? {} : { providerOptions: metadata as AiSdkProviderOptions };
}

/** One message as AI SDK messages: function responses make tool messages, the other parts user or assistant ones. */
function toMessages(message: Message, index: number, api: string): AiSdkMessage[] {
  const messages: AiSdkMessage[] = [];
  const path = (part: number) => `messages[${index}].content[${part}]`;
  message.content.forEach((part, partIndex) => {
    if ('functionResponse' in part) {
      if (message.role !== 'user') refuseRequest(api, path(partIndex), 'a function response comes from the user side');
      const { id, name, response } = part.functionResponse;
      const result: ToolResultPart = {
        type: 'tool-result',
        toolCallId: id ?? '',
        toolName: name,
        output: { type: 'json', value: (response ?? {}) as JSONValue },
      };
      const last = messages.at(-1);
      if (last?.role === 'tool') last.content.push(result);
      else messages.push({ role: 'tool', content: [result] });
      return;
    }
    const converted =
      message.role === 'user' ? toUserPart(part, api, path(partIndex)) : toAssistantPart(part, api, path(partIndex));
    const role = message.role === 'user' ? 'user' : 'assistant';
    const last = messages.at(-1);
    if (last?.role === role) (last.content as (UserPart | AssistantPart)[]).push(converted);
    else messages.push({ role, content: [converted] } as AiSdkMessage);
  });
  return messages;
}

function toUserPart(part: Part, api: string, path: string): UserPart {
  if ('text' in part && part.thought !== true)
    return { type: 'text', text: part.text, ...optionsOf(part.providerMetadata) };
  const file = toFilePart(part, api, path);
  if (file !== undefined) return file;
  return refuseRequest(api, path, `a user message cannot carry ${kindOf(part)} through the AI SDK`);
}

function toAssistantPart(part: Part, api: string, path: string): AssistantPart {
  if ('text' in part)
    return { type: part.thought === true ? 'reasoning' : 'text', text: part.text, ...optionsOf(part.providerMetadata) };
  if ('functionCall' in part) {
    const { id, name, args } = part.functionCall;
    return {
      type: 'tool-call',
      toolCallId: id ?? '',
      toolName: name,
      input: args ?? {},
      ...optionsOf(part.providerMetadata),
    };
  }
  const file = toFilePart(part, api, path);
  if (file !== undefined) return file;
  return refuseRequest(api, path, `a model message cannot carry ${kindOf(part)} through the AI SDK`);
}

function toFilePart(part: Part, api: string, path: string): Extract<UserPart, { type: 'file' }> | undefined {
  if ('inlineData' in part) {
    const { mimeType, data, displayName } = part.inlineData;
    return {
      type: 'file',
      mediaType: mimeType,
      data: { type: 'data', data },
      ...(displayName === undefined ? {} : { filename: displayName }),
    };
  }
  if ('fileData' in part) {
    const { fileUri, mimeType, displayName } = part.fileData;
    return {
      type: 'file',
      mediaType: mimeType ?? 'application/octet-stream',
      data: { type: 'url', url: urlOf(fileUri, api, path) },
      ...(displayName === undefined ? {} : { filename: displayName }),
    };
  }
  return undefined;
}

function kindOf(part: Part): string {
  if ('text' in part) return 'a thought';
  if ('functionCall' in part) return 'a function call';
  if ('executableCode' in part) return 'executable code';
  if ('codeExecutionResult' in part) return 'a code execution result';
  return 'this part';
}

// A file the AI SDK fetches or passes on is given by URL; a provider's own file name (Gemini's `files/…`) is none.
function urlOf(uri: string, api: string, path: string): URL {
  if (URL.canParse(uri)) return new URL(uri);
  return refuseRequest(api, `${path}.fileData.fileUri`, `'${uri}' is not a URL, which is how the AI SDK takes a file`);
}
