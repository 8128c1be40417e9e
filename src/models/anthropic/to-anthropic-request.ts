import type { FileDataPart, InlineDataPart, Part } from '../../contracts/content.js';
import type { StablePrefix } from '../../contracts/model.js';
import type { JsonSchema, LlmRequest, Message, ToolDeclaration } from '../../contracts/request.js';
import { loadedNames, withDeferredToolsLoaded } from '../../engine/tools/deferred-tools.js';
import { placeCacheControl, type AnthropicCacheSetting } from './anthropic-cache-control.js';
import { providerOptionsOf } from '../shared/refuse-config.js';
import { applyAnthropicConfig, toAnthropicServerTools } from './anthropic-config.js';
import type {
  AnthropicBlock,
  AnthropicCountTokensBody,
  AnthropicImageType,
  AnthropicMessage,
  AnthropicRequestBody,
  AnthropicServerTool,
  AnthropicTool,
  AnthropicToolReference,
} from './anthropic-wire.js';

export type ToAnthropicOptions = {
  /** The model id sent; the adapter's, not `config.model`. */
  model: string;
  /** `max_tokens` when the request's config has no `maxOutputTokens`; the API requires one. Default 4096. */
  maxTokens?: number | undefined;
  /** Prompt caching: where breakpoints go, or none when absent or `false`. */
  cache?: AnthropicCacheSetting | false | undefined;
  /** Where the request's stable prefix ends; without it the whole request counts as stable. */
  stablePrefix?: StablePrefix | undefined;
};

export const DEFAULT_MAX_TOKENS = 4096;

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * The request as a Messages API body. `temperature`, `topP` and `topK` are not sent: API version 2026-10-21, which
 * SDK 1.x speaks, answers 400 to any of them (even at their defaults), and the SDK no longer declares them.
 * `config.model` is ignored; the adapter's model id is sent.
 */
export function toAnthropicRequest(request: LlmRequest, options: ToAnthropicOptions): AnthropicRequestBody {
  const origins: number[][] = [];
  const { system, tools, messages } = toAnthropicInput(request, options.model, origins);
  const stop = request.config.stopSequences ?? [];
  const body: AnthropicRequestBody = {
    model: options.model,
    max_tokens: request.config.maxOutputTokens ?? options.maxTokens ?? DEFAULT_MAX_TOKENS,
    ...(system === undefined ? {} : { system }),
    ...(tools === undefined ? {} : { tools }),
    messages,
    ...(stop.length === 0 ? {} : { stop_sequences: stop.slice() }),
  };
  applyAnthropicConfig(body, request.config);
  const extra = providerOptionsOf(request.config, 'anthropic');
  if (options.cache === undefined || options.cache === false) return { ...body, ...extra };
  const prefix = options.stablePrefix ?? { systemChars: request.system.length, messages: request.messages.length };
  return {
    ...placeCacheControl(body, {
      system: request.system,
      messageCount: request.messages.length,
      prefix,
      origins,
      setting: options.cache,
    }),
    ...extra,
  };
}

/** The body the count-tokens endpoint takes for the same request. */
export function toAnthropicCountTokensBody(request: LlmRequest, model: string): AnthropicCountTokensBody {
  return { model, ...toAnthropicInput(request, model) };
}

function toAnthropicInput(
  given: LlmRequest,
  model: string,
  origins?: number[][],
): { system?: string; tools?: (AnthropicTool | AnthropicServerTool)[]; messages: AnthropicMessage[] } {
  // The API refuses a request whose every tool is deferred: such a request offers its loaded definitions in full.
  const request = given.tools.length === 0 ? withDeferredToolsLoaded(given) : given;
  const deferred = deferredDefinitions(request);
  const tools = [
    ...request.tools.map((tool) => toAnthropicTool(tool)),
    ...[...deferred.values()].map((tool) => toAnthropicTool(tool, true)),
    ...toAnthropicServerTools(request.builtInTools, model),
  ];
  return {
    ...(request.system === '' ? {} : { system: request.system }),
    ...(tools.length === 0 ? {} : { tools }),
    messages: toAnthropicMessages(
      request.messages,
      origins,
      deferred.size === 0
        ? undefined
        : { loader: (request.deferredTools as { loader: string }).loader, names: deferred, referenced: new Set() },
    ),
  };
}

function toAnthropicTool(tool: ToolDeclaration, deferLoading = false): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: inputSchema(tool.parameters),
    ...(deferLoading ? { defer_loading: true as const } : {}),
  };
}

// The deferred definitions sent after the tools, by name: one a tool of the request already has is not sent twice.
function deferredDefinitions(request: LlmRequest): Map<string, ToolDeclaration> {
  const offered = new Set(request.tools.map((tool) => tool.name));
  const deferred = new Map<string, ToolDeclaration>();
  for (const tool of request.deferredTools?.declarations ?? [])
    if (!offered.has(tool.name) && !deferred.has(tool.name)) deferred.set(tool.name, tool);
  return deferred;
}

/** The loader whose responses load deferred definitions, the definitions sent deferred, and those referenced so far. */
type Loading = { loader: string; names: ReadonlyMap<string, unknown>; referenced: Set<string> };

function inputSchema(parameters: JsonSchema | undefined): AnthropicTool['input_schema'] {
  // The API wants an object schema even for a tool without parameters.
  return parameters === undefined ? { type: 'object', properties: {} } : { ...parameters, type: 'object' };
}

/**
 * The messages as the API takes them: roles renamed, parts as blocks, call ids completed, messages that end up
 * empty left out and neighbours of the same role merged (the API wants alternating turns), and each user turn's
 * `tool_result` blocks placed first, as the API requires. `origins`, when given, receives for each block the index
 * of the message it came from (parallel to the result), so cache breakpoints can find where the stable ones end.
 */
export function toAnthropicMessages(
  messages: readonly Message[],
  origins?: number[][],
  loading?: Loading,
): AnthropicMessage[] {
  const ids = new CallIds();
  const merged: { role: AnthropicMessage['role']; content: { block: AnthropicBlock; origin: number }[] }[] = [];
  messages.forEach((message, messageIndex) => {
    const role = message.role === 'model' ? 'assistant' : 'user';
    const content = message.content
      .flatMap((part, partIndex) => toBlocks(part, role, ids, messageIndex, partIndex, loading))
      .map((block) => ({ block, origin: messageIndex }));
    if (content.length === 0) return;
    const last = merged.at(-1);
    if (last !== undefined && last.role === role) last.content.push(...content);
    else merged.push({ role, content });
  });
  return merged.map((message) => {
    const content =
      message.role === 'user'
        ? [
            ...message.content.filter((entry) => isToolResult(entry.block)),
            ...message.content.filter((entry) => !isToolResult(entry.block)),
          ]
        : message.content;
    origins?.push(content.map((entry) => entry.origin));
    return { role: message.role, content: content.map((entry) => entry.block) };
  });
}

function isToolResult(block: AnthropicBlock): boolean {
  return block.type === 'tool_result';
}

function toBlocks(
  part: Part,
  role: AnthropicMessage['role'],
  ids: CallIds,
  messageIndex: number,
  partIndex: number,
  loading: Loading | undefined,
): AnthropicBlock[] {
  if ('text' in part) {
    if (part.thought === true) {
      // Redacted thinking goes back as it came, in the assistant turn it came in (Anthropic checks it is unchanged).
      const redacted = part.providerMetadata?.['anthropic']?.['redactedThinking'];
      if (typeof redacted === 'string')
        return role === 'assistant' ? [{ type: 'redacted_thinking', data: redacted }] : [];
      // Anthropic rejects thinking it did not sign, and thinking only belongs in its own turns.
      return role === 'assistant' && part.thoughtSignature !== undefined && part.thoughtSignature !== ''
        ? [{ type: 'thinking', thinking: part.text, signature: part.thoughtSignature }]
        : [];
    }
    // Empty text blocks are rejected.
    return part.text === '' ? [] : [{ type: 'text', text: part.text }];
  }
  if ('functionCall' in part) {
    const { name, args } = part.functionCall;
    return [
      {
        type: 'tool_use',
        id: ids.forCall(part.functionCall.id, name, messageIndex, partIndex),
        name,
        input: args ?? {},
      },
    ];
  }
  if ('functionResponse' in part) {
    const { name, response } = part.functionResponse;
    const references = name === loading?.loader ? toolReferences(response, loading) : [];
    return [
      {
        type: 'tool_result',
        tool_use_id: ids.forResponse(part.functionResponse.id, name, messageIndex, partIndex),
        content: references.length > 0 ? references : JSON.stringify(response ?? {}),
      },
    ];
  }
  if ('inlineData' in part) return [inlineBlock(part, role)];
  if ('fileData' in part) return [fileBlock(part, role)];
  if ('executableCode' in part)
    return [{ type: 'text', text: `Code (${part.executableCode.language}):\n${part.executableCode.code}` }];
  return [
    {
      type: 'text',
      text: `Code result (${part.codeExecutionResult.outcome}):\n${part.codeExecutionResult.output ?? ''}`,
    },
  ];
}

// A loader's response that loads deferred definitions answers with references to them, which the API expands into
// the definitions in place (a custom tool search, as Anthropic documents it). A definition is referenced once, where
// it is first loaded; a response with nothing new to load goes as JSON text, as any other response does.
function toolReferences(response: Record<string, unknown> | undefined, loading: Loading): AnthropicToolReference[] {
  const fresh = loadedNames(response).filter((name) => loading.names.has(name) && !loading.referenced.has(name));
  for (const name of fresh) loading.referenced.add(name);
  return fresh.map((name) => ({ type: 'tool_reference', tool_name: name }));
}

// Images and documents are taken in user turns only (2026-10-21 rejects documents in assistant turns).
function inlineBlock(part: InlineDataPart, role: AnthropicMessage['role']): AnthropicBlock {
  const { mimeType, data } = part.inlineData;
  if (role === 'user' && isImageType(mimeType))
    return { type: 'image', source: { type: 'base64', media_type: mimeType, data } };
  if (role === 'user' && mimeType === 'application/pdf')
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } };
  return leftOut(part.inlineData.displayName, mimeType);
}

function fileBlock(part: FileDataPart, role: AnthropicMessage['role']): AnthropicBlock {
  const { fileUri, mimeType } = part.fileData;
  const web = /^https?:\/\//i.test(fileUri);
  if (role === 'user' && web && mimeType !== undefined && IMAGE_TYPES.has(mimeType))
    return { type: 'image', source: { type: 'url', url: fileUri } };
  if (role === 'user' && web && mimeType === 'application/pdf')
    return { type: 'document', source: { type: 'url', url: fileUri } };
  return leftOut(part.fileData.displayName ?? fileUri, mimeType);
}

function isImageType(mimeType: string): mimeType is AnthropicImageType {
  return IMAGE_TYPES.has(mimeType);
}

function leftOut(name: string | undefined, mimeType: string | undefined): AnthropicBlock {
  const what = [name, mimeType === undefined ? undefined : `(${mimeType})`]
    .filter((piece) => piece !== undefined)
    .join(' ');
  return { type: 'text', text: `[${what === '' ? 'data' : what} left out: Anthropic does not take this data here]` };
}

/**
 * Ids for `tool_use`/`tool_result` pairs. The API pairs by id and takes only `[a-zA-Z0-9_-]`; calls without an id
 * (a Gemini history, where ids are hidden) get `toolu_<message>_<part>`, and a response without one takes the id of
 * the oldest unanswered id-less call of the same name, so pairs stay paired and the ids are the same on every call.
 */
class CallIds {
  private readonly waiting: { name: string; id: string }[] = [];

  forCall(id: string | undefined, name: string, messageIndex: number, partIndex: number): string {
    if (id !== undefined && id !== '') return safeId(id);
    const made = `toolu_${messageIndex}_${partIndex}`;
    this.waiting.push({ name, id: made });
    return made;
  }

  forResponse(id: string | undefined, name: string, messageIndex: number, partIndex: number): string {
    if (id !== undefined && id !== '') return safeId(id);
    const match = this.waiting.findIndex((call) => call.name === name);
    if (match === -1) return `toolu_${messageIndex}_${partIndex}`;
    const [call] = this.waiting.splice(match, 1);
    return call?.id ?? `toolu_${messageIndex}_${partIndex}`;
  }
}

function safeId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_');
}
