import type { Profile } from '../../contracts/profile.js';
import { NOT_YET_PRINTABLE, PRINTABLE_NEWEST } from './python-printable.js';
import { PyFloat, PyTuple } from './python-values.js';

/** A Python whose `repr()` agentctx reproduces: which characters it escapes follows its Unicode database. */
export type PythonVersion = NonNullable<Profile['python']>;

/** The Python ADK's requests are compared with when a profile names none (ADK 2.5.0's reference runs used 3.11). */
export const DEFAULT_PYTHON: PythonVersion = '3.11';

/**
 * Python's `str(value)` for the values state can hold, as ADK inserts them: `True`, `None`, `1.0`, `1e+16`,
 * `{'k': [1, 'a']}`. JavaScript numbers that are safe integers print as Python ints, every other number as a
 * Python float; wrap a value in `pyFloat` to print an integral float (`1.0`), use a bigint for a big exact int.
 */
export function pythonStr(value: unknown, python: PythonVersion = DEFAULT_PYTHON): string {
  return typeof value === 'string' ? value : pythonRepr(value, python);
}

/** Python's `repr(value)`, as the Python named prints it. */
export function pythonRepr(value: unknown, python: PythonVersion = DEFAULT_PYTHON): string {
  const repr = (item: unknown) => pythonRepr(item, python);
  switch (typeof value) {
    case 'string':
      return reprString(value, python);
    case 'boolean':
      return value ? 'True' : 'False';
    case 'number':
      return Number.isSafeInteger(value) ? String(value) : reprFloat(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
      return 'None';
    case 'object':
      return reprObject(value, repr);
    default:
      return repr(String(value));
  }
}

function reprObject(value: object | null, repr: (item: unknown) => string): string {
  if (value === null) return 'None';
  if (value instanceof PyFloat) return reprFloat(value.value);
  if (value instanceof PyTuple) {
    const items = value.items.map(repr);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  if (Array.isArray(value)) return `[${value.map(repr).join(', ')}]`;
  if (value instanceof Set) return value.size === 0 ? 'set()' : `{${[...value].map(repr).join(', ')}}`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(', ')}}`;
  if (value instanceof Date) return repr(value.toISOString());
  return `{${Object.entries(value)
    .map(([k, v]) => `${repr(k)}: ${repr(v)}`)
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

function reprString(text: string, python: PythonVersion): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    out += escapeChar(char, quote, python);
  }
  return out + quote;
}

// str.isprintable() of one character, by the named Python's Unicode database (python-printable.ts): run boundaries,
// decoded once per version; a character is printable when an odd number of boundaries lie at or below it.
const boundaries = new Map<PythonVersion, number[]>();

function isPrintable(code: number, python: PythonVersion): boolean {
  let table = boundaries.get(python);
  if (table === undefined) {
    table = starts(PRINTABLE_NEWEST);
    const lacking = NOT_YET_PRINTABLE[python];
    if (lacking !== undefined) table = without(table, starts(lacking));
    boundaries.set(python, table);
  }
  let low = 0;
  let high = table.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((table[middle] as number) <= code) low = middle + 1;
    else high = middle;
  }
  return low % 2 === 1;
}

// "gap,length,gap,length,…" in base 36 → the boundaries [start, end + 1, start, end + 1, …].
function starts(encoded: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const field of encoded.split(',')) {
    at += Number.parseInt(field, 36);
    out.push(at);
  }
  return out;
}

// The runs of `all` minus those of `some` (each of which lies inside one run of `all`), as boundaries.
function without(all: number[], some: number[]): number[] {
  const points = [...all, ...some].sort((a, b) => a - b);
  const out: number[] = [];
  for (const point of points) {
    if (out.at(-1) === point) out.pop();
    else out.push(point);
  }
  return out;
}

function escapeChar(char: string, quote: string, python: PythonVersion): string {
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
  const code = char.codePointAt(0) ?? 0;
  if (isPrintable(code, python)) return char;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}
