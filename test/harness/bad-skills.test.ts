import { join } from 'node:path';
import { expect } from 'vitest';
import { parseSkillFile } from '../../src/features/skills/skill.js';
import { readSkillsFolder } from '../../src/workspace/skill-files.js';
import { defineRows } from '../reliability/rows.js';
import { caught, expectTyped, scratch } from '../reliability/support.js';
import { cli, expectCliError } from '../support/cli.js';

// Part 1, skill frontmatter (`SKILL.md`): every problem is reported with its path; no agent runs with half its skills.
const tmp = scratch();
const skill = (frontmatter: string, body = 'Do the thing.') => `---\n${frontmatter}\n---\n${body}\n`;
const skillError = async (text: string, folder = 'docs-check') =>
  caught(() => parseSkillFile(text, { folderName: folder, path: `skills/${folder}/SKILL.md` }));

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'skill.no-frontmatter',
      entry: 'skill frontmatter',
      tried: 'a `SKILL.md` without a `---` block',
      expected: '`has no YAML frontmatter`, with how to start the file',
      run: async () =>
        expectTyped(await skillError('Just text.'), {
          message: /skill skills\/docs-check\/SKILL\.md: has no YAML frontmatter/,
          hint: /Start the file with ---, name: …, description: …, ---/,
        }),
    },
    {
      id: 'skill.bad-yaml',
      entry: 'skill frontmatter',
      tried: 'frontmatter that is not YAML (`name: [`)',
      expected: "`frontmatter:` and the parser's first line",
      run: async () =>
        expectTyped(await skillError(skill('name: [\ndescription: d')), { message: /SKILL\.md: frontmatter: / }),
    },
    {
      id: 'skill.bad-name',
      entry: 'skill frontmatter',
      tried: '`Docs_Check`, `docs--check`, 65 characters, and a name that differs from its folder',
      expected: 'each refused with the rule it breaks (lowercase, single hyphens, at most 64, equal to the folder)',
      run: async () => {
        expectTyped(await skillError(skill('name: Docs_Check\ndescription: d')), {
          message: /may hold only lowercase letters, digits and single hyphens/,
        });
        expectTyped(await skillError(skill('name: docs--check\ndescription: d')), { message: /single hyphens/ });
        expectTyped(await skillError(skill(`name: ${'a'.repeat(65)}\ndescription: d`), 'a'.repeat(65)), {
          message: /has 65 characters; at most 64/,
        });
        expectTyped(await skillError(skill('name: other\ndescription: d')), {
          message: /'other' differs from its folder 'docs-check'; they must be equal/,
        });
      },
    },
    {
      id: 'skill.bad-description',
      entry: 'skill frontmatter',
      tried: 'no description, a blank one, and 1,025 characters',
      expected: '`description: is required`; `has 1025 characters; at most 1024`',
      run: async () => {
        expectTyped(await skillError(skill('name: docs-check')), {
          message: /description: is required in the frontmatter/,
        });
        expectTyped(await skillError(skill('name: docs-check\ndescription: "  "')), {
          message: /description: is required in the frontmatter/,
        });
        expectTyped(await skillError(skill(`name: docs-check\ndescription: ${'x'.repeat(1025)}`)), {
          message: /has 1025 characters; at most 1024/,
        });
      },
    },
    {
      id: 'skill.frontmatter-not-mapping',
      entry: 'skill frontmatter',
      tried: 'frontmatter that is a list',
      expected: '`name` and `description` reported as required',
      run: async () =>
        expectTyped(await skillError(skill('- name\n- description')), {
          message: /name: is required in the frontmatter; description: is required/,
        }),
    },
    {
      id: 'skill.folder-with-bad-skill',
      entry: 'skill frontmatter',
      tried: 'a skills folder where one skill of two is broken, loaded by an agent file',
      expected: 'the agent is refused at `skills.dir`, naming the broken file; nothing runs with half the skills',
      run: async () => {
        const dir = await tmp.files({
          'skills/good/SKILL.md': skill('name: good\ndescription: Fine.'),
          'skills/bad/SKILL.md': skill('name: wrong\ndescription: Broken.'),
          'agent.yaml': 'name: helper\nskills: { dir: skills, default: loaded }\n',
        });
        await expect(readSkillsFolder(join(dir, 'skills'))).rejects.toThrow(
          /skills\/bad\/SKILL\.md: name: 'wrong' differs from its folder 'bad'/,
        );
        expectCliError(
          await cli([
            'run',
            join(dir, 'agent.yaml'),
            '--model',
            'scripted:examples/draft-and-review/script.yaml',
            '--store',
            'memory',
            '--message',
            'hi',
          ]),
          /skills\.dir: skill .*bad\/SKILL\.md: name: 'wrong' differs from its folder 'bad'/,
        );
      },
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
