import { pythonStr } from './python-format.js';

/** Turns a state value into the text that replaces its placeholder. */
export type ValueFormatter = (value: unknown) => string;

/**
 * How values are written into templates: `default` is what a JavaScript user expects (strings as they are,
 * numbers and booleans through `String`, objects and arrays as JSON); `python` reproduces ADK's `str()` byte for
 * byte; or a function of your own. `null` and `undefined` are always the empty string, as in ADK.
 */
export type ValueFormat = 'default' | 'python' | ValueFormatter;

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
  if (format === undefined || format === 'default') return (value) => (value === undefined ? 'null' : formatDefault(value === null ? 'null' : value));
  return format;
}
