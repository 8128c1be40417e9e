/**
 * @module agentctx/models/scripted
 * A deterministic model that answers from a script: the offline model for examples, demos and tests.
 */
export { createScriptedModel } from './scripted-model.js';
export type { ScriptedModel } from './scripted-model.js';
export { parseScript } from './parse-script.js';
export { lastUserText } from './script.js';
export type { RuleCondition, Script, ScriptCall, ScriptedResponse, ScriptRule } from './script.js';
