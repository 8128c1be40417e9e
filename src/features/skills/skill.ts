import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import { parseDocument } from '../../engine/config/parse-document.js';

/** A skill in the Agent Skills format: a folder `<name>/` holding `SKILL.md` with `name` and `description` frontmatter. */
export type Skill = {
  readonly name: string;
  readonly description: string;
  /** The instructions after the frontmatter. */
  readonly body: string;
  /** Where it was read from, for provenance. */
  readonly path?: string;
};

/**
 * How much of a skill a request carries: `disabled` nothing; `listed` its one-line description in the system text
 * (discovery); `loaded` that line and its whole body in the first user message (progressive disclosure).
 */
export type SkillMode = 'disabled' | 'listed' | 'loaded';

export const SKILL_MODES: readonly SkillMode[] = ['disabled', 'listed', 'loaded'];

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The format's rules: a lowercase name of letters, digits and single hyphens, at most 64 characters; a description of at most 1,024. */
export function checkSkill(skill: { name: unknown; description: unknown }, folderName?: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const { name, description } = skill;
  if (typeof name !== 'string' || name === '') issues.push({ path: 'name', message: 'is required in the frontmatter' });
  else {
    if (name.length > 64) issues.push({ path: 'name', message: `has ${name.length} characters; at most 64` });
    if (!NAME.test(name))
      issues.push({
        path: 'name',
        message: `'${name}' may hold only lowercase letters, digits and single hyphens, not at either end`,
      });
    if (folderName !== undefined && name !== folderName)
      issues.push({ path: 'name', message: `'${name}' differs from its folder '${folderName}'; they must be equal` });
  }
  if (typeof description !== 'string' || description.trim() === '')
    issues.push({ path: 'description', message: 'is required in the frontmatter' });
  else if (description.length > 1024)
    issues.push({ path: 'description', message: `has ${description.length} characters; at most 1024` });
  return issues;
}

/** Reads a `SKILL.md`: YAML frontmatter between `---` lines, then the body. */
export async function parseSkillFile(text: string, options: { folderName?: string; path: string }): Promise<Skill> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (match === null) {
    throw new ValidationError({
      subject: `skill ${options.path}`,
      issues: [{ path: '', message: 'has no YAML frontmatter (a block between --- lines at the top)' }],
      hint: 'Start the file with ---, name: …, description: …, ---.',
    });
  }
  let frontmatter: unknown;
  try {
    frontmatter = await parseDocument(match[1] ?? '', { filename: options.path });
  } catch (error) {
    const issue = (error as ValidationError).issues?.[0];
    const message =
      issue === undefined ? 'is not valid YAML' : issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
    throw new ValidationError({ subject: `skill ${options.path}`, issues: [{ path: 'frontmatter', message }] });
  }
  const fields = (typeof frontmatter === 'object' && frontmatter !== null ? frontmatter : {}) as Record<
    string,
    unknown
  >;
  const issues = checkSkill({ name: fields['name'], description: fields['description'] }, options.folderName);
  if (issues.length > 0) throw new ValidationError({ subject: `skill ${options.path}`, issues });
  return {
    name: fields['name'] as string,
    description: (fields['description'] as string).trim(),
    body: (match[2] ?? '').trim(),
    path: options.path,
  };
}
