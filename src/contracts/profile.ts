/** Turns a state value into the text that replaces its placeholder. */
export type ValueFormatter = (value: unknown) => string;

/**
 * How values are written into templates: `default` is what a JavaScript user expects (strings as they are, numbers
 * and booleans through `String`, objects and arrays as JSON); `python` reproduces ADK's `str()` byte for byte; or a
 * function of your own. `null` and `undefined` are always the empty string, as in ADK.
 */
export type ValueFormat = 'default' | 'python' | ValueFormatter;

/** The two profiles agentctx ships. */
export type ProfileName = 'agentctx' | 'adk';

/**
 * The conventions a run or an assembly follows wherever agentctx and ADK Python differ on purpose. It is chosen once,
 * where a runner or an assembly starts (`profile` on `createRunner`, `assembleRequest`, a case file), and carried to
 * every step that depends on it. `agentctx` is the default; `adk` reproduces ADK byte for byte.
 */
export type Profile = {
  /** `agentctx`, `adk`, or a name of your own for a profile derived from one of them. */
  readonly name: string;
  /** How state values are written into instructions and into retold tool calls. agentctx: `default`; ADK: `python`. */
  readonly valueFormat: ValueFormat;
  /** `\{` and `\}` are literal braces in templates. Off in both (ADK has no escapes); `check` and case files can turn it on. */
  readonly templateEscapes: boolean;
  /** `{state.key}` is another spelling of `{key}`. On in both. */
  readonly stateAlias: boolean;
  /**
   * How compaction summaries stand in for what they cover, in requests and when planning the next one. `exact`
   * (agentctx): a summary replaces exactly the events it lists, in place; a call is never summarized apart from its
   * response; the running turn's question stays raw; a token compaction wins its turn over the sliding window. `adk`:
   * each summary is a model turn at its end time, every event inside its time range is dropped, and ADK's planning
   * rules apply.
   */
  readonly summaries: 'exact' | 'adk';
  /** The default summarizer's prompt and rendering: agentctx's (tool calls and results written out) or ADK's. */
  readonly summaryPrompt: 'agentctx' | 'adk';
  /**
   * The prompt size a token threshold is held against. `request` (agentctx): the larger of the local count of the
   * request about to be sent and the latest billed prompt since the last summary. `adk`: the latest billed prompt,
   * else the conversation's characters divided by four.
   */
  readonly promptTokens: 'request' | 'adk';
  /**
   * How the declarations agentctx writes itself (`transfer_to_agent`) are written: `agentctx` (the default when
   * absent): plain JSON Schema; `adk`: as ADK 2.5.0 writes them, pydantic's JSON Schema with a `title` per parameter
   * and for the whole.
   */
  readonly functionDeclarations?: 'agentctx' | 'adk';
  /**
   * The Python whose `str()` and `repr()` the `python` value format reproduces, where they differ between versions:
   * which characters a string's repr escapes follows the Python's Unicode database (3.10: Unicode 13.0, 3.11: 14.0,
   * 3.12: 15.0, 3.13: 15.1), so a character added to Unicode later is written `\U0001fae8` by an older Python.
   * `3.11` when absent (the Python of ADK 2.5.0's reference requests). Nothing else of ADK 2.5.0's request depends on
   * it: descriptions taken from docstrings are cleaned the same way on every version.
   */
  readonly python?: '3.10' | '3.11' | '3.12' | '3.13';
  /** Prefix of the ids given to function calls that arrive without one; such ids are hidden from providers that do not pair calls by id. */
  readonly generatedCallIdPrefix: string;
};
