import { reprFloat } from './python-format.js';

/**
 * Python's `json.dumps(value)` with its default separators (`", "`, `": "`): integers as ints, other numbers as Python
 * floats (`1e+16`, `NaN`), and with `ensureAscii` (Python's default) every non-ASCII character as `\uXXXX`.
 */
export function pythonJsonDumps(value: unknown, options: { ensureAscii: boolean }): string {
  const dump = (item: unknown): string => pythonJsonDumps(item, options);
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isNaN(value)) return 'NaN';
      if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
      return Number.isSafeInteger(value) ? String(value) : reprFloat(value);
    case 'bigint':
      return value.toString();
    case 'string': {
      const json = JSON.stringify(value);
      return options.ensureAscii ? json.replace(/[^\x20-\x7e]/g, unicodeEscape) : json;
    }
    case 'object':
      if (Array.isArray(value)) return `[${value.map(dump).join(', ')}]`;
      return `{${Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${dump(key)}: ${dump(item)}`)
        .join(', ')}}`;
    default:
      return 'null';
  }
}

// One UTF-16 unit at a time, so a character beyond the BMP becomes its surrogate pair, as Python writes it.
function unicodeEscape(unit: string): string {
  return `\\u${(unit.charCodeAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}
