import type { AgentFileField } from '../../contracts/agent-file-field.js';
import { readNamedFiles, refuse } from '../../engine/config/file-fields.js';
import { joinPath } from '../../engine/util/json-reader.js';
import { memory, type MemoryEntry } from './memory-extension.js';
import type { MemoryFile } from './memory-file.js';

/** Reads a memory file named in an agent file, relative to that file. */
export type ReadMemory = (path: string, from: string) => Promise<MemoryFile>;

/** `memory:` in an agent file: a list of `{ file, mode }`. Without `readMemory` (no file access here) the key is refused. */
export function memoryField(readMemory: ReadMemory | undefined): AgentFileField {
  return {
    schema: {
      memory: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            file: { type: 'string', description: 'a memory file (Markdown), relative to this file' },
            mode: { enum: ['on', 'off'], description: 'on: its text goes at the start of the first user message; off (default): nowhere' },
          },
          required: ['file'],
          additionalProperties: false,
        },
        description: 'Memory files the agent may be given, each on or off (session state memory:<file> switches it per session).',
        examples: [[{ file: 'MEMORY.md', mode: 'on' }]],
      },
    },
    async read({ reader, record, path, file }) {
      const at = joinPath(path, 'memory');
      if (readMemory === undefined) return refuse(reader, at);
      const entries: MemoryEntry[] = [];
      for (const [index, item] of (reader.array(record['memory'], at) ?? []).entries()) {
        const entryPath = joinPath(at, index);
        const entry = reader.object(item, entryPath, 'a memory file: { file, mode }');
        if (entry === undefined) continue;
        reader.keys(entry, entryPath, ['file', 'mode']);
        const memoryFile = reader.string(entry, 'file', entryPath, { nonEmpty: true });
        const mode = entry['mode'] ?? 'off';
        if (mode !== 'on' && mode !== 'off') reader.issue(joinPath(entryPath, 'mode'), `expected on or off, got ${JSON.stringify(mode)}`);
        const read = memoryFile === undefined ? undefined : await readNamedFiles(reader, joinPath(entryPath, 'file'), () => readMemory(memoryFile, file));
        if (read !== undefined) entries.push({ file: read, mode: mode === 'on' ? 'on' : 'off' });
      }
      return { extensions: [memory(entries)] };
    },
  };
}
