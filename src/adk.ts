/**
 * @module agentctx/adk
 * For ADK users: ADK's profile (`createRunner({ profile: 'adk' })` reproduces ADK Python byte for byte), Python's
 * values and `str()`/`repr()` for state that must print as ADK prints it, ADK's identifier rules, and its token
 * estimate and summary prompt.
 */
export { adkProfile, agentctxProfile, deriveProfile, resolveProfile } from './engine/profile/profiles.js';
export { pythonRepr, pythonStr } from './engine/python/python-format.js';
export { PyFloat, pyFloat, PyTuple, pyTuple } from './engine/python/python-values.js';
export { isPythonIdentifier, isValidStateName, pythonStrip } from './engine/python/python-text.js';
export { ADK_SUMMARY_PROMPT } from './features/compaction/llm-summarizer.js';
export { estimatePromptTokensAdk } from './features/compaction/measure-prompt.js';
