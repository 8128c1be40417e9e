import type { Part } from '../contracts/content.js';
import type { ModelCallRecord } from '../contracts/model-call.js';
import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest, ToolDeclaration } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import { searchableText } from '../engine/assembly/find-in-request.js';
import { requestToJson } from '../engine/assembly/request-json.js';
import type { RequestTokenCount } from '../engine/tokens/count-request-tokens.js';

/** One system block as the page shows it: its text, where it sits in `system`, where it came from, its tokens. */
export type SystemBlockView = { index: number; start: number; end: number; text: string; source: Source | undefined; tokens: number };

export type ToolView = { index: number; path: string; declaration: ToolDeclaration; source: Source | undefined; tokens: number };

/** What kind of part it is, and its text as the page shows it (calls and responses as JSON). */
export type PartView = { index: number; path: string; type: PartType; text: string; thought: boolean; source: Source | undefined; tokens: number };

export type PartType = 'text' | 'functionCall' | 'functionResponse' | 'inlineData' | 'fileData' | 'executableCode' | 'codeExecutionResult';

export type MessageView = { index: number; path: string; role: string; tokens: number; parts: PartView[] };

/** Everything the page needs to draw one recorded call. */
export type CallView = {
  index: number;
  agent: string;
  invocationId: string;
  timestamp: number;
  usage: ModelCallRecord['usage'] | null;
  responseEventId: string | null;
  editedByCallback: boolean;
  /** True when the provenance does not cover the request (a callback changed it): blocks then may not line up. */
  provenanceMismatch: boolean;
  config: LlmRequest['config'];
  tokens: { total: number; system: number; tools: number; messages: number; framing: number; encoding: string };
  system: SystemBlockView[];
  tools: ToolView[];
  messages: MessageView[];
  /** The request exactly as recorded, in its stable JSON form. */
  request: LlmRequest;
};

/** Splits a recorded call into blocks, tools and parts, each with its source and token count. */
export function buildCallView(record: ModelCallRecord, tokens: RequestTokenCount, encoding: string): CallView {
  const { request, provenance } = record;
  const system = systemBlocks(request.system, provenance, tokens);
  const mismatch =
    provenance.tools.length !== request.tools.length ||
    provenance.messages.length !== request.messages.length ||
    request.messages.some((message, index) => (provenance.messages[index]?.length ?? -1) !== message.content.length) ||
    (request.system !== '' && provenance.system.length === 0) ||
    (provenance.system.at(-1)?.end ?? 0) !== request.system.length;
  return {
    index: record.index,
    agent: record.agent,
    invocationId: record.invocationId,
    timestamp: record.timestamp,
    usage: record.usage ?? null,
    responseEventId: record.responseEventId ?? null,
    editedByCallback: record.editedByCallback,
    provenanceMismatch: mismatch,
    config: request.config,
    tokens: { total: tokens.total, system: tokens.system.total, tools: tokens.tools.total, messages: tokens.messages.total, framing: tokens.framing, encoding },
    system,
    tools: request.tools.map((declaration, index) => ({ index, path: `tools[${index}]`, declaration, source: provenance.tools[index], tokens: tokens.tools.each[index] ?? 0 })),
    messages: request.messages.map((message, index) => ({
      index,
      path: `messages[${index}]`,
      role: message.role,
      tokens: tokens.messages.each[index]?.total ?? 0,
      parts: message.content.map((part, partIndex) => partView(part, partIndex, `messages[${index}].content[${partIndex}]`, provenance.messages[index]?.[partIndex], tokens.messages.each[index]?.parts[partIndex] ?? 0)),
    })),
    request: requestToJson(request),
  };
}

function systemBlocks(text: string, provenance: Provenance, tokens: RequestTokenCount): SystemBlockView[] {
  if (provenance.system.length === 0) return text === '' ? [] : [{ index: 0, start: 0, end: text.length, text, source: undefined, tokens: tokens.system.total }];
  return provenance.system.map((block, index) => ({
    index,
    start: block.start,
    end: block.end,
    text: text.slice(block.start, block.end),
    source: block.source,
    tokens: tokens.system.blocks[index] ?? 0,
  }));
}

function partView(part: Part, index: number, path: string, source: Source | undefined, tokens: number): PartView {
  const thought = 'thought' in part && part.thought === true;
  return { index, path, type: partType(part), text: partText(part), thought, source, tokens };
}

export function partType(part: Part): PartType {
  if ('text' in part) return 'text';
  if ('functionCall' in part) return 'functionCall';
  if ('functionResponse' in part) return 'functionResponse';
  if ('inlineData' in part) return 'inlineData';
  if ('fileData' in part) return 'fileData';
  if ('executableCode' in part) return 'executableCode';
  return 'codeExecutionResult';
}

/** The text the page shows for a part: text as is, calls and responses as indented JSON, data by name and type. */
function partText(part: Part): string {
  if ('functionCall' in part) return JSON.stringify(part.functionCall, null, 2);
  if ('functionResponse' in part) return JSON.stringify(part.functionResponse, null, 2);
  if ('inlineData' in part) return `${part.inlineData.displayName ?? '(inline data)'} · ${part.inlineData.mimeType} · ${part.inlineData.data.length} base64 chars`;
  return searchableText(part);
}
