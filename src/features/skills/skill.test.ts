import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { parseSkillFile } from './skill.js';

const file = (frontmatter: string, body = 'Do the thing.') => `---\n${frontmatter}\n---\n${body}\n`;

describe('parseSkillFile', () => {
  it('reads name, description and body', async () => {
    expect(
      await parseSkillFile(file('name: docs-check\ndescription: Review documentation changes.'), {
        folderName: 'docs-check',
        path: 'skills/docs-check/SKILL.md',
      }),
    ).toEqual({
      name: 'docs-check',
      description: 'Review documentation changes.',
      body: 'Do the thing.',
      path: 'skills/docs-check/SKILL.md',
    });
  });

  it.each([
    ['name: Docs_Check\ndescription: d', 'Docs_Check', /may hold only lowercase letters, digits and single hyphens/],
    ['name: docs--check\ndescription: d', 'docs--check', /single hyphens/],
    [`name: ${'a'.repeat(65)}\ndescription: d`, 'a'.repeat(65), /has 65 characters; at most 64/],
    ['name: other\ndescription: d', 'docs-check', /'other' differs from its folder 'docs-check'/],
    [`name: docs-check\ndescription: ${'x'.repeat(1025)}`, 'docs-check', /has 1025 characters; at most 1024/],
    ['name: docs-check', 'docs-check', /description: is required/],
  ])('refuses %j in folder %s', async (frontmatter, folder, message) => {
    const error = await parseSkillFile(file(frontmatter), { folderName: folder, path: 'SKILL.md' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(message);
  });

  it('refuses a file without frontmatter', async () => {
    await expect(parseSkillFile('Just text', { path: 'SKILL.md' })).rejects.toThrow(/has no YAML frontmatter/);
  });
});
