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
