import type { ValueFormat, ValueFormatter } from '../../contracts/profile.js';
import { pythonStr, type PythonVersion } from '../../engine/python/python-format.js';

export function formatDefault(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return '';
    case 'object':
      if (value === null) return '';
      if (value instanceof Date) return value.toISOString();
      return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
    default:
      return String(value);
  }
}

/** The formatter of a value format; `python` writes values as the Python named (the profile's `python`) does. */
export function resolveValueFormat(format: ValueFormat | undefined, python?: PythonVersion): ValueFormatter {
  if (format === undefined || format === 'default') return formatDefault;
  if (format === 'python') return (value) => (value === null || value === undefined ? '' : pythonStr(value, python));
  return (value) => (value === null || value === undefined ? '' : format(value));
}

/**
 * Writes a value inside surrounding text (a retold tool call's arguments): like the value format, except that
 * null and undefined are spelled out (`None` in Python, `null` otherwise) instead of disappearing.
 */
export function embedFormatter(format: ValueFormat | undefined, python?: PythonVersion): ValueFormatter {
  if (format === 'python') return (value) => pythonStr(value, python);
  if (format === undefined || format === 'default')
    return (value) => (value === undefined ? 'null' : formatDefault(value === null ? 'null' : value));
  return format;
}
