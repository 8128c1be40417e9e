import type { StablePrefix } from '../../contracts/model.js';
import type {
  AnthropicBlock,
  AnthropicMessage,
  AnthropicRequestBody,
  AnthropicSystemBlock,
  CacheControl,
} from './anthropic-wire.js';

/**
 * How the adapter asks Anthropic to cache. `breakpoints` (the default) marks the end of the tools, the end of the
 * stable system text and the end of the stable history, and spends any mark left on look-back points 20 blocks apart
 * (Anthropic looks for an earlier entry at most 20 blocks before a mark). `automatic` sends the top-level form (one
 * mark on the last block) when the whole request is stable, and breakpoints otherwise. `ttl` is the entries'
 * lifetime: 5 minutes (writes bill 1.25× the input price) or 1 hour (2×).
 */
export type AnthropicCacheSetting = {
  placement?: 'breakpoints' | 'automatic' | undefined;
  ttl?: '5m' | '1h' | undefined;
};

const MAX_MARKS = 4;
const LOOK_BACK_BLOCKS = 20;

type Placement = {
  /** The request's system text as agentctx built it (the body may carry it as a string). */
  system: string;
  /** How many messages the request has. */
  messageCount: number;
  prefix: StablePrefix;
  /** For each message of the body, the index of the agentctx message each block came from. */
  origins: readonly (readonly number[])[];
  setting: AnthropicCacheSetting;
};

/**
 * The body with cache breakpoints where the stable prefix ends. Marks are free to place (a write bills only the
 * tokens after the longest hit), so every mark that a later call could read is placed; none goes after the stable
 * prefix, where a write would never be read. The body given is not changed.
 */
export function placeCacheControl(body: AnthropicRequestBody, placement: Placement): AnthropicRequestBody {
  const control: CacheControl =
    placement.setting.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const { prefix, system } = placement;
  const whole = prefix.systemChars >= system.length && prefix.messages >= placement.messageCount;
  if (placement.setting.placement === 'automatic' && whole) return { ...body, cache_control: control };

  let marks = 0;
  const next: AnthropicRequestBody = { ...body };
  // Deferred definitions are not in the prompt (they come in where a reference loads them): the mark goes on the last
  // tool that is.
  const tools = body.tools ?? [];
  const lastInPrompt = tools.findLastIndex((tool) => tool['defer_loading'] !== true);
  if (lastInPrompt >= 0) {
    next.tools = tools.map((tool, index) => (index === lastInPrompt ? { ...tool, cache_control: control } : tool));
    marks++;
  }
  const stableSystem = system.slice(0, Math.min(prefix.systemChars, system.length));
  if (stableSystem !== '') {
    const blocks: AnthropicSystemBlock[] = [{ type: 'text', text: stableSystem, cache_control: control }];
    // The rest starts with the separator assembly put between blocks: the two blocks hold exactly the system text.
    if (stableSystem.length < system.length) blocks.push({ type: 'text', text: system.slice(stableSystem.length) });
    next.system = blocks;
    marks++;
  }
  const positions = stableBlockPositions(body.messages, placement.origins, prefix.messages);
  const chosen: { message: number; block: number }[] = [];
  for (let at = positions.length - 1; at >= 0 && marks < MAX_MARKS; at -= LOOK_BACK_BLOCKS) {
    const position = markable(body.messages, positions, at);
    if (position === undefined) break;
    chosen.push(position);
    marks++;
  }
  if (chosen.length > 0) next.messages = withMarks(body.messages, chosen, control);
  return next;
}

/** The blocks of the stable history in order: the run of blocks from the start that all came from stable messages. */
function stableBlockPositions(
  messages: readonly AnthropicMessage[],
  origins: readonly (readonly number[])[],
  stableMessages: number,
): { message: number; block: number }[] {
  const positions: { message: number; block: number }[] = [];
  for (let message = 0; message < messages.length; message++) {
    const from = origins[message] ?? [];
    for (let block = 0; block < from.length; block++) {
      if ((from[block] ?? Number.POSITIVE_INFINITY) >= stableMessages) return positions;
      positions.push({ message, block });
    }
  }
  return positions;
}

// Thinking blocks cannot carry a mark; the nearest earlier block that can stands in.
function markable(
  messages: readonly AnthropicMessage[],
  positions: readonly { message: number; block: number }[],
  at: number,
): { message: number; block: number } | undefined {
  for (let index = at; index >= 0; index--) {
    const position = positions[index] as { message: number; block: number };
    const type = messages[position.message]?.content[position.block]?.type;
    if (type !== 'thinking' && type !== 'redacted_thinking') return position;
  }
  return undefined;
}

function withMarks(
  messages: readonly AnthropicMessage[],
  chosen: readonly { message: number; block: number }[],
  control: CacheControl,
): AnthropicMessage[] {
  return messages.map((message, messageIndex) => {
    const marked = chosen.filter((position) => position.message === messageIndex).map((position) => position.block);
    if (marked.length === 0) return message;
    return {
      role: message.role,
      content: message.content.map(
        (block, blockIndex): AnthropicBlock =>
          marked.includes(blockIndex) ? { ...block, cache_control: control } : block,
      ),
    };
  });
}
