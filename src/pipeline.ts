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

export { PROCESSOR_NAMES } from './presets/pipelines.js';
export { TRANSFER_TO_AGENT } from './features/transfer/transfer-to-agent.js';

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
