// The report analyst as `agentctx eval` loads it, paged: each batch of reports is paged into the prompt after its
// page-in and out again once its result is saved (see naive.ts for the model it brings).
import { analystVariant } from './variant.js';

export const { agent, model } = analystVariant('paged');
