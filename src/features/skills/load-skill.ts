import type { Tool } from '../../contracts/tool.js';
import { effectiveSkillMode, skillModeKey, type SkillEntry } from './skill-modes.js';

export const LOAD_SKILL = 'load_skill';

/**
 * Lets the model load a skill it found in the Available skills listing: the skill's mode becomes `loaded` for the
 * session (state `skill:<name>`), so the next request carries its instructions. Offered only while some skill is
 * listed and not yet loaded.
 */
export function loadSkillTool(skills: readonly SkillEntry[]): Tool {
  const listedNames = (state: Readonly<Record<string, unknown>>) =>
    skills.filter((entry) => effectiveSkillMode(entry, state) === 'listed').map((entry) => entry.skill.name);
  return Object.freeze({
    name: LOAD_SKILL,
    description:
      'Loads the full instructions of one of the Available skills, so you can follow them. Call it before doing a task a listed skill covers.',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill name, as listed.' } },
      required: ['name'],
    },
    isAvailable: (state: Readonly<Record<string, unknown>>) => listedNames(state).length > 0,
    execute: (
      args: Record<string, unknown>,
      context: { state: { set(key: string, value: unknown): void; toRecord(): Record<string, unknown> } },
    ) => {
      const name = args['name'];
      const state = context.state.toRecord();
      const entry = skills.find((candidate) => candidate.skill.name === name);
      if (entry === undefined || effectiveSkillMode(entry, state) === 'disabled') {
        return {
          error: `No skill named ${JSON.stringify(name)} can be loaded. Listed skills: ${listedNames(state).join(', ') || 'none'}.`,
        };
      }
      if (effectiveSkillMode(entry, state) === 'loaded')
        return { loaded: entry.skill.name, note: 'It was already loaded; its instructions are in the first message.' };
      context.state.set(skillModeKey(entry.skill.name), 'loaded');
      return {
        loaded: entry.skill.name,
        note: 'Its instructions will be in the first message from your next step on.',
      };
    },
  });
}
