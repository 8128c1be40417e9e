import { isValidStateName, pythonStrip } from '../../engine/python/python-text.js';
import { scopeOfKey, type StateScope } from '../../engine/state/state-keys.js';

export type ScanOptions = {
  /** Treat `\{` and `\}` as literal braces (and `\\{` as a backslash before a real brace). Off in ADK-compatible templates. */
  escapes?: boolean | undefined;
  /** Accept `{state.key}` as another spelling of `{key}`. On by default. */
  stateAlias?: boolean | undefined;
};

/** What a `{...}` run asks for, once parsed the way ADK parses it. */
export type PlaceholderTarget =
  | { kind: 'state'; key: string; scope: StateScope; alias: boolean }
  | { kind: 'artifact'; name: string }
  | { kind: 'invalid' };

export type TemplateToken =
  /** Text copied to the output; `text` has escapes already applied. */
  | { type: 'text'; start: number; end: number; text: string }
  /** A brace run matched by ADK's pattern `{+[^{}]*}+`; `text` is the run as the output shows it if left verbatim. */
  | { type: 'placeholder'; start: number; end: number; text: string; optional: boolean; target: PlaceholderTarget };

/**
 * Splits a template into literal text and placeholders, with ADK's matching rules: one left-to-right pass,
 * each match `{+[^{}]*}+` stands alone, and what it asks for is decided by the name between the braces.
 */
export function scanTemplate(template: string, options: ScanOptions = {}): TemplateToken[] {
  const escapes = options.escapes === true ? findEscapes(template) : undefined;
  const cook =
    escapes === undefined ? (start: number, end: number) => template.slice(start, end) : cooker(template, escapes);
  const isOpen = (i: number) =>
    template.charCodeAt(i) === 123 && (escapes === undefined || escapes[i] !== ESCAPED_BRACE);
  const isClose = (i: number) =>
    template.charCodeAt(i) === 125 && (escapes === undefined || escapes[i] !== ESCAPED_BRACE);
  const stateAlias = options.stateAlias !== false;

  const tokens: TemplateToken[] = [];
  const length = template.length;
  let textStart = 0;
  let i = 0;
  while (i < length) {
    if (!isOpen(i)) {
      i++;
      continue;
    }
    let nameStart = i;
    while (nameStart < length && isOpen(nameStart)) nameStart++;
    let nameEnd = nameStart;
    while (nameEnd < length && !isOpen(nameEnd) && !isClose(nameEnd)) nameEnd++;
    if (nameEnd >= length || !isClose(nameEnd)) {
      // No match can start anywhere before nameEnd: each such start meets the same `{` or the end.
      i = nameEnd;
      continue;
    }
    let end = nameEnd;
    while (end < length && isClose(end)) end++;
    if (i > textStart) tokens.push({ type: 'text', start: textStart, end: i, text: cook(textStart, i) });
    tokens.push(parsePlaceholder(i, end, cook(i, end), cook(nameStart, nameEnd), stateAlias));
    textStart = end;
    i = end;
  }
  if (textStart < length) tokens.push({ type: 'text', start: textStart, end: length, text: cook(textStart, length) });
  return tokens;
}

function parsePlaceholder(start: number, end: number, text: string, inner: string, stateAlias: boolean): TemplateToken {
  let name = pythonStrip(inner);
  const optional = name.endsWith('?');
  if (optional) name = name.slice(0, -1);
  return { type: 'placeholder', start, end, text, optional, target: parseTarget(name, stateAlias) };
}

function parseTarget(name: string, stateAlias: boolean): PlaceholderTarget {
  if (name.startsWith('artifact.')) return { kind: 'artifact', name: name.slice('artifact.'.length) };
  if (isValidStateName(name)) return { kind: 'state', key: name, scope: scopeOfKey(name), alias: false };
  if (stateAlias && name.startsWith('state.')) {
    const key = name.slice('state.'.length);
    if (isValidStateName(key)) return { kind: 'state', key, scope: scopeOfKey(key), alias: true };
  }
  return { kind: 'invalid' };
}

const ESCAPED_BRACE = 1;
const DROPPED_BACKSLASH = 2;

// Marks, per position, braces that are literal and backslashes that the output drops.
function findEscapes(template: string): Uint8Array | undefined {
  // Stryker disable next-line StringLiteral: includes('') is always true, and a mark array of zeros reads exactly like no escapes
  if (!template.includes('\\')) return undefined;
  const marks = new Uint8Array(template.length);
  // Stryker disable next-line ArithmeticOperator: the extra steps change nothing: at length - 1 there is no next char, at length no backslash
  for (let i = 0; i < template.length - 1; i++) {
    if (template.charCodeAt(i) !== 92) continue;
    const next = template.charCodeAt(i + 1);
    if (next === 123 || next === 125) {
      marks[i] = DROPPED_BACKSLASH;
      marks[i + 1] = ESCAPED_BRACE;
      i++;
    } else if (next === 92 && isBraceCode(template.charCodeAt(i + 2))) {
      marks[i] = DROPPED_BACKSLASH;
      i++;
    }
  }
  return marks;
}

function isBraceCode(code: number): boolean {
  return code === 123 || code === 125;
}

function cooker(template: string, marks: Uint8Array): (start: number, end: number) => string {
  return (start, end) => {
    let out = '';
    let runStart = start;
    for (let i = start; i < end; i++) {
      if (marks[i] === DROPPED_BACKSLASH) {
        out += template.slice(runStart, i);
        runStart = i + 1;
      }
    }
    return out + template.slice(runStart, end);
  };
}
