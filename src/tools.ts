/**
 * @module agentctx/tools
 * The tool-definition side of the context budget: progressive disclosure (`toolSearch()`: tools or whole toolsets
 * marked `deferred` stay out of the request until the model finds them with `search_tools`, BM25 over a compact
 * catalogue), where each definition came from (`describeToolOrigin`, `toolTokensByOrigin`) and a per-agent budget for
 * their tokens (`toolBudget`). Toolsets from MCP servers are in `agentctx/mcp`. A model that holds deferred
 * definitions back itself (`Model.loadsDeferredTools`, as the Anthropic adapter does) receives them in
 * `request.deferredTools`; `referencedDeferredTools` names the ones its messages load, and `withDeferredToolsLoaded`
 * turns such a request into the ordinary form for an adapter that cannot.
 */
export { toolBudget, TOOL_BUDGET_PROCESSOR } from './features/tools/tool-budget.js';
export type { ToolBudgetOptions } from './features/tools/tool-budget.js';
export { toolTokensByOrigin } from './engine/tools/tool-origin.js';
export type { ToolsetContext, ToolsetListing } from './contracts/tool.js';
export { SEARCH_TOOLS, TOOL_SEARCH, toolSearch } from './features/tool-search/tool-search.js';
export type { ToolSearch, ToolSearchOptions } from './features/tool-search/tool-search.js';
export type { ToolSearchScope } from './features/tool-search/loaded-tools.js';
