/**
 * @module agentctx/workspace
 * Files on disk for agents: the workspace tools Read and Edit, skills folders and memory files.
 */
export { readMemoryFile, readSkillsFolder } from './skill-files.js';
export { workspaceTools } from './workspace-tools.js';
export type { WorkspaceToolsOptions } from './workspace-tools.js';
