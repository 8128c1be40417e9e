import type { Part } from '../../contracts/content.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest, ToolDeclaration } from '../../contracts/request.js';
import type { TokenCounter } from '../../contracts/tokens.js';
import { referencedDeferredTools } from '../tools/deferred-tools.js';

/** Where the tokens of a request are: per system block, per tool, per message and part. */
export type RequestTokenCount = {
  total: number;
  system: { total: number; blocks: number[] };
  tools: { total: number; each: number[] };
  /**
   * Deferred definitions, parallel to `request.deferredTools.declarations`: a loaded one counts its definition (the
   * provider puts it in the prompt), one not loaded counts 0. All zero when the request has none.
   */
  deferred: { total: number; each: number[] };
  messages: { total: number; each: { total: number; parts: number[] }[] };
  /** Framing the provider adds around messages (a few tokens each), included in `total`. */
  framing: number;
};

// Chat formats wrap each message in a few tokens, and the reply in a few more (OpenAI's published rule of thumb).
const PER_MESSAGE = 3;
const PER_REQUEST = 3;
// A typical image costs a fixed amount whatever its bytes (Gemini charges 258 per image up to 384×384).
const PER_IMAGE = 258;

/**
 * Counts a request's tokens with the local tokenizer, section by section. System blocks follow the provenance when
 * given (the separators between blocks are counted with the block after them). Estimates: a provider's own count
 * may differ; `calibrate` fits a factor from billed usage.
 */
export function countRequestTokens(
  request: LlmRequest,
  counter: TokenCounter,
  provenance?: Provenance,
): RequestTokenCount {
  const blocks = systemBlocks(request.system, provenance).map((text) => counter.count(text));
  const tools = request.tools.map((tool) => countToolTokens(tool, counter));
  const loaded = new Set(referencedDeferredTools(request).map((tool) => tool.name));
  const deferredEach = (request.deferredTools?.declarations ?? []).map((tool) =>
    loaded.has(tool.name) ? countToolTokens(tool, counter) : 0,
  );
  const each = request.messages.map((message) => {
    const parts = message.content.map((part) => countPart(part, counter));
    return { total: sum(parts), parts };
  });
  const framing = PER_REQUEST + PER_MESSAGE * request.messages.length + (request.system === '' ? 0 : PER_MESSAGE);
  const system = { total: sum(blocks), blocks };
  const toolTotal = { total: sum(tools), each: tools };
  const deferred = { total: sum(deferredEach), each: deferredEach };
  const messages = { total: sum(each.map((message) => message.total)), each };
  return {
    total: system.total + toolTotal.total + deferred.total + messages.total + framing,
    system,
    tools: toolTotal,
    deferred,
    messages,
    framing,
  };
}

/** A tool definition's tokens: its name, description and parameter schema as text. */
export function countToolTokens(tool: ToolDeclaration, counter: TokenCounter): number {
  return counter.count(
    `${tool.name}\n${tool.description}\n${tool.parameters === undefined ? '' : JSON.stringify(tool.parameters)}`,
  );
}

/** The text of each system block, in order; the blank line before a block is counted with it. */
function systemBlocks(system: string, provenance: Provenance | undefined): string[] {
  if (provenance === undefined || provenance.system.length === 0) return system === '' ? [] : [system];
  return provenance.system.map((block, index) => {
    const previous = provenance.system[index - 1];
    return system.slice(previous === undefined ? 0 : previous.end, block.end);
  });
}

// Parts are shared by reference between a session's events and every request built from them, and never changed, so
// a long session's requests are counted only for their new parts (the token trigger counts every request).
const partCounts = new WeakMap<TokenCounter, WeakMap<Part, number>>();

function countPart(part: Part, counter: TokenCounter): number {
  let counts = partCounts.get(counter);
  if (counts === undefined) partCounts.set(counter, (counts = new WeakMap()));
  let count = counts.get(part);
  if (count === undefined) counts.set(part, (count = countPartOnce(part, counter)));
  return count;
}

function countPartOnce(part: Part, counter: TokenCounter): number {
  if ('text' in part) return counter.count(part.text);
  if ('functionCall' in part)
    return counter.count(`${part.functionCall.name}${JSON.stringify(part.functionCall.args ?? {})}`);
  if ('functionResponse' in part)
    return counter.count(`${part.functionResponse.name}${JSON.stringify(part.functionResponse.response ?? {})}`);
  if ('inlineData' in part)
    return part.inlineData.mimeType.startsWith('image/')
      ? PER_IMAGE
      : Math.ceil((part.inlineData.data.length * 3) / 16);
  if ('fileData' in part) return PER_IMAGE;
  if ('executableCode' in part) return counter.count(part.executableCode.code);
  return counter.count(part.codeExecutionResult.output ?? '');
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
