/**
 * @module agentctx/pipeline
 * Request assembly: the pipelines and their processors, the draft they build, where every part came from, and the
 * means to extend them (extension settings, the session memo). Use it to insert a processor of your own, read a
 * request's provenance, or compare two requests.
 */
export { defaultPipeline, harnessPipeline } from './presets/pipelines.js';
export { checkPipeline, defineProcessor, insertProcessor, removeProcessor, replaceProcessor } from './engine/pipeline/pipeline.js';
export type { ProcessorPosition } from './engine/pipeline/pipeline.js';
export type { AssemblyContext, CustomAgentContext, CustomAgentReply, LlmAgentNode, Processor, ProcessorPlacement, Setting, SettingKey } from './contracts/agent.js';
export type { CustomAgentConfig } from './engine/agent/define-agent.js';
export { draftMessage, emptyDraft, joinSystemBlocks, withLeadingSystemBlock, withSystemBlock, withTool } from './engine/assembly/draft.js';
export type { DraftMessage, DraftTool, RequestDraft, SystemBlock } from './contracts/draft.js';
export type { EditTarget, ProcessorTrace, Provenance, RequestEdit, RequestRemoval } from './contracts/provenance.js';
export type { Source, SourceKind, SourceSubstitution, ToolOrigin } from './contracts/source.js';
export { setting, settingOf } from './engine/extensions/settings.js';
export { createSessionMemo } from './engine/extensions/memo.js';
export type { MemoKey, SessionMemo } from './contracts/memo.js';

export { INSTRUCTIONS_PROCESSOR, instructionsProcessor } from './features/instructions/instructions.js';
export { readonlyContext } from './features/instructions/readonly-context.js';
export { IDENTITY_PROCESSOR, identityProcessor, identityText } from './features/identity/identity.js';
export { CONTENTS_PROCESSOR, contentsProcessor } from './features/contents/contents-processor.js';
export { FINALIZE_PROCESSOR, finalizeProcessor } from './features/contents/finalize.js';
export { AGENT_TRANSFER_PROCESSOR, agentTransferProcessor, transferInstructions, transferTargets } from './features/transfer/agent-transfer.js';
export { TRANSFER_TO_AGENT, transferToAgentDeclaration } from './features/transfer/transfer-to-agent.js';
export { TOOLS_PROCESSOR, toolDeclarationsProcessor } from './features/tools/tool-declarations.js';
export { SECTIONS_PROCESSOR, sectionsProcessor } from './features/sections/sections.js';
export { SKILLS_LISTING_PROCESSOR, skillsListingProcessor } from './features/skills/skills-listing.js';
export { CONTEXT_BLOCKS_PROCESSOR, contextBlocksProcessor } from './features/context-blocks/context-blocks.js';

export { cloneRequest, requestToJson } from './engine/assembly/request-json.js';
export { findInRequest } from './engine/assembly/find-in-request.js';
export { searchableText } from './engine/assembly/part-text.js';
export { reconcileProvenance } from './engine/assembly/reconcile-provenance.js';
export { editsIn, partPieces, sourceAt, systemPieces, toolDescriptionPieces } from './engine/assembly/provenance-pieces.js';
export type { TextPiece } from './engine/assembly/provenance-pieces.js';
export type { Occurrence } from './engine/assembly/find-in-request.js';
export { diffRequests } from './engine/assembly/diff-requests.js';
export type { FieldDiff, RequestDiff } from './engine/assembly/diff-requests.js';
export type { BuiltInTool, JsonSchema, Message, SafetySetting, ThinkingConfig, ToolChoice } from './contracts/request.js';
