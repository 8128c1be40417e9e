import type { BuiltInTool, Message, RequestConfig, ToolDeclaration } from './request.js';
import type { Source } from './source.js';
import type { Tool } from './tool.js';

/**
 * One piece of the system text, kept apart so its origin stays known. Blocks are joined by a blank line in order;
 * a block placed at the `start` goes before all the others instead (a plugin's global instruction), joined to them
 * by a blank line when they hold any text.
 */
export type SystemBlock = { text: string; source: Source; placement?: 'start' };

/** A message and the origin of each of its parts (`sources` has one entry per part of `message.content`). */
export type DraftMessage = { readonly message: Message; readonly sources: readonly Source[] };

/** A tool as the model is told of it, where it came from, and what runs when the model calls it. */
export type DraftTool = {
  declaration: ToolDeclaration;
  source: Source;
  /** The implementation the runner calls for this declaration; absent for tools known only by their declaration. */
  tool?: Tool;
};

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
  /**
   * Tool definitions the model's provider holds back until a response of `loader` loads them (`LlmRequest.deferredTools`);
   * set by tool search for models that take them (`AssemblyContext.loadsDeferredTools`).
   */
  readonly deferredTools?: { readonly loader: string; readonly tools: readonly DraftTool[] };
  /** Tools the provider runs itself (`LlmRequest.builtInTools`), each with where it came from; none when absent. */
  readonly builtInTools?: readonly { readonly tool: BuiltInTool; readonly source: Source }[];
  /**
   * Tools that answer calls to names `tools` does not offer, so a model that calls one anyway gets a useful
   * answer (a `transfer_to_agent` where no transfer is possible is told why), and the deferred tools a response has
   * loaded. Never sent to the model as tools.
   */
  readonly handlers?: readonly Tool[];
  /** Things the user should know about this request (a skill listing cut to its budget…); `inspect` shows them. */
  readonly warnings: readonly string[];
};
