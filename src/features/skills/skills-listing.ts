import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { settingOf } from '../../engine/extensions/settings.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { effectiveSkillMode } from './skill-modes.js';
import type { Skill } from './skill.js';
import { SKILLS, SKILLS_HEADING } from './skills-extension.js';

export const SKILLS_LISTING_PROCESSOR = 'skills-listing';

/**
 * The Available skills section: one line (`name: description`) per skill that is listed or loaded, in the order the
 * agent offers them; no section at all when there is none, so no unusable skill is advertised. With a budget, skills
 * that do not fit are left out from the end and named in a warning, never silently.
 */
export const skillsListingProcessor: Processor = defineProcessor({
  name: SKILLS_LISTING_PROCESSOR,
  async process(draft, context): Promise<RequestDraft> {
    const agent = context.agent;
    const settings = settingOf(context.extensions, SKILLS);
    const offered = (settings?.entries ?? [])
      .filter((entry) => effectiveSkillMode(entry, context.state) !== 'disabled')
      .map((entry) => entry.skill);
    if (offered.length === 0) return draft;
    const heading = `# ${SKILLS_HEADING}\n\n`;
    let listed = offered;
    const warnings = [...draft.warnings];
    if (settings?.listingBudget !== undefined) {
      const counter = await loadTokenCounter();
      const budget = settings.listingBudget;
      while (listed.length > 0 && counter.count(listing(heading, listed)) > budget) listed = listed.slice(0, -1);
      const cut = offered.slice(listed.length);
      if (cut.length > 0) {
        const needed = counter.count(listing(heading, offered));
        warnings.push(
          `The Available skills listing needs ${needed} tokens, over its budget of ${budget}: left out ${cut.map((skill) => skill.name).join(', ')}. Raise skillListingBudget or offer fewer skills.`,
        );
      }
      if (listed.length === 0) return { ...draft, warnings };
    }
    const source = {
      kind: 'skill-listing' as const,
      processor: SKILLS_LISTING_PROCESSOR,
      agent: agent.name,
      field: `skills: ${listed.map((skill) => skill.name).join(', ')}`,
      ...(listed.length < offered.length
        ? {
            note: `cut to its budget; left out ${offered
              .slice(listed.length)
              .map((skill) => skill.name)
              .join(', ')}`,
          }
        : {}),
    };
    return { ...withSystemBlock(draft, listing(heading, listed), source), warnings };
  },
});

function listing(heading: string, skills: readonly Skill[]): string {
  return `${heading}${skills.map((skill) => `${skill.name}: ${skill.description}`).join('\n')}`;
}
