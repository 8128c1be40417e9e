import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { settingOf } from '../../engine/extensions/settings.js';
import { resolveInstruction } from '../instructions/resolve-instruction.js';
import { SECTION_HEADINGS, SECTIONS } from './sections-extension.js';

export const SECTIONS_PROCESSOR = 'sections';

const ORDER = ['identity', 'toolGuidance', 'runtime', 'userPreferences'] as const;

/**
 * The sectioned system text: Identity, Tool guidance, Runtime, User preferences, in that order, each its heading
 * and its body (filled from state like an instruction) separated by a blank line. Each section stays its own
 * block, so provenance keeps the boundary between sources even inside one system text.
 */
export const sectionsProcessor: Processor = defineProcessor({
  name: SECTIONS_PROCESSOR,
  async process(draft, context): Promise<RequestDraft> {
    const sections = settingOf(context.extensions, SECTIONS);
    if (sections === undefined) return draft;
    let next = draft;
    for (const key of ORDER) {
      const template = sections[key];
      if (template === undefined) continue;
      const resolved = await resolveInstruction(template, context);
      const heading = `# ${SECTION_HEADINGS[key]}\n\n`;
      const substitutions = resolved.substitutions.map((substitution) => ({
        ...substitution,
        start: substitution.start + heading.length,
        end: substitution.end + heading.length,
      }));
      next = withSystemBlock(next, `${heading}${resolved.text}`, {
        kind: 'section',
        processor: SECTIONS_PROCESSOR,
        agent: context.agent.name,
        field: `sections.${key}`,
        ...(substitutions.length === 0 ? {} : { substitutions }),
      });
    }
    return next;
  },
});
