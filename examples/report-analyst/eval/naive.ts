// The report analyst as `agentctx eval` loads it, naive: the report bodies go into the history. The module brings its
// own model: the analyst's scripted rules (they read the reports from the request, so the answer is right only if
// the reports reached the model), billed as Claude Sonnet would bill each request, prompt cache included.
//   agentctx eval --compare examples/report-analyst/eval/naive.ts examples/report-analyst/eval/paged.ts \
//     examples/report-analyst/eval
import { analystVariant } from './variant.js';

export const { agent, model } = analystVariant('naive');
