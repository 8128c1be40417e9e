/**
 * @module agentctx
 * The core: data model, state and templating, session and artifact stores in memory.
 */
export { AgentctxError } from './core/errors/agentctx-error.js';
export type { AgentctxErrorCode } from './core/errors/agentctx-error.js';
export { ConflictError } from './core/errors/conflict-error.js';
export { NotFoundError } from './core/errors/not-found-error.js';
export { TemplateError } from './core/errors/template-error.js';
export type { TemplateErrorCode } from './core/errors/template-error.js';
export { UsageError } from './core/errors/usage-error.js';
export { ValidationError } from './core/errors/validation-error.js';
export type { ValidationIssue } from './core/errors/validation-error.js';

export { parseDocument } from './core/config/parse-document.js';
export type { ParseDocumentOptions } from './core/config/parse-document.js';

export { isFunctionCallPart, isFunctionResponsePart, isTextPart } from './core/session/content.js';
export type {
  Content,
  FileDataPart,
  FunctionCall,
  FunctionCallPart,
  FunctionResponse,
  FunctionResponsePart,
  InlineDataPart,
  Part,
  Role,
  TextPart,
} from './core/session/content.js';
export { emptyActions } from './core/session/event.js';
export type { Event, EventActions, EventCompaction, EventInput, Usage } from './core/session/event.js';
export { createEvent } from './core/session/create-event.js';
export { SESSION_SCHEMA_VERSION } from './core/session/session.js';
export type { Session, SessionKey } from './core/session/session.js';
export { parseEvent, parseEvents } from './core/session/decode-event.js';
export { eventToJson, parseSession, sessionToJson } from './core/session/session-json.js';
export type { SessionJson } from './core/session/session-json.js';
export type {
  AppendEventInput,
  CreateSessionInput,
  GetSessionInput,
  ListSessionsInput,
  SessionStore,
  StoreClock,
} from './core/session/session-store.js';
export { createInMemorySessionStore } from './core/session/in-memory-session-store.js';

export { artifactAsText, binaryArtifact, textArtifact, USER_ARTIFACT_PREFIX } from './core/session/artifact.js';
export type { Artifact, ArtifactKey, BinaryArtifact, StoredArtifact, TextArtifact } from './core/session/artifact.js';
export type { ArtifactStore } from './core/session/artifact-store.js';
export { artifactTextReader, recordTextReader } from './core/session/artifact-rules.js';
export { createInMemoryArtifactStore } from './core/session/in-memory-artifact-store.js';

export { APP_PREFIX, isTempKey, scopeOfKey, TEMP_PREFIX, USER_PREFIX } from './core/state/state-keys.js';
export type { StateScope } from './core/state/state-keys.js';
export { mergeScopedState, splitStateDelta, withoutTempKeys } from './core/state/state-delta.js';
export type { SplitStateDelta, StateRecord } from './core/state/state-delta.js';
export { State } from './core/state/state.js';
export { isPythonIdentifier, isValidStateName, pythonStrip } from './core/state/python-text.js';

export { injectState, renderTemplate } from './core/state/template/inject-state.js';
export type { ArtifactTextReader, RenderedTemplate, Substitution, TemplateOptions } from './core/state/template/inject-state.js';
export { checkTemplate } from './core/state/template/check-template.js';
export type {
  CheckTemplateOptions,
  PlaceholderStatus,
  TemplateLiteral,
  TemplateNote,
  TemplatePlaceholder,
  TemplateReport,
} from './core/state/template/check-template.js';
export { scanTemplate } from './core/state/template/scan-template.js';
export type { PlaceholderTarget, ScanOptions, TemplateToken } from './core/state/template/scan-template.js';
export { formatDefault, resolveValueFormat } from './core/state/template/value-format.js';
export type { ValueFormat, ValueFormatter } from './core/state/template/value-format.js';
export { pythonRepr, pythonStr, reprFloat } from './core/state/template/python-format.js';
export { PyFloat, pyFloat, PyTuple, pyTuple } from './core/state/template/python-values.js';

export { llmAgent, loopAgent, parallelAgent, sequentialAgent } from './core/agent/define-agent.js';
export type { LlmAgentConfig, WorkflowAgentConfig } from './core/agent/define-agent.js';
export { isLlmAgent } from './core/agent/agent.js';
export type {
  AgentDefinition,
  Instruction,
  InstructionProvider,
  LlmAgentDefinition,
  StaticInstruction,
  WorkflowAgentDefinition,
} from './core/agent/agent.js';
export type { ReadonlyContext, ReadonlyState, RunIdentity } from './core/agent/readonly-context.js';
export { createAgentTree } from './core/agent/agent-tree.js';
export type { AgentNode, AgentTree } from './core/agent/agent-tree.js';
export { agentFromConfig } from './core/agent/agent-config.js';
export type { AgentConfigOptions } from './core/agent/agent-config.js';
export { isFinalResponse, outputKeyDelta } from './core/agent/output-key.js';
export { assembleCase, parseCaseFile } from './core/config/case-file.js';
export type { CaseFile, CaseFileOptions } from './core/config/case-file.js';

export { ProcessorError } from './core/errors/processor-error.js';
export { declareTool, isValidToolName, toolDeclaration } from './core/tools/tool.js';
export type { Tool } from './core/tools/tool.js';
export { TRANSFER_TO_AGENT, transferToAgentDeclaration } from './core/tools/transfer-to-agent.js';

export { assembleRequest } from './core/request/assemble.js';
export type { AssembledRequest, AssembleOptions } from './core/request/assemble.js';
export { cloneRequest, requestToJson } from './core/request/request.js';
export type { JsonSchema, LlmRequest, Message, RequestConfig, ToolDeclaration } from './core/request/request.js';
export type { Source, SourceKind, SourceSubstitution } from './core/request/source.js';
export { draftMessage, emptyDraft, joinSystemBlocks, withSystemBlock, withTool } from './core/request/draft.js';
export type { DraftMessage, DraftTool, RequestDraft, SystemBlock } from './core/request/draft.js';
export { defineProcessor } from './core/request/processor.js';
export type { AssemblyContext, Processor } from './core/request/processor.js';
export { checkPipeline, insertProcessor, removeProcessor, replaceProcessor } from './core/request/pipeline.js';
export type { ProcessorPosition } from './core/request/pipeline.js';
export type { Provenance, ProcessorTrace } from './core/request/provenance.js';
export { findInRequest, searchableText } from './core/request/find-in-request.js';
export type { Occurrence } from './core/request/find-in-request.js';

export { defaultPipeline } from './core/processors/default-pipeline.js';
export { AGENT_TRANSFER_PROCESSOR, agentTransferProcessor, transferInstructions, transferTargets } from './core/processors/agent-transfer.js';
export { CONTENTS_PROCESSOR, contentsProcessor } from './core/processors/contents.js';
export { buildContents, insertInstructionMessages } from './core/processors/contents/build-contents.js';
export { isOtherAgentReply } from './core/processors/contents/other-agent.js';
export { FINALIZE_PROCESSOR, finalizeProcessor } from './core/processors/finalize.js';
export { IDENTITY_PROCESSOR, identityProcessor, identityText } from './core/processors/identity.js';
export { INSTRUCTIONS_PROCESSOR, instructionsProcessor } from './core/processors/instructions.js';
export { TOOLS_PROCESSOR, toolDeclarationsProcessor } from './core/processors/tool-declarations.js';

export { firstResult } from './core/agent/callbacks.js';
export type {
  AfterAgentCallback,
  AfterModelCallback,
  AfterToolCallback,
  AgentCallbacks,
  BeforeAgentCallback,
  BeforeModelCallback,
  BeforeToolCallback,
} from './core/agent/callbacks.js';
export type { CallbackContext, SessionArtifacts, ToolActions, ToolContext } from './core/agent/contexts.js';
export type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from './core/model/model.js';
export type { ModelCallRecord, ModelCallSummary } from './core/session/model-call.js';
export { createRunner } from './core/runner/runner.js';
export type { Runner, RunnerOptions, RunInput } from './core/runner/runner.js';
export type { RunnerStats } from './core/runner/invocation.js';
export { findAgentToRun } from './core/runner/find-agent-to-run.js';
export { functionTool } from './core/tools/function-tool.js';
export type { FunctionToolConfig, StandardSchema } from './core/tools/function-tool.js';
export { agentTool } from './core/tools/agent-tool.js';
export type { ArgsCheck } from './core/tools/tool.js';

export { ModelError, isRetryableStatus } from './core/errors/model-error.js';
export type { ModelErrorOptions } from './core/errors/model-error.js';
export { withRetries } from './core/model/retry.js';
export { withoutSecrets } from './core/model/redact-secrets.js';
export type { RetryOptions } from './core/model/retry.js';
export { parseModelString } from './core/model/model-string.js';
export type { ModelSpec } from './core/model/model-string.js';
export { requireApiKey } from './core/model/credentials.js';
export type { ProviderSettings } from './core/model/credentials.js';
export { loadTokenCounter } from './core/tokens/token-counter.js';
export type { TokenCounter } from './core/tokens/token-counter.js';
export { countRequestTokens } from './core/tokens/count-request-tokens.js';
export type { RequestTokenCount } from './core/tokens/count-request-tokens.js';
export { calibrate } from './core/tokens/calibration.js';
export type { Calibration, CalibrationRow } from './core/tokens/calibration.js';

export { checkSkill, parseSkillFile, SKILL_MODES } from './core/context/skill.js';
export type { Skill, SkillMode } from './core/context/skill.js';
export type { MemoryFile, MemoryMode } from './core/context/memory.js';
export { effectiveMemoryMode, effectiveSkillMode, memoryModeKey, skillModeKey } from './core/context/agent-context.js';
export type { MemoryEntry, SkillEntry } from './core/context/agent-context.js';
export type { SystemSections } from './core/agent/agent.js';
export type { AgentFiles } from './core/agent/agent-config.js';
export { harnessPipeline } from './core/processors/default-pipeline.js';
export { SECTIONS_PROCESSOR, sectionsProcessor } from './core/processors/sections.js';
export { SKILLS_LISTING_PROCESSOR, skillsListingProcessor } from './core/processors/skills-listing.js';
export { CONTEXT_BLOCKS_PROCESSOR, contextBlocksProcessor } from './core/processors/context-blocks.js';
export { LOAD_SKILL, loadSkillTool } from './core/tools/load-skill.js';
export { diffRequests } from './core/request/diff-requests.js';
export type { FieldDiff, RequestDiff } from './core/request/diff-requests.js';
export { ContentsCache } from './core/processors/contents/contents-cache.js';
export { paging } from './core/paging/paging.js';
export type { Paging, PagingOptions } from './core/paging/paging.js';

export { parseCompactionConfig, TokenBasedContextCompactor } from './core/compaction/compaction-config.js';
export type { EventsCompactionConfig } from './core/compaction/compaction-config.js';
export type { SummarizeOptions, Summarizer, Summary } from './core/compaction/summarizer.js';
export { ADK_SUMMARY_PROMPT, DEFAULT_SUMMARY_PROMPT, LlmSummarizer } from './core/compaction/llm-summarizer.js';
export type { LlmSummarizerOptions } from './core/compaction/llm-summarizer.js';
export { ExtractiveSummarizer } from './core/compaction/extractive-summarizer.js';
export type { ExtractiveSummarizerOptions } from './core/compaction/extractive-summarizer.js';
export { summarizerInput } from './core/compaction/compaction-plan.js';
export type { CompactionPlan, CompactionTrigger } from './core/compaction/compaction-plan.js';
export { planCompaction } from './core/compaction/plan-compaction.js';
export type { PlanCompactionOptions } from './core/compaction/plan-compaction.js';
export { planSlidingWindow } from './core/compaction/sliding-window.js';
export type { SlidingWindow } from './core/compaction/sliding-window.js';
export { planTokenCompaction } from './core/compaction/token-threshold.js';
export type { TokenPlanOptions, TokenTrigger } from './core/compaction/token-threshold.js';
export { compactionEvent } from './core/compaction/compaction-event.js';
export { estimatePromptTokensAdk, latestPromptTokens } from './core/compaction/prompt-tokens.js';
export { renderEvents } from './core/compaction/render-events.js';
export { SUMMARY_HEADING } from './core/processors/contents/compaction-view.js';
export type { CompactionView } from './core/processors/contents/compaction-view.js';
