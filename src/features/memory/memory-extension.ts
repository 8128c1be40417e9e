import type { Extension, SettingKey } from '../../contracts/agent.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import { setting } from '../../engine/extensions/settings.js';
import type { MemoryFile, MemoryMode } from './memory-file.js';

/** A memory file offered to an agent, on or off unless the session's state says otherwise (`memory:<name>`). */
export type MemoryEntry = { readonly file: MemoryFile; readonly mode: MemoryMode };

/** What the context-blocks processor reads: the memory files offered, in order. */
export const MEMORY: SettingKey<readonly MemoryEntry[]> = Object.freeze({ name: 'memory' });

/**
 * Memory files for an agent (`extensions: [memory([...])]`): an `on` file's body goes into the first user message,
 * after loaded skills; an `off` one nowhere; a session switches one with state `memory:<name>`.
 */
export function memory(entries: readonly MemoryEntry[]): Extension {
  const issues: ValidationIssue[] = [];
  const names = new Set<string>();
  entries.forEach((entry, index) => {
    if (entry.mode !== 'on' && entry.mode !== 'off') issues.push({ path: `[${index}].mode`, message: `expected on or off, got '${String(entry.mode)}'` });
    if (names.has(entry.file.name)) issues.push({ path: `[${index}]`, message: `memory file '${entry.file.name}' is offered twice` });
    names.add(entry.file.name);
  });
  if (issues.length > 0) throw new ValidationError({ subject: 'memory', issues });
  return Object.freeze({ name: 'memory', settings: [setting(MEMORY, Object.freeze([...entries]))] });
}

/** The state key that switches a memory file on or off for one session. */
export function memoryModeKey(name: string): string {
  return `memory:${name}`;
}

export function effectiveMemoryMode(entry: MemoryEntry, state: Readonly<Record<string, unknown>>): MemoryMode {
  const chosen = state[memoryModeKey(entry.file.name)];
  return chosen === 'on' || chosen === 'off' ? chosen : entry.mode;
}
