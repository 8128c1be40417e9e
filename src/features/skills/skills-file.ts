import type { AgentFileField } from '../../contracts/agent-file-field.js';
import { readNamedFiles, refuse } from '../../engine/config/file-fields.js';
import type { FieldReader } from '../../contracts/agent-file-field.js';
import { joinPath } from '../../engine/util/json-reader.js';
import { loadSkillTool } from './load-skill.js';
import type { SkillEntry } from './skill-modes.js';
import { SKILL_MODES, type Skill, type SkillMode } from './skill.js';
import { skills } from './skills-extension.js';

/** Reads the skills of a folder named in an agent file, relative to that file. */
export type ReadSkills = (dir: string, from: string) => Promise<Skill[]>;

/**
 * `skills:` in an agent file: a folder of Agent Skills, a default mode, modes per skill, a listing budget, and whether
 * the file may name `load_skill` among its tools. Without `readSkills` (no file access here) the key is refused.
 */
export function skillsField(readSkills: ReadSkills | undefined): AgentFileField {
  return {
    schema: {
      skills: {
        type: 'object',
        properties: {
          dir: {
            type: 'string',
            description: 'a folder of Agent Skills (each a folder with SKILL.md), relative to this file',
          },
          default: {
            enum: SKILL_MODES,
            description:
              'each skill\u2019s mode unless modes names it: disabled, listed (default: one line in # Available skills) or loaded (its text in the request)',
          },
          modes: { type: 'object', additionalProperties: { enum: SKILL_MODES }, description: 'skill name → mode' },
          listingBudget: {
            type: 'integer',
            minimum: 1,
            description: 'tokens the listing may take; skills past it are left out, and said so',
          },
          loadTool: { type: 'boolean', description: 'true: the file may name load_skill among its tools' },
        },
        required: ['dir'],
        additionalProperties: false,
        description:
          'Agent Skills offered to the agent, listed or loaded (session state skill:<name> switches a skill per session).',
        examples: [{ dir: 'skills', default: 'listed' }],
      },
    },
    async read({ reader, record, path, file }) {
      const at = joinPath(path, 'skills');
      if (readSkills === undefined) return refuse(reader, at);
      const config = reader.object(record['skills'], at, 'a mapping: dir, default, modes, listingBudget, loadTool');
      if (config === undefined) return {};
      reader.keys(config, at, ['dir', 'default', 'modes', 'listingBudget', 'loadTool']);
      const dir = reader.string(config, 'dir', at, { nonEmpty: true });
      const fallback = readMode(reader, config['default'], joinPath(at, 'default')) ?? 'listed';
      const modes =
        config['modes'] === undefined
          ? {}
          : (reader.object(
              config['modes'],
              joinPath(at, 'modes'),
              'a mapping of skill name → disabled, listed or loaded',
            ) ?? {});
      const budget = reader.number(config, 'listingBudget', at, { optional: true, integer: true, min: 1 });
      const offerLoad = reader.boolean(config, 'loadTool', at) ?? false;
      const found =
        dir === undefined ? undefined : await readNamedFiles(reader, joinPath(at, 'dir'), () => readSkills(dir, file));
      if (dir === undefined || found === undefined) return {};
      const entries: SkillEntry[] = found.map((skill) => ({
        skill,
        mode: readMode(reader, modes[skill.name], joinPath(joinPath(at, 'modes'), skill.name)) ?? fallback,
      }));
      for (const name of Object.keys(modes)) {
        if (!found.some((skill) => skill.name === name))
          reader.issue(
            joinPath(joinPath(at, 'modes'), name),
            `no skill '${name}' in ${dir}; it has ${found.map((skill) => skill.name).join(', ') || 'none'}`,
          );
      }
      return {
        extensions: [skills(entries, budget === undefined ? {} : { listingBudget: budget })],
        ...(offerLoad ? { tools: { load_skill: loadSkillTool(entries) } } : {}),
      };
    },
  };
}

function readMode(reader: FieldReader, value: unknown, path: string): SkillMode | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (SKILL_MODES as readonly string[]).includes(value)) return value as SkillMode;
  return reader.issue(path, `expected ${SKILL_MODES.join(', ')}, got ${JSON.stringify(value)}`);
}
