import type { Part, Role } from '../../contracts/content.js';
import type { DraftMessage, RequestDraft, SystemBlock } from '../../contracts/draft.js';
import type { RequestConfig, ToolDeclaration } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import type { Tool } from '../../contracts/tool.js';

// Every draft has every field, in one order, so drafts keep one shape for the engine as processors copy them.
export function emptyDraft(config: RequestConfig = {}): RequestDraft {
  return { systemBlocks: [], tools: [], messages: [], config, handlers: [], warnings: [] };
}

export function withSystemBlock(draft: RequestDraft, text: string, source: Source): RequestDraft {
  return { ...draft, systemBlocks: [...draft.systemBlocks, { text, source }] };
}

/** The draft with a system block placed before every other one (see `SystemBlock.placement`). */
export function withLeadingSystemBlock(draft: RequestDraft, text: string, source: Source): RequestDraft {
  return { ...draft, systemBlocks: [...draft.systemBlocks, { text, source, placement: 'start' }] };
}

/** The draft with one more tool; `tool` is what the runner calls when the model calls it. */
export function withTool(draft: RequestDraft, declaration: ToolDeclaration, source: Source, tool?: Tool): RequestDraft {
  return {
    ...draft,
    tools: [...draft.tools, tool === undefined ? { declaration, source } : { declaration, source, tool }],
  };
}

/** A message whose parts all share one source. */
export function draftMessage(role: Role, content: Part[], source: Source): DraftMessage {
  return { message: { role, content }, sources: content.map(() => source) };
}

/**
 * The system text ADK would build from these blocks, and where each block landed: blocks are joined by a blank
 * line, except that a block replaces an empty text so far (ADK's `append_instructions` replaces a falsy
 * instruction), which also swallows that separator. Blocks placed at the `start` are then put in front one by one,
 * in order, as ADK's `GlobalInstructionPlugin` prepends: `text\n\n` before a non-empty system text, alone otherwise.
 */
export function joinSystemBlocks(blocks: readonly SystemBlock[]): {
  text: string;
  ranges: { start: number; end: number }[];
} {
  let text = '';
  const ranges: { start: number; end: number }[] = new Array(blocks.length);
  const placed: { start: number; end: number }[] = [];
  blocks.forEach((block, index) => {
    if (block.placement === 'start') return;
    let range: { start: number; end: number };
    if (text === '') {
      text = block.text;
      for (const earlier of placed) earlier.start = earlier.end = 0;
      range = { start: 0, end: block.text.length };
    } else {
      text += '\n\n';
      range = { start: text.length, end: text.length + block.text.length };
      text += block.text;
    }
    ranges[index] = range;
    placed.push(range);
  });
  blocks.forEach((block, index) => {
    if (block.placement !== 'start') return;
    const range = { start: 0, end: block.text.length };
    if (block.text !== '') {
      const shift = text === '' ? block.text.length : block.text.length + 2;
      for (const earlier of placed) {
        earlier.start = text === '' ? shift : earlier.start + shift;
        earlier.end = text === '' ? shift : earlier.end + shift;
      }
      text = text === '' ? block.text : `${block.text}\n\n${text}`;
    }
    ranges[index] = range;
    placed.push(range);
  });
  return { text, ranges };
}
