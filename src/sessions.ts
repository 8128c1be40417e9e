/**
 * @module agentctx/sessions
 * The data model in detail, for store and adapter authors: every part and event type, their validated JSON form,
 * state scopes and deltas, artifact helpers, and the store contract's inputs.
 */
export type {
  CodeExecutionResultPart,
  ExecutableCodePart,
  FileDataPart,
  FunctionCall,
  FunctionCallPart,
  FunctionResponse,
  FunctionResponsePart,
  InlineDataPart,
  ProviderMetadata,
  Role,
  TextPart,
} from './contracts/content.js';
export { isFunctionCallPart, isFunctionResponsePart, isTextPart } from './engine/session/parts.js';
export type { EventCompaction, EventInput } from './contracts/event.js';
export { parseEvent, parseEvents } from './engine/session/decode-event.js';
export { eventToJson, parseSession, SESSION_SCHEMA_VERSION, sessionToJson } from './engine/session/session-json.js';
export type { SessionJson } from './engine/session/session-json.js';
export type { SessionKey } from './contracts/session.js';
export type {
  AppendEventInput,
  CreateSessionInput,
  GetSessionInput,
  ListSessionsInput,
  SessionStoreWithCallLog,
  StoreClock,
} from './contracts/session-store.js';
export type { ModelCallLog, ModelCallReader } from './contracts/model-call-log.js';
export { createInMemoryModelCallLog } from './engine/session/in-memory-call-log.js';
export type {
  ModelCallOutcome,
  ModelCallParent,
  ModelCallStatus,
  ModelCallSummary,
  NewModelCall,
  RecordedResponse,
  WireRecord,
} from './contracts/model-call.js';
export type { ArtifactKey, BinaryArtifact, StoredArtifact, TextArtifact } from './contracts/artifact.js';
export { artifactAsText } from './engine/session/artifacts.js';
export { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from './engine/state/state-keys.js';
export type { StateScope } from './engine/state/state-keys.js';
export { State } from './engine/state/state.js';
export type { StateOp } from './contracts/state-op.js';
export type { ReadonlyState, SessionState } from './contracts/contexts.js';
