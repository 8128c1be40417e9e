/**
 * @module agentctx/adk
 * For ADK users: ADK's profile (`createRunner({ profile: 'adk' })` reproduces ADK Python byte for byte), Python's
 * values and `str()`/`repr()` for state that must print as ADK prints it, ADK's identifier rules, and its token
 * estimate and summary prompt.
 */
export { adkProfile, agentctxProfile } from './engine/profile/profiles.js';
export { PyFloat, pyFloat, PyTuple, pyTuple } from './engine/python/python-values.js';
export { ADK_SUMMARY_PROMPT } from './features/compaction/llm-summarizer.js';
