import type { Part } from '../contracts/content.js';
import type { ModelCallParent, ModelCallRecord } from '../contracts/model-call.js';
import type { RequestRemoval } from '../contracts/provenance.js';
import type { LlmRequest, ToolDeclaration } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import { requestToJson } from '../engine/assembly/request-json.js';
import type { RequestTokenCount } from '../engine/tokens/count-request-tokens.js';
import { buildCallAnswer, type CallAnswerView } from './call-answer.js';
import type { CallCacheView } from './cache-view.js';
import type { CallCostView } from './cost-view.js';
import { partText, partType, type PartType } from './part-display.js';
import { checkProvenanceFit } from './provenance-fit.js';
import { referencedDeferredTools } from '../engine/tools/deferred-tools.js';
import { describeToolOrigin, toolTokensByOrigin, type ToolOriginText } from '../engine/tools/tool-origin.js';
import { partPieceViews, systemBlockPieces, toolPieceViews, type TextPieceView } from './text-piece-views.js';

/**
 * One system block as the page shows it: its text (as pieces: its own, and what hooks wrote), where it sits in
 * `system`, where it came from, its tokens, and the separator between it and the block before.
 */
export type SystemBlockView = {
  index: number;
  start: number;
  end: number;
  text: string;
  source: Source | undefined;
  tokens: number;
  separatorBefore: string;
  pieces: TextPieceView[];
};

/** A tool definition of the request: its declaration, source and origin in words (an MCP server and tool, …), tokens. */
export type ToolView = {
  index: number;
  path: string;
  declaration: ToolDeclaration;
  source: Source | undefined;
  origin: ToolOriginText;
  tokens: number;
  descriptionPieces: TextPieceView[];
};
/** A definition the provider held back: `loaded` once a response of the loader loads it (it then counts its tokens). */
export type DeferredToolView = {
  index: number;
  path: string;
  declaration: ToolDeclaration;
  source: Source | undefined;
  origin: ToolOriginText;
  loaded: boolean;
  tokens: number;
};

/** What kind of part it is, and its text as the page shows it (calls and responses as JSON); a text part's pieces. */
export type PartView = {
  index: number;
  path: string;
  type: PartType;
  text: string;
  thought: boolean;
  source: Source | undefined;
  tokens: number;
  pieces: TextPieceView[];
};

export type MessageView = { index: number; path: string; role: string; tokens: number; parts: PartView[] };

/** Everything the page needs to draw one recorded call: the request, piece by piece, and how the call ended. */
export type CallView = {
  index: number;
  agent: string;
  invocationId: string;
  timestamp: number;
  parent: ModelCallParent | null;
  editedByCallback: boolean;
  /** True when the recorded provenance does not line up with the request; what does not is then shown unattributed. */
  provenanceMismatch: boolean;
  /** What did not line up, for the page's note. */
  mismatchNotes: string[];
  config: LlmRequest['config'];
  tokens: {
    total: number;
    system: number;
    tools: number;
    deferredTools: number;
    messages: number;
    framing: number;
    encoding: string;
  };
  system: SystemBlockView[];
  /** Separator text after the last block: with each block's `separatorBefore` and text, exactly `request.system`. */
  systemAfter: string;
  tools: ToolView[];
  /** Tool tokens by origin group (MCP server, toolset, extension, the agent's own), largest first. */
  toolsBySource: { group: string; tools: number; tokens: number }[];
  /** The deferred definitions (`request.deferredTools`), and the tool whose responses load them; empty and null when none. */
  deferredTools: DeferredToolView[];
  deferredLoader: string | null;
  messages: MessageView[];
  /** Pieces hooks took out of the request. */
  removed: RequestRemoval[];
  /** The request exactly as recorded, in its stable JSON form. */
  request: LlmRequest;
  /** What the call cost under the inspector's prices, from the usage its provider reported. */
  cost: CallCostView;
  /** Whether the stable prefix of its agent's previous call leads this request, and if not where and why it changed. */
  cache: CallCacheView;
} & CallAnswerView;

/** Splits a recorded call into blocks, tools and parts, each with its pieces, source and token count, and its answer. */
export function buildCallView(
  record: ModelCallRecord,
  tokens: RequestTokenCount,
  encoding: string,
  cost: CallCostView,
  cache: CallCacheView,
): CallView {
  const { request, provenance } = record;
  const fit = checkProvenanceFit(request, provenance);
  const system = fit.system ? systemBlockPieces(request, provenance) : undefined;
  const unattributed = (text: string): TextPieceView[] =>
    text === '' ? [] : [{ role: 'own', offset: 0, text, source: undefined }];
  return {
    index: record.index,
    agent: record.agent,
    invocationId: record.invocationId,
    timestamp: record.timestamp,
    parent: record.parent ?? null,
    editedByCallback: record.editedByCallback,
    provenanceMismatch: fit.notes.length > 0,
    mismatchNotes: fit.notes,
    config: request.config,
    tokens: {
      total: tokens.total,
      system: tokens.system.total,
      tools: tokens.tools.total,
      deferredTools: tokens.deferred.total,
      messages: tokens.messages.total,
      framing: tokens.framing,
      encoding,
    },
    system:
      system === undefined
        ? request.system === ''
          ? []
          : [
              {
                index: 0,
                start: 0,
                end: request.system.length,
                text: request.system,
                source: undefined,
                tokens: tokens.system.total,
                separatorBefore: '',
                pieces: unattributed(request.system),
              },
            ]
        : system.blocks.map((block, index) => ({
            index,
            start: block.start,
            end: block.end,
            text: request.system.slice(block.start, block.end),
            source: block.source,
            tokens: tokens.system.blocks[index] ?? 0,
            separatorBefore: block.separatorBefore,
            pieces: block.pieces,
          })),
    systemAfter: system?.separatorAfter ?? '',
    tools: request.tools.map((declaration, index) => ({
      index,
      path: `tools[${index}]`,
      declaration,
      source: fit.tools ? provenance.tools[index] : undefined,
      origin: describeToolOrigin(fit.tools ? provenance.tools[index] : undefined),
      tokens: tokens.tools.each[index] ?? 0,
      descriptionPieces: fit.tools ? toolPieceViews(request, provenance, index) : unattributed(declaration.description),
    })),
    toolsBySource: toolTokensByOrigin(
      request.tools.map((_, index) => (fit.tools ? provenance.tools[index] : undefined)),
      tokens.tools.each,
    ),
    deferredTools: deferredToolViews(request, provenance, tokens),
    deferredLoader: request.deferredTools?.loader ?? null,
    messages: request.messages.map((message, index) => ({
      index,
      path: `messages[${index}]`,
      role: message.role,
      tokens: tokens.messages.each[index]?.total ?? 0,
      parts: message.content.map((part, partIndex) => {
        const pieces = !('text' in part)
          ? []
          : fit.messages
            ? partPieceViews(request, provenance, index, partIndex)
            : unattributed(part.text);
        return partView(
          part,
          partIndex,
          `messages[${index}].content[${partIndex}]`,
          fit.messages ? provenance.messages[index]?.[partIndex] : undefined,
          tokens.messages.each[index]?.parts[partIndex] ?? 0,
          pieces,
        );
      }),
    })),
    removed: provenance.removed ?? [],
    request: requestToJson(request),
    cost,
    cache,
    ...buildCallAnswer(record),
  };
}

function partView(
  part: Part,
  index: number,
  path: string,
  source: Source | undefined,
  tokens: number,
  pieces: TextPieceView[],
): PartView {
  const thought = 'thought' in part && part.thought === true;
  return { index, path, type: partType(part), text: partText(part), thought, source, tokens, pieces };
}

function deferredToolViews(
  request: LlmRequest,
  provenance: ModelCallRecord['provenance'],
  tokens: RequestTokenCount,
): DeferredToolView[] {
  const declarations = request.deferredTools?.declarations ?? [];
  const loaded = new Set(referencedDeferredTools(request).map((tool) => tool.name));
  // Sources count only when they line up with the definitions, as for every other piece.
  const sources = provenance.deferredTools?.length === declarations.length ? provenance.deferredTools : undefined;
  return declarations.map((declaration, index) => ({
    index,
    path: `deferredTools.declarations[${index}]`,
    declaration,
    source: sources?.[index],
    origin: describeToolOrigin(sources?.[index]),
    loaded: loaded.has(declaration.name),
    tokens: tokens.deferred.each[index] ?? 0,
  }));
}
