/**
 * @module agentctx/pipeline
 * Request assembly: the pipelines and their processors, the draft they build, where every part came from, and the
 * means to extend them (extension settings, the session memo). Use it to insert a processor of your own, read a
 * request's provenance, or compare two requests.
 */
export { defaultPipeline } from './presets/pipelines.js';
export {
  checkPipeline,
  defineProcessor,
  insertProcessor,
  removeProcessor,
  replaceProcessor,
} from './engine/pipeline/pipeline.js';
export type { ProcessorPosition } from './engine/pipeline/pipeline.js';
export type {
  AssemblyContext,
  CustomAgentContext,
  CustomAgentReply,
  LlmAgentNode,
  Processor,
  ProcessorPlacement,
  Setting,
  SettingKey,
} from './contracts/agent.js';
export type { CustomAgentConfig } from './engine/agent/define-agent.js';
export { withLeadingSystemBlock, withSystemBlock, withTool } from './engine/assembly/draft.js';
export type { DraftMessage, DraftTool, RequestDraft, SystemBlock } from './contracts/draft.js';
export type { Provenance } from './contracts/provenance.js';
export type { Source, SourceKind, SourceSubstitution, ToolOrigin } from './contracts/source.js';
export { setting, settingOf } from './engine/extensions/settings.js';
export { createSessionMemo } from './engine/extensions/memo.js';
export type { MemoKey, SessionMemo } from './contracts/memo.js';

export { INSTRUCTIONS_PROCESSOR } from './features/instructions/instructions.js';
export { IDENTITY_PROCESSOR } from './features/identity/identity.js';
export { CONTENTS_PROCESSOR } from './features/contents/contents-processor.js';
export { FINALIZE_PROCESSOR } from './features/contents/finalize.js';
export { AGENT_TRANSFER_PROCESSOR } from './features/transfer/agent-transfer.js';
export { TRANSFER_TO_AGENT } from './features/transfer/transfer-to-agent.js';
export { TOOLS_PROCESSOR } from './features/tools/tool-declarations.js';
export { SECTIONS_PROCESSOR } from './features/sections/sections.js';
export { SKILLS_LISTING_PROCESSOR } from './features/skills/skills-listing.js';
export { CONTEXT_BLOCKS_PROCESSOR } from './features/context-blocks/context-blocks.js';

export { requestToJson } from './engine/assembly/request-json.js';
export { findInRequest } from './engine/assembly/find-in-request.js';
export { diffRequests } from './engine/assembly/diff-requests.js';
export type { RequestDiff } from './engine/assembly/diff-requests.js';
export type {
  BuiltInTool,
  JsonSchema,
  Message,
  SafetySetting,
  ThinkingConfig,
  ToolChoice,
} from './contracts/request.js';
