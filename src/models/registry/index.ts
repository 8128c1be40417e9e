/**
 * @module agentctx/models
 * Models by name: `resolveModel('openai:gpt-4.1')`, loading only the provider asked for; and the adapter layer
 * every provider is built on, for writing adapters and middleware of your own.
 */
export { resolveModel } from './resolve-model.js';
export type { ResolveModelOptions } from './resolve-model.js';
export { parseModelString } from './model-string.js';
export { wrapModel } from '../shared/wrap-model.js';
export type {
  CallSession,
  EmbedOptions,
  EmbedResponse,
  ModelMiddleware,
  StablePrefix,
  WireObserver,
} from '../../contracts/model.js';
export { withRetries } from '../shared/retry.js';
export type { RetryOptions } from '../shared/retry.js';
export type { ProviderSettings } from '../shared/settings.js';
