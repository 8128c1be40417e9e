import { PyFloat, PyTuple } from './python-values.js';

/**
 * Python's `str(value)` for the values state can hold, as ADK inserts them: `True`, `None`, `1.0`, `1e+16`,
 * `{'k': [1, 'a']}`. JavaScript numbers that are safe integers print as Python ints, every other number as a
 * Python float; wrap a value in `pyFloat` to print an integral float (`1.0`), use a bigint for a big exact int.
 */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's `repr(value)`. */
export function pythonRepr(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return reprString(value);
    case 'boolean':
      return value ? 'True' : 'False';
    case 'number':
      return Number.isSafeInteger(value) ? String(value) : reprFloat(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
      return 'None';
    case 'object':
      return reprObject(value);
    default:
      return reprString(String(value));
  }
}

function reprObject(value: object | null): string {
  if (value === null) return 'None';
  if (value instanceof PyFloat) return reprFloat(value.value);
  if (value instanceof PyTuple) {
    const items = value.items.map(pythonRepr);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (value instanceof Set) return value.size === 0 ? 'set()' : `{${[...value].map(pythonRepr).join(', ')}}`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  if (value instanceof Date) return reprString(value.toISOString());
  return `{${Object.entries(value)
    .map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`)
    .join(', ')}}`;
}

/** `repr(float)`: the shortest round-tripping digits, positional for exponents -5 < e < 16, else `d.ddde±XX`. */
export function reprFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${head}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

// Python's str.isprintable() is false for categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs except the space.
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    out += escapeChar(char, quote);
  }
  return out + quote;
}

function escapeChar(char: string, quote: string): string {
  switch (char) {
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case quote:
      return `\\${quote}`;
    case ' ':
      return ' ';
  }
  if (!NOT_PRINTABLE.test(char)) return char;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}
