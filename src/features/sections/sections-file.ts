import type { AgentFileField } from '../../contracts/agent-file-field.js';
import { joinPath } from '../../engine/util/json-reader.js';
import { SECTION_HEADINGS, sections, type SystemSections } from './sections-extension.js';

const SECTION_KEYS = Object.keys(SECTION_HEADINGS) as (keyof SystemSections)[];

/** `sections:` in an agent file: a mapping of identity, toolGuidance, runtime, userPreferences to templates. */
export const sectionsField: AgentFileField = {
  schema: {
    sections: {
      type: 'object',
      properties: Object.fromEntries(
        SECTION_KEYS.map((key) => [
          key,
          { type: 'string', description: `the "${SECTION_HEADINGS[key]}" section, a template` },
        ]),
      ),
      additionalProperties: false,
      description:
        'The harness preset\u2019s sectioned system text: identity, toolGuidance, runtime, userPreferences, each a template.',
      examples: [
        { identity: 'You are a documentation assistant.', toolGuidance: 'Read a file before proposing an edit to it.' },
      ],
    },
  },
  read({ reader, record, path }) {
    const at = joinPath(path, 'sections');
    const value = reader.object(
      record['sections'],
      at,
      'a mapping of identity, toolGuidance, runtime, userPreferences',
    );
    if (value === undefined) return {};
    reader.keys(value, at, SECTION_KEYS);
    const read: Record<string, string> = {};
    for (const key of SECTION_KEYS) {
      const text = reader.string(value, key, at, { optional: true });
      if (text !== undefined) read[key] = text;
    }
    return { extensions: [sections(read)] };
  },
};
