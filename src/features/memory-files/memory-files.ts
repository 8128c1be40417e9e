import type { Extension, SettingKey } from '../../contracts/agent.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import { setting } from '../../engine/extensions/settings.js';
import type { MemoryFile, MemoryFileMode } from './memory-file.js';

// Memory files (`MEMORY.md` and the like): notes on disk a request carries when switched on. Named "memory files",
// not "memory": a cross-session memory service is another thing, and needs that name. The old names stay as
// deprecated aliases.

/** A memory file offered to an agent, on or off unless the session's state says otherwise (`memory:<name>`). */
export type MemoryFileEntry = { readonly file: MemoryFile; readonly mode: MemoryFileMode };

/** What the context-blocks processor reads: the memory files offered, in order. */
export const MEMORY_FILES: SettingKey<readonly MemoryFileEntry[]> = Object.freeze({ name: 'memory' });

/**
 * Memory files for an agent (`extensions: [memoryFiles([...])]`): an `on` file's body goes into the first user
 * message, after loaded skills; an `off` one nowhere; a session switches one with state `memory:<name>`.
 */
export function memoryFiles(entries: readonly MemoryFileEntry[]): Extension {
  const issues: ValidationIssue[] = [];
  const names = new Set<string>();
  entries.forEach((entry, index) => {
    if (entry.mode !== 'on' && entry.mode !== 'off')
      issues.push({ path: `[${index}].mode`, message: `expected on or off, got '${String(entry.mode)}'` });
    if (names.has(entry.file.name))
      issues.push({ path: `[${index}]`, message: `memory file '${entry.file.name}' is offered twice` });
    names.add(entry.file.name);
  });
  if (issues.length > 0) throw new ValidationError({ subject: 'memory', issues });
  // The extension keeps its name (`memory`): recorded provenance names it.
  return Object.freeze({ name: 'memory', settings: [setting(MEMORY_FILES, Object.freeze([...entries]))] });
}

/** The state key that switches a memory file on or off for one session. */
export function memoryFileModeKey(name: string): string {
  return `memory:${name}`;
}

export function effectiveMemoryFileMode(
  entry: MemoryFileEntry,
  state: Readonly<Record<string, unknown>>,
): MemoryFileMode {
  const chosen = state[memoryFileModeKey(entry.file.name)];
  return chosen === 'on' || chosen === 'off' ? chosen : entry.mode;
}
