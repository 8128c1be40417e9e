import type { Part } from '../../contracts/content.js';
import type { StablePrefix } from '../../contracts/model.js';
import type { LlmRequest, ToolDeclaration } from '../../contracts/request.js';
import { searchableText } from '../../engine/assembly/part-text.js';
import type { CacheExcerpt, CacheLocation, CacheTokens, CountTokens } from './cache-types.js';

// The stable prefix of a call, read as one sequence in wire order: every tool, then the stable system text, then the
// stable messages part by part. Volatile text (a page, a dynamic instruction, what a hook wrote) is set aside, as the
// provider adapters send it after the prefix. Comparing two calls means finding the first place where the previous
// call's sequence stops leading the current one.

const BEFORE = 80;
const AFTER = 160;

/** A tool's declaration as canonical text: its JSON, keys in the order of `requestToJson`. */
export function toolText(tool: ToolDeclaration): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
  });
}

/** A message part as canonical text: its JSON. */
export function partJson(part: Part): string {
  return JSON.stringify(part);
}

/** The first place where the previous call's stable prefix stops leading the current request; undefined when it all does. */
export function firstDifference(
  previous: LlmRequest,
  previousPrefix: StablePrefix,
  current: LlmRequest,
  currentPrefix: StablePrefix,
): CacheLocation | undefined {
  for (let tool = 0; tool < Math.max(previous.tools.length, current.tools.length); tool++) {
    const left = previous.tools[tool];
    const right = current.tools[tool];
    if (left === undefined || right === undefined || toolText(left) !== toolText(right))
      return { where: 'tools', tool };
  }
  const stableBefore = previous.system.slice(0, previousPrefix.systemChars);
  const stableNow = current.system.slice(0, currentPrefix.systemChars);
  const common = commonLength(stableBefore, stableNow);
  if (common < stableBefore.length) return { where: 'system', offset: common };
  // More stable system text now: where the previous prefix went on with its messages, the current one has text.
  if (previousPrefix.messages > 0 && stableNow.length > stableBefore.length)
    return { where: 'system', offset: stableBefore.length };
  for (let message = 0; message < previousPrefix.messages; message++) {
    const left = previous.messages[message];
    const right = current.messages[message];
    if (left === undefined) break;
    if (right === undefined || right.role !== left.role) return { where: 'message', message, part: 0 };
    for (let part = 0; part < left.content.length; part++) {
      const mine = left.content[part] as Part;
      const theirs = right.content[part];
      if (theirs === undefined || (theirs !== mine && partJson(theirs) !== partJson(mine)))
        return { where: 'message', message, part };
    }
    // Parts added to a message that more of the prefix follows push that rest back.
    if (right.content.length > left.content.length && message < previousPrefix.messages - 1)
      return { where: 'message', message, part: left.content.length };
  }
  return undefined;
}

/**
 * The tokens of a request's stable prefix, split at `location`: the pieces before it are kept (a cache read), the
 * rest re-billed. Tools count as their JSON declarations, the system text as itself, message parts as their JSON.
 * Split inside the system text, the kept side is the text before the offset and the re-billed side the rest of the
 * whole text's count, so `prefix` is the same for every split.
 */
export function prefixTokens(
  request: LlmRequest,
  prefix: StablePrefix,
  location: CacheLocation | undefined,
  count: CountTokens,
): Omit<CacheTokens, 'dropped'> {
  let kept = 0;
  let rebilled = 0;
  const add = (tokens: number, isKept: boolean) => {
    if (isKept) kept += tokens;
    else rebilled += tokens;
  };
  const rank = location === undefined ? 4 : RANK[location.where];
  request.tools.forEach((tool, index) =>
    add(count(toolText(tool)), rank > 1 || (location?.where === 'tools' && index < location.tool)),
  );
  const system = request.system.slice(0, prefix.systemChars);
  if (location?.where === 'system') {
    // Split inside the system text: the whole counts as itself, so a prefix totals the same however it is split.
    const whole = count(system);
    const before = Math.min(count(system.slice(0, location.offset)), whole);
    add(before, true);
    add(whole - before, false);
  } else {
    add(count(system), rank > 2);
  }
  request.messages.slice(0, prefix.messages).forEach((message, index) =>
    message.content.forEach((part, partIndex) => {
      const before =
        location?.where === 'message' &&
        (index < location.message || (index === location.message && partIndex < location.part));
      add(count(partJson(part)), rank > 3 || before);
    }),
  );
  return { prefix: kept + rebilled, kept, rebilled };
}

const RANK: Record<CacheLocation['where'], number> = { start: 0, tools: 1, system: 2, message: 3 };

/** Both sides' text around the first difference (see `CacheExcerpt`). */
export function excerptAt(previous: LlmRequest, current: LlmRequest, location: CacheLocation): CacheExcerpt {
  switch (location.where) {
    case 'start':
      return { before: '', previous: '', current: '' };
    case 'tools': {
      const left = previous.tools[location.tool];
      const right = current.tools[location.tool];
      return around(left === undefined ? '' : toolText(left), right === undefined ? '' : toolText(right));
    }
    case 'system':
      return aroundAt(previous.system, current.system, location.offset);
    case 'message': {
      const left = previous.messages[location.message]?.content[location.part];
      const right = current.messages[location.message]?.content[location.part];
      return around(left === undefined ? '' : searchableText(left), right === undefined ? '' : searchableText(right));
    }
  }
}

function around(previous: string, current: string): CacheExcerpt {
  return aroundAt(previous, current, commonLength(previous, current));
}

function aroundAt(previous: string, current: string, offset: number): CacheExcerpt {
  return {
    before: previous.slice(Math.max(0, offset - BEFORE), offset),
    previous: previous.slice(offset, offset + AFTER),
    current: current.slice(offset, offset + AFTER),
  };
}

/** How many characters two texts share from their start. */
export function commonLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  for (let index = 0; index < limit; index++) if (a.charCodeAt(index) !== b.charCodeAt(index)) return index;
  return limit;
}
