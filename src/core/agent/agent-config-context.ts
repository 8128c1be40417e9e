import type { MemoryEntry, SkillEntry } from '../context/agent-context.js';
import type { MemoryMode } from '../context/memory.js';
import { SKILL_MODES, type SkillMode } from '../context/skill.js';
import { ValidationError } from '../errors/validation-error.js';
import { harnessPipeline } from '../processors/default-pipeline.js';
import { loadSkillTool } from '../tools/load-skill.js';
import type { Tool } from '../tools/tool.js';
import { JsonReader, joinPath } from '../util/json-reader.js';
import type { AgentConfigOptions } from './agent-config.js';
import type { LlmAgentConfig } from './define-agent.js';

type ContextFields = Pick<LlmAgentConfig, 'sections' | 'skills' | 'memory' | 'skillListingBudget' | 'pipeline'>;

const SECTION_KEYS = ['identity', 'toolGuidance', 'runtime', 'userPreferences'] as const;

/**
 * The harness fields of an agent file: `preset: harness`, `sections`, `skills` (a folder, a default mode, modes per
 * skill, a listing budget, whether to offer `load_skill`), `memory` (files with on/off) and `workspace` (the root of
 * the `Read` and `Edit` tools the file may name).
 */
export async function readContextFields(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  options: AgentConfigOptions,
  file: string,
): Promise<{ fields: ContextFields; workspaceTools: Record<string, Tool> }> {
  const fields: ContextFields = {};
  const workspaceTools: Record<string, Tool> = {};
  const files = options.files;
  const needFiles = (key: string): boolean => {
    if (files !== undefined) return true;
    reader.issue(joinPath(path, key), 'files cannot be read here; load the agent through the CLI or pass `files`');
    return false;
  };

  const preset = record['preset'];
  if (preset === 'harness') fields.pipeline = harnessPipeline();
  else if (preset !== undefined && preset !== 'adk') reader.issue(joinPath(path, 'preset'), `expected adk or harness, got ${JSON.stringify(preset)}`);

  if (record['sections'] !== undefined) {
    const sections = reader.object(record['sections'], joinPath(path, 'sections'), 'a mapping of identity, toolGuidance, runtime, userPreferences');
    if (sections !== undefined) {
      reader.keys(sections, joinPath(path, 'sections'), SECTION_KEYS);
      const read: Record<string, string> = {};
      for (const key of SECTION_KEYS) {
        const text = reader.string(sections, key, joinPath(path, 'sections'), { optional: true });
        if (text !== undefined) read[key] = text;
      }
      fields.sections = read;
    }
  }

  if (record['workspace'] !== undefined) {
    const root = reader.string(record, 'workspace', path, { nonEmpty: true });
    if (root !== undefined && needFiles('workspace')) for (const tool of files?.workspaceTools(root, file) ?? []) workspaceTools[tool.name] = tool;
  }

  if (record['skills'] !== undefined && needFiles('skills')) {
    const at = joinPath(path, 'skills');
    const config = reader.object(record['skills'], at, 'a mapping: dir, default, modes, listingBudget, loadTool');
    if (config !== undefined) {
      reader.keys(config, at, ['dir', 'default', 'modes', 'listingBudget', 'loadTool']);
      const dir = reader.string(config, 'dir', at, { nonEmpty: true });
      const fallback = readMode(reader, config['default'], joinPath(at, 'default')) ?? 'listed';
      const modes = config['modes'] === undefined ? {} : (reader.object(config['modes'], joinPath(at, 'modes'), 'a mapping of skill name → disabled, listed or loaded') ?? {});
      const budget = reader.number(config, 'listingBudget', at, { optional: true, integer: true, min: 1 });
      const offerLoad = reader.boolean(config, 'loadTool', at) ?? false;
      const skills = dir === undefined || files === undefined ? undefined : await readNamedFiles(reader, joinPath(at, 'dir'), () => files.readSkills(dir, file));
      if (dir !== undefined && skills !== undefined) {
        const entries: SkillEntry[] = skills.map((skill) => ({ skill, mode: readMode(reader, modes[skill.name], joinPath(joinPath(at, 'modes'), skill.name)) ?? fallback }));
        for (const name of Object.keys(modes)) {
          if (!skills.some((skill) => skill.name === name)) reader.issue(joinPath(joinPath(at, 'modes'), name), `no skill '${name}' in ${dir}; it has ${skills.map((skill) => skill.name).join(', ') || 'none'}`);
        }
        fields.skills = entries;
        if (offerLoad) workspaceTools['load_skill'] = loadSkillTool(entries);
      }
      if (budget !== undefined) fields.skillListingBudget = budget;
    }
  }

  if (record['memory'] !== undefined && needFiles('memory')) {
    const at = joinPath(path, 'memory');
    const entries: MemoryEntry[] = [];
    for (const [index, item] of (reader.array(record['memory'], at) ?? []).entries()) {
      const entryPath = joinPath(at, index);
      const entry = reader.object(item, entryPath, 'a memory file: { file, mode }');
      if (entry === undefined) continue;
      reader.keys(entry, entryPath, ['file', 'mode']);
      const memoryFile = reader.string(entry, 'file', entryPath, { nonEmpty: true });
      const mode = entry['mode'] ?? 'off';
      if (mode !== 'on' && mode !== 'off') reader.issue(joinPath(entryPath, 'mode'), `expected on or off, got ${JSON.stringify(mode)}`);
      const read = memoryFile === undefined || files === undefined ? undefined : await readNamedFiles(reader, joinPath(entryPath, 'file'), () => files.readMemory(memoryFile, file));
      if (read !== undefined) entries.push({ file: read, mode: mode === 'on' ? 'on' : ('off' satisfies MemoryMode) });
    }
    fields.memory = entries;
  }
  return { fields, workspaceTools };
}

// A skills folder or memory file that is missing or broken is an issue at the field naming it, not a crash.
async function readNamedFiles<T>(reader: JsonReader, path: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ValidationError) {
      for (const issue of error.issues) reader.issue(path, `${error.subject}: ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`);
      return undefined;
    }
    return reader.issue(path, `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

function readMode(reader: JsonReader, value: unknown, path: string): SkillMode | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (SKILL_MODES as readonly string[]).includes(value)) return value as SkillMode;
  return reader.issue(path, `expected ${SKILL_MODES.join(', ')}, got ${JSON.stringify(value)}`);
}
