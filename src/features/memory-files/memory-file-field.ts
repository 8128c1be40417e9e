import type { AgentFileField } from '../../contracts/agent-file-field.js';
import { readNamedFiles, refuse } from '../../engine/config/file-fields.js';
import { joinPath } from '../../engine/util/json-reader.js';
import { memoryFiles, type MemoryFileEntry } from './memory-files.js';
import type { MemoryFile } from './memory-file.js';

/** Reads a memory file named in an agent file, relative to that file. */
export type ReadMemory = (path: string, from: string) => Promise<MemoryFile>;

const ENTRIES_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      file: { type: 'string', description: 'a memory file (Markdown), relative to this file' },
      mode: {
        enum: ['on', 'off'],
        description: 'on: its text goes at the start of the first user message; off (default): nowhere',
      },
    },
    required: ['file'],
    additionalProperties: false,
  },
} as const;

/**
 * `memoryFiles:` in an agent file: a list of `{ file, mode }` (`memory:`, its old spelling, is read the same way).
 * Without `readMemory` (no file access here) the key is refused.
 */
export function memoryField(readMemory: ReadMemory | undefined): AgentFileField {
  return {
    schema: {
      memoryFiles: {
        ...ENTRIES_SCHEMA,
        description:
          'Memory files the agent may be given, each on or off (session state memory:<file> switches it per session).',
        examples: [[{ file: 'MEMORY.md', mode: 'on' }]],
      },
      memory: {
        ...ENTRIES_SCHEMA,
        description: 'Deprecated: the old spelling of memoryFiles.',
        deprecated: true,
      },
    },
    async read({ reader, record, path, file }) {
      // The old spelling still reads; both at once would be two lists for one thing.
      const key = record['memoryFiles'] !== undefined ? 'memoryFiles' : 'memory';
      if (record['memoryFiles'] !== undefined && record['memory'] !== undefined) {
        reader.issue(joinPath(path, 'memory'), 'is the old spelling of memoryFiles, which is given too; keep one');
        return {};
      }
      const at = joinPath(path, key);
      if (readMemory === undefined) return refuse(reader, at);
      const entries: MemoryFileEntry[] = [];
      for (const [index, item] of (reader.array(record[key], at) ?? []).entries()) {
        const entryPath = joinPath(at, index);
        const entry = reader.object(item, entryPath, 'a memory file: { file, mode }');
        if (entry === undefined) continue;
        reader.keys(entry, entryPath, ['file', 'mode']);
        const memoryFile = reader.string(entry, 'file', entryPath, { nonEmpty: true });
        const mode = entry['mode'] ?? 'off';
        if (mode !== 'on' && mode !== 'off')
          reader.issue(joinPath(entryPath, 'mode'), `expected on or off, got ${JSON.stringify(mode)}`);
        const read =
          memoryFile === undefined
            ? undefined
            : await readNamedFiles(reader, joinPath(entryPath, 'file'), () => readMemory(memoryFile, file));
        if (read !== undefined) entries.push({ file: read, mode: mode === 'on' ? 'on' : 'off' });
      }
      return { extensions: [memoryFiles(entries)] };
    },
  };
}
