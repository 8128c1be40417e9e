import type { Instruction, Extension, SettingKey } from '../../contracts/agent.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { setting } from '../../engine/extensions/settings.js';

/** The named parts of a sectioned system text; each a template filled from state, like an instruction. */
export type SystemSections = {
  readonly identity?: Instruction;
  readonly toolGuidance?: Instruction;
  readonly runtime?: Instruction;
  readonly userPreferences?: Instruction;
};

/** The sections, with their headings, in their fixed order. */
export const SECTION_HEADINGS: Readonly<Record<keyof SystemSections, string>> = {
  identity: 'Identity',
  toolGuidance: 'Tool guidance',
  runtime: 'Runtime',
  userPreferences: 'User preferences',
};

export const SECTIONS: SettingKey<SystemSections> = Object.freeze({ name: 'sections' });

/**
 * A sectioned system text for an agent (`extensions: [sections({...})]`), written by the `sections` processor of the
 * harness pipeline (`harnessPipeline()`, or `preset: harness` in a file): Identity, Tool guidance, Runtime, User
 * preferences, each under its heading.
 */
export function sections(text: SystemSections): Extension {
  const unknown = Object.keys(text).filter((key) => !(key in SECTION_HEADINGS));
  if (unknown.length > 0) {
    throw new ValidationError({
      subject: 'sections',
      issues: unknown.map((key) => ({
        path: key,
        message: `unknown section; the sections are ${Object.keys(SECTION_HEADINGS).join(', ')}`,
      })),
    });
  }
  return Object.freeze({ name: 'sections', settings: [setting(SECTIONS, Object.freeze({ ...text }))] });
}
