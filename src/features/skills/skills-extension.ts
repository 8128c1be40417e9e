import type { Extension, SettingKey } from '../../contracts/agent.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import { setting } from '../../engine/extensions/settings.js';
import { loadSkillTool } from './load-skill.js';
import type { SkillEntry } from './skill-modes.js';
import { checkSkill, SKILL_MODES } from './skill.js';

/** What the skills processors read: the skills offered, in order, and the listing's token budget. */
export type SkillsSettings = {
  readonly entries: readonly SkillEntry[];
  /** Budget in tokens for the Available skills listing; skills beyond it are left out and reported, never silently. */
  readonly listingBudget?: number;
};

export const SKILLS: SettingKey<SkillsSettings> = Object.freeze({ name: 'skills' });

export type SkillsOptions = {
  /** Budget in tokens for the Available skills listing. */
  listingBudget?: number;
  /** Offer the `load_skill` tool, so the model can load a listed skill itself. */
  loadTool?: boolean;
};

export const SKILLS_HEADING = 'Available skills';

/**
 * Skills for an agent (`extensions: [skills([...])]`): `listed` ones in the Available skills section of the system
 * text, `loaded` ones' instructions at the start of the first user message, `disabled` ones nowhere; a session
 * switches one with state `skill:<name>`. Checked here: the Agent Skills format, modes, each skill once, the budget.
 */
export function skills(entries: readonly SkillEntry[], options: SkillsOptions = {}): Extension {
  const issues: ValidationIssue[] = [];
  const names = new Set<string>();
  entries.forEach((entry, index) => {
    for (const issue of checkSkill(entry.skill))
      issues.push({ path: `[${index}].${issue.path}`, message: issue.message });
    if (!SKILL_MODES.includes(entry.mode))
      issues.push({
        path: `[${index}].mode`,
        message: `expected ${SKILL_MODES.join(', ')}, got '${String(entry.mode)}'`,
      });
    if (names.has(entry.skill.name))
      issues.push({ path: `[${index}]`, message: `skill '${entry.skill.name}' is offered twice` });
    names.add(entry.skill.name);
  });
  const budget = options.listingBudget;
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 1))
    issues.push({ path: 'listingBudget', message: `expected a whole number of tokens ≥ 1, got ${String(budget)}` });
  if (issues.length > 0) throw new ValidationError({ subject: 'skills', issues });
  const frozen = Object.freeze([...entries]);
  return Object.freeze({
    name: 'skills',
    settings: [
      setting(SKILLS, Object.freeze({ entries: frozen, ...(budget === undefined ? {} : { listingBudget: budget }) })),
    ],
    ...(options.loadTool === true ? { tools: [loadSkillTool(frozen)] } : {}),
  });
}
