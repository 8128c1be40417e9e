import type { ModelCallParent, ModelCallStatus } from '../contracts/model-call.js';

/** A recorded model call as the timeline lists it, with how it ended and, for a call made in a tool call, its parent. */
export type ModelCallItem = {
  type: 'model-call';
  index: number;
  agent: string;
  invocationId: string;
  timestamp: number;
  responseEventId: string | null;
  promptTokens: number | null;
  outputTokens: number | null;
  requestChars: number;
  status: ModelCallStatus;
  latencyMs: number | null;
  firstTokenMs: number | null;
  /** `provider/modelId`. */
  model: string | null;
  error: string | null;
  parent: ModelCallParent | null;
  /** How deep it is shown: 0 for the session's own calls, one more than its parent's for a call made in a tool call. */
  depth: number;
};

type Item = {
  type: string;
  timestamp: number;
  eventId?: string;
  callId?: string | null;
  depth?: number;
  index?: number;
  responseEventId?: string | null;
};
type Invocation = { invocationId: string; start: number; items: Item[] };

/**
 * Puts each call made inside a tool call (one with a `parent`) right after that tool call, one level deeper than the
 * call that asked for it, after the siblings already there. A sub-agent's own events live in a session of their own,
 * so a call nested in a nested call finds no tool call among the items and goes right after its parent call instead.
 * A call whose parent is nowhere in the timeline is placed by its time, not nested.
 */
export function nestCalls<I extends Invocation>(
  invocations: I[],
  nested: readonly ModelCallItem[],
  newInvocation: (call: ModelCallItem) => I,
): void {
  let waiting = [...nested].sort((a, b) => a.index - b.index);
  // A parent may itself be nested and not placed yet; every round places at least one call or ends.
  for (let placed = true; placed && waiting.length > 0; ) {
    placed = false;
    waiting = waiting.filter((call) => {
      const place = findPlace(invocations, call.parent as ModelCallParent);
      if (place === undefined) return true;
      place.items.splice(place.position, 0, { ...call, depth: place.depth });
      placed = true;
      return false;
    });
  }
  for (const call of waiting) {
    const invocation =
      invocations.find((candidate) => candidate.invocationId === call.invocationId) ?? newInvocation(call);
    const position = invocation.items.findIndex((item) => item.timestamp > call.timestamp);
    invocation.items.splice(position < 0 ? invocation.items.length : position, 0, { ...call, depth: 0 });
  }
}

function findPlace(
  invocations: readonly Invocation[],
  parent: ModelCallParent,
): { items: Item[]; position: number; depth: number } | undefined {
  for (const { items } of invocations) {
    let anchor: number;
    let depth = 1;
    if (parent.callIndex === undefined) {
      // A beforeModel hook answered in place of a call: only the tool call it asked for is there.
      anchor = items.findIndex((item) => isToolCall(item, parent));
    } else {
      const at = items.findIndex((item) => item.type === 'model-call' && item.index === parent.callIndex);
      if (at < 0) continue;
      const caller = items[at] as Item;
      depth = (caller.depth ?? 0) + 1;
      const inAnswer = items.findIndex(
        (item, position) => position > at && isToolCall(item, parent) && item.eventId === caller.responseEventId,
      );
      const later = items.findIndex((item, position) => position > at && isToolCall(item, parent));
      anchor = inAnswer >= 0 ? inAnswer : later >= 0 ? later : at;
    }
    if (anchor < 0) continue;
    let position = anchor + 1;
    while (position < items.length && ((items[position] as Item).depth ?? 0) >= depth) position++;
    return { items, position, depth };
  }
  return undefined;
}

function isToolCall(item: Item, parent: ModelCallParent): boolean {
  return item.type === 'tool-call' && item.callId === parent.functionCallId;
}
