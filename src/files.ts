/**
 * @module agentctx/files
 * The declarative forms: agent files (YAML or JSON, camelCase or ADK's snake_case, with agentctx's feature keys)
 * and case files (an agent, a session and who is asked, assembled without running anything).
 */
export { agentFileFields, agentFromConfig } from './presets/agent-files.js';
export type { AgentFileOptions, AgentFiles } from './presets/agent-files.js';
export type {
  AgentFileField,
  AgentFileFieldInput,
  AgentFileFieldResult,
  FieldReader,
} from './contracts/agent-file-field.js';
export { assembleCase, parseCaseFile } from './presets/case-file.js';
export type { AssembleCaseOptions, CaseFile, CaseFileOptions } from './presets/case-file.js';
