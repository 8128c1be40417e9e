import type { LanguageModelV2StreamPart, LanguageModelV3StreamPart, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { Part, ProviderMetadata } from '../../contracts/content.js';
import type { ModelResponse } from '../../contracts/model.js';
import {
  fileToPart,
  finishReasonOf,
  parseToolInput,
  rawUsageOf,
  responseMetadata,
  toUsage,
  type AiSdkFinishReason,
  type AiSdkUsage,
} from './from-ai-sdk-result.js';

export type AiSdkStreamPart = LanguageModelV2StreamPart | LanguageModelV3StreamPart | LanguageModelV4StreamPart;

/** A stream's error part: the provider's error (an Error, or what its protocol sent), made a ModelError. */
export class StreamedError extends Error {
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : JSON.stringify(error), { cause: error });
  }
}

type Metadata = Record<string, Record<string, unknown>>;
type Block = { text: string; thought: boolean; metadata: Metadata | undefined };

/**
 * Builds one response from a stream's parts, in the order their blocks started: text and reasoning from their deltas
 * (by block id, with the provider metadata of their start, deltas and end merged: a reasoning block's signature
 * comes last), function calls whole, files; usage, finish reason and metadata from the finish part.
 */
export class AiSdkStreamAssembler {
  private readonly parts: Part[] = [];
  // Text and reasoning blocks by the index of their part; the open ones also by their id.
  private readonly blocks = new Map<number, Block>();
  private readonly openBlocks = new Map<string, Block>();
  private usage: AiSdkUsage | undefined;
  private finishReason: AiSdkFinishReason | undefined;
  private metadata: Metadata | undefined;
  private warnings: readonly unknown[] | undefined;

  /** Takes one part; returns the text to show now, if it brought some. Throws a `StreamedError` for an error part. */
  push(part: AiSdkStreamPart): string | undefined {
    switch (part.type) {
      case 'stream-start':
        this.warnings = part.warnings;
        return undefined;
      case 'text-start':
      case 'reasoning-start':
        this.open(`${part.type.split('-')[0]}:${part.id}`, part.type === 'reasoning-start', part.providerMetadata);
        return undefined;
      case 'text-delta':
      case 'reasoning-delta': {
        const thought = part.type === 'reasoning-delta';
        const block = this.open(`${thought ? 'reasoning' : 'text'}:${part.id}`, thought, part.providerMetadata);
        block.text += part.delta;
        return thought || part.delta === '' ? undefined : part.delta;
      }
      case 'text-end':
      case 'reasoning-end': {
        // Closed: a later block may take the same id.
        const key = `${part.type.split('-')[0]}:${part.id}`;
        this.open(key, part.type === 'reasoning-end', part.providerMetadata);
        this.openBlocks.delete(key);
        return undefined;
      }
      case 'tool-call':
        if (part.providerExecuted === true) return undefined;
        this.parts.push(
          withMetadata(
            { functionCall: { id: part.toolCallId, name: part.toolName, args: parseToolInput(part.input) } },
            part.providerMetadata as Metadata | undefined,
          ),
        );
        return undefined;
      case 'file':
        this.parts.push(fileToPart(part.mediaType, part.data));
        return undefined;
      case 'finish':
        this.usage = part.usage;
        this.finishReason = part.finishReason;
        this.metadata = part.providerMetadata as Metadata | undefined;
        return undefined;
      case 'error':
        throw new StreamedError(part.error);
      default:
        return undefined;
    }
  }

  /** The provider's own usage object, once the finish part has come (version 3 on). */
  rawUsage(): unknown {
    return rawUsageOf(this.usage);
  }

  finish(): ModelResponse {
    const parts = this.parts.map((part, at) => {
      const block = this.blocks.get(at);
      if (block === undefined) return part;
      return withMetadata(block.thought ? { text: block.text, thought: true } : { text: block.text }, block.metadata);
    });
    const usage = this.usage === undefined ? undefined : toUsage(this.usage);
    const metadata = responseMetadata(this.metadata, this.warnings);
    return {
      ...(parts.length === 0 ? {} : { content: { role: 'model', parts } }),
      ...(usage === undefined ? {} : { usage }),
      ...(this.finishReason === undefined ? {} : { finishReason: finishReasonOf(this.finishReason) }),
      ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    };
  }

  // A block is opened by its first part, whichever that is; its place among the parts is kept by a placeholder.
  private open(key: string, thought: boolean, metadata: unknown): Block {
    let block = this.openBlocks.get(key);
    if (block === undefined) {
      block = { text: '', thought, metadata: undefined };
      this.openBlocks.set(key, block);
      this.blocks.set(this.parts.length, block);
      this.parts.push({ text: '' });
    }
    block.metadata = mergeMetadata(block.metadata, metadata as Metadata | undefined);
    return block;
  }
}

function mergeMetadata(into: Metadata | undefined, more: Metadata | undefined): Metadata | undefined {
  if (more === undefined) return into;
  const merged: Metadata = { ...into };
  for (const [provider, data] of Object.entries(more)) merged[provider] = { ...merged[provider], ...data };
  return merged;
}

function withMetadata<P extends Part>(part: P, metadata: Metadata | undefined): P {
  return metadata === undefined || Object.keys(metadata).length === 0
    ? part
    : { ...part, providerMetadata: metadata as ProviderMetadata };
}
