import type { Content } from './content.js';
import type { CallbackContext, ToolContext } from './contexts.js';
import type { ModelResponse } from './model.js';
import type { LlmRequest } from './request.js';
import type { Tool } from './tool.js';

/** A hook's answer: a value, nothing (go on as usual), or a promise of either. */
export type Maybe<T> = T | undefined | void | Promise<T | undefined | void>;

/** Before the agent runs; returning content skips the agent and answers with it. */
export type BeforeAgentCallback = (args: { context: CallbackContext }) => Maybe<Content>;
/** After the agent ran; returning content adds it as the agent's last word. */
export type AfterAgentCallback = (args: { context: CallbackContext }) => Maybe<Content>;
/** Before a model call; may edit the request in place, or return a response that replaces the call. */
export type BeforeModelCallback = (args: { context: CallbackContext; request: LlmRequest }) => Maybe<ModelResponse>;
/** After a model call; returning a response replaces the model's. */
export type AfterModelCallback = (args: { context: CallbackContext; response: ModelResponse }) => Maybe<ModelResponse>;
/** Before a tool runs; returning a result skips the tool. */
export type BeforeToolCallback = (args: {
  tool: Tool;
  args: Record<string, unknown>;
  context: ToolContext;
}) => Maybe<Record<string, unknown>>;
/** After a tool ran; returning a result replaces the tool's. */
export type AfterToolCallback = (args: {
  tool: Tool;
  args: Record<string, unknown>;
  context: ToolContext;
  result: Record<string, unknown>;
}) => Maybe<Record<string, unknown>>;

export type OneOrMany<T> = T | readonly T[];

/** Hooks around agents, model calls and tools. For a list, the first callback that returns something wins. */
export type AgentCallbacks = {
  readonly beforeAgent?: OneOrMany<BeforeAgentCallback>;
  readonly afterAgent?: OneOrMany<AfterAgentCallback>;
  readonly beforeModel?: OneOrMany<BeforeModelCallback>;
  readonly afterModel?: OneOrMany<AfterModelCallback>;
  readonly beforeTool?: OneOrMany<BeforeToolCallback>;
  readonly afterTool?: OneOrMany<AfterToolCallback>;
};
