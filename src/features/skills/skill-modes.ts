import type { Skill, SkillMode } from './skill.js';

/** A skill offered to an agent, with its mode unless the session's state says otherwise (`skill:<name>`). */
export type SkillEntry = { readonly skill: Skill; readonly mode: SkillMode };

/** The state key that switches a skill's mode for one session. */
export function skillModeKey(name: string): string {
  return `skill:${name}`;
}

/** A skill's mode for this request: the session's choice when it made one, else the configured one. */
export function effectiveSkillMode(entry: SkillEntry, state: Readonly<Record<string, unknown>>): SkillMode {
  const chosen = state[skillModeKey(entry.skill.name)];
  return chosen === 'disabled' || chosen === 'listed' || chosen === 'loaded' ? chosen : entry.mode;
}
