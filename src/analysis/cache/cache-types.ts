import type { ModelCallParent } from '../../contracts/model-call.js';
import type { Source } from '../../contracts/source.js';

/**
 * Where, in wire order (tools → system → messages), the previous call's stable prefix first differs from the current
 * request. `start`: nothing of it can be reused (the model changed, and caches are per model).
 */
export type CacheLocation =
  | { where: 'start' }
  | { where: 'tools' /** Index in the tool list. */; tool: number }
  | { where: 'system' /** Character offset in the system text. */; offset: number }
  | { where: 'message'; message: number; part: number };

/** What changed, by the provenance of the pieces on both sides. */
export type CacheCauseKind =
  | 'model-changed'
  | 'agent-changed'
  | 'tools-reordered'
  | 'tool-added'
  | 'tool-removed'
  | 'tool-changed'
  /** A `{placeholder}` in a templated text was filled with another value. */
  | 'substitution-changed'
  /** An instruction provider (a function) returned other text. */
  | 'provider-changed'
  | 'page-added'
  | 'page-changed'
  | 'page-removed'
  | 'memory-changed'
  | 'skill-loaded'
  | 'skill-unloaded'
  | 'skill-changed'
  /** Text a `beforeModel` callback or plugin hook wrote. */
  | 'callback'
  /** A summary replaced events of the history. */
  | 'compaction'
  /** Messages of the history were removed, replaced or changed. */
  | 'history-rewritten'
  /** A piece was put in before the rest (a block, a message) or taken out. */
  | 'piece-added'
  | 'piece-removed'
  /** The same piece, with other text. */
  | 'text-changed';

/** The templated value that changed: which placeholder, which key, and its text on each side (at most 200 characters). */
export type ChangedSubstitution = {
  placeholder: string;
  /** The state key (`current_time`, `temp:now`) or `artifact.<name>`. */
  key: string;
  previousValue: string;
  currentValue: string;
};

/** Why the prefix changed there. */
export type CacheMissCause = {
  kind: CacheCauseKind;
  /** One line for people: `instruction: {current_time} changed`, `tools reordered`, `page added: paging:items`. */
  text: string;
  /** The source of the piece at the first difference in the previous call; absent where it had none (its end). */
  previousSource?: Source;
  /** The same in the current call. */
  currentSource?: Source;
  substitution?: ChangedSubstitution;
  /** The tool added, removed or changed. */
  tool?: string;
  /** Tool names in order, on each side, when tools were reordered. */
  order?: { previous: string[]; current: string[] };
  /** For `model-changed` and `agent-changed`: `provider:model` or the agent, on each side. */
  change?: { previous: string; current: string };
};

/**
 * The text at the first difference: `before` is what both sides share just before it (at most 80 characters), then
 * each side's text from it (at most 160 characters; empty where that side ends). Tools are shown as their JSON
 * declarations, message parts as their text (a call or a response as its JSON).
 */
export type CacheExcerpt = { before: string; previous: string; current: string };

export type CacheDifference = {
  location: CacheLocation;
  cause: CacheMissCause;
  excerpt: CacheExcerpt;
};

/** Tokens of the previous call's stable prefix, counted on the canonical text of its pieces. */
export type CacheTokens = {
  /** The whole stable prefix of the previous call: `kept + rebilled + dropped`. */
  prefix: number;
  /** Before the first difference: what the provider can read from its cache. */
  kept: number;
  /**
   * What the current call sends again after the difference that would have been a cache read: the smaller of what
   * the previous prefix had there and what the current one has (text added at the difference is new, not re-billed).
   */
  rebilled: number;
  /** The rest of the previous prefix after the difference: no longer sent at all (a released page, a summarized history). */
  dropped: number;
};

/** The previous call's stable prefix: all its tools, the first `systemChars` of its system text, its first `messages`. */
export type CachePrefixShape = { tools: number; systemChars: number; messages: number };

/**
 * How much of the previous call's stable prefix leads the current request unchanged, and if not all of it, where and
 * why it changed. Plain data: deterministic and JSON-serializable.
 */
export type CacheExplanation = {
  /** The `index` of the previous call. */
  previous: number;
  /** The `index` of the current call. */
  current: number;
  agent: string;
  /** True when the whole stable prefix of the previous call leads the current request. */
  kept: boolean;
  prefix: CachePrefixShape;
  tokens: CacheTokens;
  /** The first difference; absent when `kept`. */
  difference?: CacheDifference;
};

/** One call of a session, with the comparison with its agent's previous call. */
export type CallCacheEntry = {
  index: number;
  agent: string;
  parent?: ModelCallParent;
  /** Tokens of this call's own stable prefix: what its agent's next call can reuse. */
  stablePrefixTokens: number;
  /** Absent for the first call of its agent (with this parent): there is nothing to compare with. */
  explanation?: CacheExplanation;
};

export type SessionCacheTotals = {
  calls: number;
  /** Calls with no earlier call to compare with. */
  first: number;
  kept: number;
  changed: number;
  keptTokens: number;
  rebilledTokens: number;
};

/** Every call of a session compared with its agent's previous call. */
export type SessionCacheReport = {
  calls: CallCacheEntry[];
  totals: SessionCacheTotals;
};

/** Counts the tokens of a text (the local o200k tokenizer's `count`, or any other). */
export type CountTokens = (text: string) => number;
