/**
 * @module agentctx/unstable
 * What agentctx uses inside and offers to those who build on it at a lower level, without the promise of the other
 * entries: these names may change in any release. Each provider's wire converters and wire types (the request body
 * an adapter builds, its answer mapped back), the built-in processors one by one, compaction planning, state and
 * model-string helpers, and the reports behind `inspect --cache`, `agentctx tokens` and `agentctx check`.
 */

// From agentctx/pipeline.
export { draftMessage, emptyDraft, joinSystemBlocks } from './engine/assembly/draft.js';
export type { EditTarget, ProcessorTrace, RequestEdit, RequestRemoval } from './contracts/provenance.js';
export { instructionsProcessor } from './features/instructions/instructions.js';
export { readonlyContext } from './features/instructions/readonly-context.js';
export { identityProcessor, identityText } from './features/identity/identity.js';
export { contentsProcessor } from './features/contents/contents-processor.js';
export { finalizeProcessor } from './features/contents/finalize.js';
export { agentTransferProcessor, transferInstructions, transferTargets } from './features/transfer/agent-transfer.js';
export { transferToAgentDeclaration } from './features/transfer/transfer-to-agent.js';
export { toolDeclarationsProcessor } from './features/tools/tool-declarations.js';
export { sectionsProcessor } from './features/sections/sections.js';
export { skillsListingProcessor } from './features/skills/skills-listing.js';
export { contextBlocksProcessor } from './features/context-blocks/context-blocks.js';
export { cloneRequest } from './engine/assembly/request-json.js';
export { reconcileProvenance } from './engine/assembly/reconcile-provenance.js';
export type { Occurrence } from './engine/assembly/find-in-request.js';
export type { FieldDiff } from './engine/assembly/diff-requests.js';

// From agentctx/compaction.
export type { CompactionPlan, SlidingWindow } from './contracts/compaction.js';
export { planDueCompaction } from './engine/compaction/plan-due.js';
export type { DueCompaction, DueCompactionOptions } from './engine/compaction/plan-due.js';
export { planCompaction } from './engine/compaction/plan-compaction.js';
export type { PlanCompactionOptions } from './engine/compaction/plan-compaction.js';
export { planSlidingWindow } from './engine/compaction/sliding-window.js';
export { planTokenCompaction } from './engine/compaction/token-threshold.js';
export type { TokenPlanOptions } from './engine/compaction/token-threshold.js';
export { summarizerInput } from './engine/compaction/compaction-plan.js';
export { latestPromptTokens } from './engine/compaction/prompt-tokens.js';
export { compactionEvent } from './features/compaction/compaction-event.js';
export { renderEvents } from './features/compaction/render-events.js';

// From agentctx/templating.
export { formatDefault, resolveValueFormat } from './features/templating/value-format.js';

// From agentctx/files.
export { parseDocument } from './engine/config/parse-document.js';
export type { ParseDocumentOptions } from './engine/config/parse-document.js';
export { lintAgentTree } from './features/lint/context-lint.js';
export type { ContextWarning, ContextWarningRule, LintOptions } from './features/lint/context-lint.js';

// From agentctx/sessions.
export { emptyActions } from './engine/session/create-event.js';
export { isTempKey, scopeOfKey } from './engine/state/state-keys.js';
export { mergeScopedState, splitStateDelta, withoutTempKeys } from './engine/state/state-delta.js';
export type { SplitStateDelta } from './engine/state/state-delta.js';
export { applyStateOp } from './engine/state/apply-state-op.js';

// From agentctx/cost.
export { explainCacheMiss, explainSessionCache } from './analysis/cache/explain-cache.js';
export type {
  CacheCauseKind,
  CacheExplanation,
  CacheMissCause,
  SessionCacheReport,
  SessionCacheTotals,
} from './analysis/cache/cache-types.js';

// From agentctx/tokens.
export { calibrate } from './engine/tokens/calibration.js';
export type { Calibration, CalibrationRow } from './engine/tokens/calibration.js';

// From agentctx/adk.
export { pythonRepr, pythonStr } from './engine/python/python-format.js';

// From agentctx/mcp.
export type { McpErrorOptions, McpFailure } from './contracts/errors/mcp-error.js';

// From agentctx/telemetry.
export type { SpanAttributes, SpanAttributeValue } from './contracts/telemetry.js';

// From agentctx/models/scripted.
export { toModelResponse } from './models/scripted/scripted-model.js';
export { conditionHolds } from './models/scripted/script.js';

// From agentctx/models/gemini.
export { toGeminiRequest } from './models/gemini/to-gemini-request.js';
export { fromGeminiUsage } from './models/gemini/from-gemini-response.js';
export type { GeminiRequest } from './models/gemini/gemini-wire.js';

// From agentctx/models/anthropic.
export {
  DEFAULT_MAX_TOKENS,
  toAnthropicCountTokensBody,
  toAnthropicMessages,
  toAnthropicRequest,
} from './models/anthropic/to-anthropic-request.js';
export type { ToAnthropicOptions } from './models/anthropic/to-anthropic-request.js';
export type {
  AnthropicBlock,
  AnthropicCountTokensBody,
  AnthropicImageType,
  AnthropicMessage,
  AnthropicRequestBody,
  AnthropicSystemBlock,
  AnthropicTool,
  CacheControl,
} from './models/anthropic/anthropic-wire.js';
export {
  AnthropicStreamAssembler,
  fromAnthropicResponse,
  toUsage,
} from './models/anthropic/from-anthropic-response.js';
export type {
  AnthropicResponse,
  AnthropicResponseBlock,
  AnthropicStreamEvent,
  AnthropicUsage,
} from './models/anthropic/from-anthropic-response.js';

// From agentctx/models/openai.
export { toOpenAIMessages, toOpenAIRequest, toOpenAITool, generatedCallId } from './models/openai/to-openai-request.js';
export type { OpenAIRequestOptions } from './models/openai/to-openai-request.js';
export { openAICacheFields } from './models/openai/openai-prompt-cache.js';
export type { OpenAICacheFields } from './models/openai/openai-prompt-cache.js';
export {
  createStreamAssembler,
  fromOpenAICompletion,
  fromOpenAIUsage,
  parseToolArguments,
} from './models/openai/from-openai-response.js';
export type { StreamAssembler } from './models/openai/from-openai-response.js';
export type {
  OpenAIChunk,
  OpenAICompletion,
  OpenAIContentPart,
  OpenAIMessage,
  OpenAIRequestBody,
  OpenAITool,
  OpenAIToolCall,
} from './models/openai/openai-wire.js';

// From agentctx/models.
export { modelLoadsDeferredTools, modelPairsCallsById } from './models/registry/model-string.js';
export type { ModelSpec } from './models/registry/model-string.js';
export type { ModelMiddlewareCall, WireRequest, WireResponse } from './contracts/model.js';
export { withoutSecrets } from './models/shared/redact-secrets.js';
export { requireApiKey } from './models/shared/credentials.js';
export { isRetryableStatus } from './contracts/errors/model-error.js';

// Helpers of the stable entries' features: file schemas, prices, state names, tool origins, tracing.
export { parseCompactionConfig } from './features/compaction/compaction-config.js';
export { SECTION_HEADINGS } from './features/sections/sections-extension.js';
export { SKILLS_HEADING } from './features/skills/skills-extension.js';
export { agentFileSchema } from './presets/file-schemas.js';
export { caseFileSchema } from './presets/file-schemas.js';
export { isModelCallLog } from './engine/session/call-log-of.js';
export { USER_ARTIFACT_PREFIX } from './engine/session/artifacts.js';
export { artifactTextReader } from './engine/session/artifact-rules.js';
export type { StateRecord } from './engine/state/state-delta.js';
export type { StateOpName } from './contracts/state-op.js';
export type { RunIdentity } from './contracts/contexts.js';
export { priceTableSchema } from './analysis/cost/price-table-schema.js';
export { billedTokens } from './analysis/cost/call-cost.js';
export { resolveProfile } from './engine/profile/profiles.js';
export { isValidStateName } from './engine/python/python-text.js';
export { describeToolOrigin } from './engine/tools/tool-origin.js';
export type { ToolOriginText } from './engine/tools/tool-origin.js';
export { DEFAULT_CATALOGUE_TOKENS } from './features/tool-search/tool-search.js';
export { TRACER_NAME } from './telemetry/open-telemetry.js';
export { scriptFileSchema } from './models/scripted/script-schema.js';
export type { ScriptedCall } from './models/scripted/script.js';

// ADK's planners, as extensions of an agent (`planner:` in an agent file); the API may change with the structured-output issue.
export { builtInPlanner } from './features/planners/built-in-planner.js';
export { planReActPlanner, PLAN_RE_ACT_INSTRUCTION } from './features/planners/plan-re-act.js';
