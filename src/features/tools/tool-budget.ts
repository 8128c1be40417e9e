import type { Extension } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { countToolTokens } from '../../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { toolTokensByOrigin } from '../../engine/tools/tool-origin.js';

export const TOOL_BUDGET_PROCESSOR = 'tool_budget';

export type ToolBudgetOptions = {
  /** The most tokens (local count, o200k) the tool definitions of one request should take. */
  maxTokens: number;
};

/**
 * A budget for an agent's tool definitions (or, as a plugin, every agent's): a request whose definitions take more
 * tokens gets a warning (`inspect`, the web view and `agentctx check` show it) naming the total, the budget and
 * what takes the most — each MCP server, toolset, extension and the agent's own tools, largest first. It changes
 * nothing in the request: defer the large toolsets (`deferred: true` with `toolSearch()`) or filter them.
 */
export function toolBudget(options: ToolBudgetOptions): Extension {
  const max = options?.maxTokens;
  if (!Number.isInteger(max) || max < 1) {
    throw new ValidationError({
      subject: 'tool budget',
      issues: [{ path: 'maxTokens', message: `expected a whole number of tokens ≥ 1, got ${String(max)}` }],
    });
  }
  return {
    name: TOOL_BUDGET_PROCESSOR,
    processors: [
      {
        at: 'end',
        processor: defineProcessor({
          name: TOOL_BUDGET_PROCESSOR,
          async process(draft: RequestDraft): Promise<RequestDraft> {
            if (draft.tools.length === 0) return draft;
            const counter = await loadTokenCounter();
            const tokens = draft.tools.map((tool) => countToolTokens(tool.declaration, counter));
            const total = tokens.reduce((sum, value) => sum + value, 0);
            if (total <= max) return draft;
            const groups = toolTokensByOrigin(
              draft.tools.map((tool) => tool.source),
              tokens,
            );
            const largest = groups
              .map((group) => `${group.group} ${group.tokens} (${group.tools} tool${group.tools === 1 ? '' : 's'})`)
              .join(', ');
            const warning = `tool definitions take ${total} tokens, over this agent's budget of ${max}: ${largest}. Defer the largest (deferred: true with toolSearch()) or filter their tools.`;
            return { ...draft, warnings: [...draft.warnings, warning] };
          },
        }),
      },
    ],
  };
}
