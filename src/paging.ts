/**
 * @module agentctx/paging
 * Instruction paging: large items live in state, a tool pages the ones the model asks for into the instruction for
 * the current step only, and the history keeps a one-line receipt. `paging({ name, load })` is an extension.
 */
export { paging } from './features/paging/paging.js';
export type { Paging, PagingOptions } from './features/paging/paging.js';
