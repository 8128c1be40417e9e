import type { Hono } from 'hono';
import type { EvalComparison } from '../analysis/eval/compare-results.js';
import { jsonResponse } from './api-routes.js';
import { parseIndex, WebError } from './web-error.js';

/** A comparison the inspector shows (`agentctx eval --compare … --json`), under the name it was given. */
export type NamedComparison = { readonly name: string; readonly comparison: EvalComparison };

/**
 * The comparisons of two variants of an agent the inspector was given: `/api/comparisons` lists them (name, sides,
 * cases, how many changed outcome), `/api/comparisons/:n` is one whole, numbered from 1 in the order given.
 */
export function addComparisonRoutes(app: Hono, comparisons: readonly NamedComparison[]): void {
  app.get('/api/comparisons', () =>
    jsonResponse(
      comparisons.map(({ name, comparison }, index) => ({
        index: index + 1,
        name,
        a: comparison.a.label,
        b: comparison.b.label,
        cases: comparison.cases.length,
        changed: comparison.cases.filter((each) => each.passedOn === 'a' || each.passedOn === 'b').length,
      })),
    ),
  );
  app.get('/api/comparisons/:index', (c) => {
    const index = parseIndex(c.req.param('index'), 'comparison');
    const found = comparisons[index - 1];
    if (found === undefined)
      throw new WebError(
        404,
        'not_found',
        `There is no comparison ${index}: the inspector was given ${comparisons.length}.`,
      );
    return jsonResponse(found);
  });
}
