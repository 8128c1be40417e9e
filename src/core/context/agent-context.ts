import type { MemoryFile, MemoryMode } from './memory.js';
import type { Skill, SkillMode } from './skill.js';

/** A skill offered to an agent, with its mode unless the session's state says otherwise (`skill:<name>`). */
export type SkillEntry = { readonly skill: Skill; readonly mode: SkillMode };

/** A memory file offered to an agent, on or off unless the session's state says otherwise (`memory:<name>`). */
export type MemoryEntry = { readonly file: MemoryFile; readonly mode: MemoryMode };

/** The sections of a sectioned system text, with their headings, in their fixed order. */
export const SECTION_HEADINGS: Readonly<Record<'identity' | 'toolGuidance' | 'runtime' | 'userPreferences', string>> = {
  identity: 'Identity',
  toolGuidance: 'Tool guidance',
  runtime: 'Runtime',
  userPreferences: 'User preferences',
};

export const SKILLS_HEADING = 'Available skills';

/** The state key that switches a skill's mode for one session. */
export function skillModeKey(name: string): string {
  return `skill:${name}`;
}

/** The state key that switches a memory file on or off for one session. */
export function memoryModeKey(name: string): string {
  return `memory:${name}`;
}

/** A skill's mode for this request: the session's choice when it made one, else the configured one. */
export function effectiveSkillMode(entry: SkillEntry, state: Readonly<Record<string, unknown>>): SkillMode {
  const chosen = state[skillModeKey(entry.skill.name)];
  return chosen === 'disabled' || chosen === 'listed' || chosen === 'loaded' ? chosen : entry.mode;
}

export function effectiveMemoryMode(entry: MemoryEntry, state: Readonly<Record<string, unknown>>): MemoryMode {
  const chosen = state[memoryModeKey(entry.file.name)];
  return chosen === 'on' || chosen === 'off' ? chosen : entry.mode;
}
