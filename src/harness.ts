/**
 * @module agentctx/harness
 * A harness's context, as extensions of an agent: a sectioned system text (`sections`, run by `harnessPipeline()`),
 * Agent Skills that are disabled, listed or loaded (`skills`, with the `load_skill` tool), and memory files switched
 * on or off (`memory`); a session switches skills and memory with state `skill:<name>` and `memory:<name>`.
 */
export { sections, SECTIONS } from './features/sections/sections-extension.js';
export type { SystemSections } from './features/sections/sections-extension.js';
export { skills, SKILLS } from './features/skills/skills-extension.js';
export type { SkillsOptions, SkillsSettings } from './features/skills/skills-extension.js';
export { skillModeKey } from './features/skills/skill-modes.js';
export type { SkillEntry } from './features/skills/skill-modes.js';
export { checkSkill, parseSkillFile, SKILL_MODES } from './features/skills/skill.js';
export type { Skill, SkillMode } from './features/skills/skill.js';
export { LOAD_SKILL, loadSkillTool } from './features/skills/load-skill.js';
export { memoryFileModeKey, memoryFiles, MEMORY_FILES } from './features/memory-files/memory-files.js';
export type { MemoryFileEntry } from './features/memory-files/memory-files.js';
export type { MemoryFile, MemoryFileMode } from './features/memory-files/memory-file.js';
export { harnessPipeline } from './presets/pipelines.js';
