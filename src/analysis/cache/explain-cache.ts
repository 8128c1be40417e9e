import type { ModelCallParent, ModelCallRecord } from '../../contracts/model-call.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import { stablePrefixOf } from '../../engine/assembly/stable-prefix.js';
import type { StablePrefix } from '../../contracts/model.js';
import type {
  CacheExplanation,
  CacheLocation,
  CacheMissCause,
  CacheTokens,
  CallCacheEntry,
  CountTokens,
  SessionCacheReport,
} from './cache-types.js';
import { messageCause, systemCause, toolCause } from './name-cause.js';
import { excerptAt, firstDifference, prefixTokens } from './prefix-compare.js';

/** What `explainCacheMiss` reads of a recorded call. */
export type CacheCall = Pick<ModelCallRecord, 'index' | 'agent' | 'request' | 'provenance'> &
  Partial<Pick<ModelCallRecord, 'model' | 'parent'>>;

/** What `findPreviousCall` reads of a call: a listed call may come without its request. */
export type CacheCandidate = Pick<ModelCallRecord, 'index' | 'agent'> & {
  parent?: ModelCallParent | undefined;
  request?: LlmRequest | undefined;
  provenance?: Provenance | undefined;
};

/**
 * Compares the current call with the previous call of the same agent: is the previous call's stable prefix (tools,
 * stable system text, stable messages: `stablePrefixOf`) still the start of the current request? If not, where it
 * first differs, what changed there (named from the provenance on both sides), and how many tokens of that prefix,
 * from the difference to its end, are billed again instead of read from the cache. Tokens are counted with
 * `countTokens` on canonical text: tools as JSON declarations, the system text, message parts as JSON.
 */
export function explainCacheMiss(previous: CacheCall, current: CacheCall, countTokens: CountTokens): CacheExplanation {
  const previousPrefix = stablePrefixOf(previous.request, previous.provenance);
  const currentPrefix = stablePrefixOf(current.request, current.provenance);
  const modelBefore = modelName(previous);
  const modelNow = modelName(current);
  const modelChanged = modelBefore !== undefined && modelNow !== undefined && modelBefore !== modelNow;
  const location: CacheLocation | undefined = modelChanged
    ? { where: 'start' }
    : firstDifference(previous.request, previousPrefix, current.request, currentPrefix);
  const explanation: CacheExplanation = {
    previous: previous.index,
    current: current.index,
    agent: current.agent,
    kept: location === undefined,
    prefix: {
      tools: previous.request.tools.length,
      systemChars: previousPrefix.systemChars,
      messages: previousPrefix.messages,
    },
    tokens: rebilledTokens(previous, previousPrefix, current, currentPrefix, location, countTokens),
  };
  if (location === undefined) return explanation;
  let cause = causeAt(previous, current, location, modelBefore ?? '', modelNow ?? '');
  if (!modelChanged && previous.agent !== current.agent) {
    cause = {
      ...cause,
      kind: 'agent-changed',
      text: `agent changed: ${previous.agent} → ${current.agent}`,
      change: { previous: previous.agent, current: current.agent },
    };
  }
  return {
    ...explanation,
    difference: { location, cause, excerpt: excerptAt(previous.request, current.request, location) },
  };
}

// What the previous prefix had after the difference, against what the current one has there: the smaller is read
// no more and sent again; the previous call's surplus is simply gone (released, summarized), which costs nothing.
function rebilledTokens(
  previous: CacheCall,
  previousPrefix: StablePrefix,
  current: CacheCall,
  currentPrefix: StablePrefix,
  location: CacheLocation | undefined,
  count: CountTokens,
): CacheTokens {
  const before = prefixTokens(previous.request, previousPrefix, location, count);
  if (location === undefined) return { ...before, dropped: 0 };
  const after = prefixTokens(current.request, currentPrefix, location, count);
  const rebilled = Math.min(before.rebilled, after.rebilled);
  return { prefix: before.prefix, kept: before.kept, rebilled, dropped: before.rebilled - rebilled };
}

function causeAt(
  previous: CacheCall,
  current: CacheCall,
  location: CacheLocation,
  modelBefore: string,
  modelNow: string,
): CacheMissCause {
  switch (location.where) {
    case 'start':
      return {
        kind: 'model-changed',
        text: `model changed: ${modelBefore} → ${modelNow}`,
        change: { previous: modelBefore, current: modelNow },
      };
    case 'tools':
      return toolCause(previous, current, location.tool);
    case 'system':
      return systemCause(previous, current, location.offset);
    case 'message':
      return messageCause(previous, current, location.message, location.part);
  }
}

/** `provider:model` of a call, or the model its request names. */
function modelName(call: CacheCall): string | undefined {
  return call.model === undefined ? call.request.config.model : `${call.model.provider}:${call.model.modelId}`;
}

/**
 * The call to compare call `index` (its recorded `index`, 1, 2, …) with: the latest earlier call of the same agent
 * with the same parent (a call made inside an agent tool compares only with the calls of that same tool call), that
 * has a request. Undefined for the first such call, or an index not in `calls`.
 */
export function findPreviousCall<T extends CacheCandidate>(
  calls: readonly T[],
  index: number,
): (T & { request: LlmRequest }) | undefined {
  const call = calls.find((candidate) => candidate.index === index);
  if (call === undefined) return undefined;
  let found: (T & { request: LlmRequest }) | undefined;
  for (const candidate of calls) {
    if (
      candidate.index >= index ||
      candidate.agent !== call.agent ||
      !sameParent(candidate.parent, call.parent) ||
      candidate.request === undefined
    )
      continue;
    if (found === undefined || candidate.index > found.index) found = candidate as T & { request: LlmRequest };
  }
  return found;
}

function sameParent(a: ModelCallParent | undefined, b: ModelCallParent | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.functionCallId === b.functionCallId && a.tool === b.tool && a.callIndex === b.callIndex;
}

/**
 * Every call of a session compared with its agent's previous call (`findPreviousCall`), in the order of their index,
 * with totals. Counts are memoized for the report, so a long session's shared pieces are tokenized once.
 */
export function explainSessionCache(calls: readonly CacheCall[], countTokens: CountTokens): SessionCacheReport {
  const memo = new Map<string, number>();
  const count: CountTokens = (text) => {
    let tokens = memo.get(text);
    if (tokens === undefined) memo.set(text, (tokens = countTokens(text)));
    return tokens;
  };
  const ordered = [...calls].sort((a, b) => a.index - b.index);
  const totals = { calls: ordered.length, first: 0, kept: 0, changed: 0, keptTokens: 0, rebilledTokens: 0 };
  const entries = ordered.map((call): CallCacheEntry => {
    const own = prefixTokens(call.request, stablePrefixOf(call.request, call.provenance), undefined, count).prefix;
    const entry: CallCacheEntry = {
      index: call.index,
      agent: call.agent,
      ...(call.parent === undefined ? {} : { parent: call.parent }),
      stablePrefixTokens: own,
    };
    const previous = findPreviousCall(ordered, call.index);
    if (previous === undefined) {
      totals.first++;
      return entry;
    }
    const explanation = explainCacheMiss(previous, call, count);
    if (explanation.kept) totals.kept++;
    else totals.changed++;
    totals.keptTokens += explanation.tokens.kept;
    totals.rebilledTokens += explanation.tokens.rebilled;
    return { ...entry, explanation };
  });
  return { calls: entries, totals };
}
