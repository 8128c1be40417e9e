import type { ValidationIssue } from '../../contracts/errors/validation-error.js';

/**
 * Collects every problem found while reading untrusted JSON, each with the path where it was found,
 * so one error can report all of them.
 */
export class JsonReader {
  readonly issues: ValidationIssue[] = [];

  issue(path: string, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  object(value: unknown, path: string, what = 'an object'): Record<string, unknown> | undefined {
    if (isPlainRecord(value)) return value;
    return this.issue(path, `expected ${what}, got ${describeValue(value)}`);
  }

  /** Reports keys other than `allowed`; `ignored` keys are accepted and dropped (fields of other formats). */
  keys(
    record: Record<string, unknown>,
    path: string,
    allowed: readonly string[],
    ignored: readonly string[] = [],
  ): void {
    for (const key of Object.keys(record)) {
      if (allowed.includes(key) || ignored.includes(key)) continue;
      const guess = closest(key, allowed);
      this.issue(
        joinPath(path, key),
        `unknown field${guess === undefined ? '' : ` (did you mean '${guess}'?)`}; allowed: ${allowed.join(', ')}`,
      );
    }
  }

  string(
    record: Record<string, unknown>,
    key: string,
    path: string,
    options: { optional: true; nonEmpty?: boolean },
  ): string | undefined;
  string(
    record: Record<string, unknown>,
    key: string,
    path: string,
    options?: { optional?: false; nonEmpty?: boolean },
  ): string | undefined;
  string(
    record: Record<string, unknown>,
    key: string,
    path: string,
    options: { optional?: boolean; nonEmpty?: boolean } = {},
  ): string | undefined {
    const value = record[key];
    if (value === undefined)
      return options.optional === true ? undefined : this.issue(joinPath(path, key), 'is required (a string)');
    if (typeof value !== 'string')
      return this.issue(joinPath(path, key), `expected a string, got ${describeValue(value)}`);
    if (options.nonEmpty === true && value.trim() === '') return this.issue(joinPath(path, key), 'must not be empty');
    return value;
  }

  number(
    record: Record<string, unknown>,
    key: string,
    path: string,
    options: { optional?: boolean; integer?: boolean; min?: number } = {},
  ): number | undefined {
    const value = record[key];
    const at = joinPath(path, key);
    if (value === undefined) return options.optional === true ? undefined : this.issue(at, 'is required (a number)');
    if (typeof value !== 'number' || !Number.isFinite(value))
      return this.issue(at, `expected a finite number, got ${describeValue(value)}`);
    if (options.integer === true && !Number.isInteger(value))
      return this.issue(at, `expected a whole number, got ${value}`);
    if (options.min !== undefined && value < options.min)
      return this.issue(at, `must be at least ${options.min}, got ${value}`);
    return value;
  }

  boolean(record: Record<string, unknown>, key: string, path: string): boolean | undefined {
    const value = record[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean')
      return this.issue(joinPath(path, key), `expected true or false, got ${describeValue(value)}`);
    return value;
  }

  array(value: unknown, path: string): unknown[] | undefined {
    if (Array.isArray(value)) return value;
    return this.issue(path, `expected a list, got ${describeValue(value)}`);
  }
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  if (path === '') return safe;
  return /^[A-Za-z_$]/.test(safe) ? `${path}.${safe}` : `${path}[${safe}]`;
}

/** A short description of a value for error messages: `a list`, `the number 42`, `the string "x"`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value === 'boolean' ? 'the value' : 'the number'} ${String(value)}`;
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** The allowed word nearest to a typo, if any is close enough to suggest. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
