import type { ValueFormat, ValueFormatter } from '../../contracts/profile.js';
import { pythonStr } from '../../engine/python/python-format.js';

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

export function resolveValueFormat(format: ValueFormat | undefined): ValueFormatter {
  if (format === undefined || format === 'default') return formatDefault;
  if (format === 'python') return formatPython;
  return (value) => (value === null || value === undefined ? '' : format(value));
}

function formatPython(value: unknown): string {
  return value === null || value === undefined ? '' : pythonStr(value);
}

/**
 * Writes a value inside surrounding text (a retold tool call's arguments): like the value format, except that
 * null and undefined are spelled out (`None` in Python, `null` otherwise) instead of disappearing.
 */
export function embedFormatter(format: ValueFormat | undefined): ValueFormatter {
  if (format === 'python') return pythonStr;
  if (format === undefined || format === 'default')
    return (value) => (value === undefined ? 'null' : formatDefault(value === null ? 'null' : value));
  return format;
}
