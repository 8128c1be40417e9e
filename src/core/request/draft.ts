import type { Part, Role } from '../session/content.js';
import type { Message, RequestConfig, ToolDeclaration } from './request.js';
import type { Source } from './source.js';

/** One appended piece of the system text, kept apart so its origin stays known. */
export type SystemBlock = { text: string; source: Source };

/** A message and the origin of each of its parts (`sources` has one entry per part of `message.content`). */
export type DraftMessage = { readonly message: Message; readonly sources: readonly Source[] };

export type DraftTool = { declaration: ToolDeclaration; source: Source };

/**
 * The request while the processors build it. Processors return a new draft rather than changing the one
 * they were given, so each step can be tested alone and the pipeline can record what each one added.
 */
export type RequestDraft = {
  readonly systemBlocks: readonly SystemBlock[];
  readonly tools: readonly DraftTool[];
  /**
   * The conversation. Messages added before the `contents` processor runs (the dynamic instruction beside a static
   * one, references to static inline data) are placed by it before the trailing user turns of the history.
   */
  readonly messages: readonly DraftMessage[];
  readonly config: RequestConfig;
  /** Things the user should know about this request (a skill listing cut to its budget…); `inspect` shows them. */
  readonly warnings: readonly string[];
};

export function emptyDraft(config: RequestConfig = {}): RequestDraft {
  return { systemBlocks: [], tools: [], messages: [], config, warnings: [] };
}

export function withSystemBlock(draft: RequestDraft, text: string, source: Source): RequestDraft {
  return { ...draft, systemBlocks: [...draft.systemBlocks, { text, source }] };
}

export function withTool(draft: RequestDraft, declaration: ToolDeclaration, source: Source): RequestDraft {
  return { ...draft, tools: [...draft.tools, { declaration, source }] };
}

/** A message whose parts all share one source. */
export function draftMessage(role: Role, content: Part[], source: Source): DraftMessage {
  return { message: { role, content }, sources: content.map(() => source) };
}

/**
 * The system text ADK would build from these blocks, and where each block landed: blocks are joined by a blank
 * line, except that a block replaces an empty text so far (ADK's `append_instructions` replaces a falsy
 * instruction), which also swallows that separator.
 */
export function joinSystemBlocks(blocks: readonly SystemBlock[]): { text: string; ranges: { start: number; end: number }[] } {
  let text = '';
  const ranges: { start: number; end: number }[] = [];
  for (const block of blocks) {
    if (text === '') {
      text = block.text;
      for (const range of ranges) range.start = range.end = 0;
      ranges.push({ start: 0, end: block.text.length });
    } else {
      text += '\n\n';
      ranges.push({ start: text.length, end: text.length + block.text.length });
      text += block.text;
    }
  }
  return { text, ranges };
}
