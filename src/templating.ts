/**
 * @module agentctx/templating
 * ADK's instruction templating: `{key}`, `{key?}`, `{app:key}`, `{user:key}`, `{temp:key}`, `{artifact.name}`,
 * filled exactly as ADK fills them, with where each value landed, and checked before anything runs.
 */
export { injectState, renderTemplate } from './features/templating/inject-state.js';
export type { RenderedTemplate, Substitution, TemplateOptions } from './features/templating/inject-state.js';
export { checkTemplate } from './features/templating/check-template.js';
export type {
  CheckTemplateOptions,
  PlaceholderStatus,
  TemplateLiteral,
  TemplateNote,
  TemplatePlaceholder,
  TemplateReport,
} from './features/templating/check-template.js';
export type { PlaceholderTarget } from './features/templating/scan-template.js';
export type { ValueFormat, ValueFormatter } from './contracts/profile.js';
export type { ArtifactTextReader } from './contracts/artifact.js';
export type { TemplateErrorCode } from './contracts/errors/template-error.js';
