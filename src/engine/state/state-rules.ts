import type { ValidationIssue } from '../../contracts/errors/validation-error.js';
import { identifierProblem } from '../util/identifier.js';
import { joinPath } from '../util/json-reader.js';
import { findNonJson, MAX_JSON_DEPTH, type JsonProblem } from '../util/json-value.js';
import { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from './state-keys.js';

// What state keys, values and operations must be, wherever they come from (a store's input, a tool's write, ADK's
// PATCH): one place, below the session stores and the runner that check them.

/** The hint for values JSON cannot hold or that nest too deeply. */
export const JSON_VALUE_HINT: string = `State values and tool results must be plain JSON data, nested at most ${MAX_JSON_DEPTH} levels.`;

// A key no object can hold by assignment: it replaces the object's prototype instead (JSON.parse makes it a key).
const PROTO_KEY = '__proto__';

/**
 * Issues for the keys of a state record or delta: each an identifier, and none that is `__proto__` once its scope
 * prefix is removed (stores keep `app:` and `user:` keys without the prefix, in records of their own).
 */
export function stateKeyIssues(record: Readonly<Record<string, unknown>>, path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(record)) {
    if (key === PROTO_KEY || key === APP_PREFIX + PROTO_KEY || key === USER_PREFIX + PROTO_KEY) {
      issues.push({
        path: `${path}[${JSON.stringify(key)}]`,
        message: 'is not a usable state key (it would replace the state object’s prototype); choose another name',
      });
      continue;
    }
    const problem = identifierProblem(key);
    if (problem !== undefined)
      issues.push({ path: joinPath(path, key), message: `is not a usable state key: it ${problem}` });
  }
  return issues;
}

/**
 * Issues for keys a new write names (state operations, ADK's PATCH): besides `stateKeyIssues`, not empty and not a
 * bare scope prefix. Stored state keeps whatever keys it has, so reading a session never fails on one.
 */
export function newStateKeyIssues(record: Readonly<Record<string, unknown>>, path: string): ValidationIssue[] {
  const issues = stateKeyIssues(record, path);
  for (const key of Object.keys(record)) {
    if (key === '') issues.push({ path: joinPath(path, key), message: 'is not a usable state key: it is empty' });
    else if (SCOPE_PREFIXES.includes(key))
      issues.push({
        path: joinPath(path, key),
        message: `is not a usable state key: it names the scope '${key}' and no key in it (write '${key}name')`,
      });
  }
  return issues;
}

const SCOPE_PREFIXES: readonly string[] = [APP_PREFIX, USER_PREFIX, TEMP_PREFIX];

const OP_NAMES: readonly string[] = ['add', 'append', 'setField', 'addToSet'];

/**
 * Issues for a list of state operations (an event's `stateOps`): each an object with a known `op`, a usable state
 * `key` and its arguments (`by` a finite number; `items` a list; `field` a string that is not `__proto__`, well-formed
 * and without NUL; `value` present). With `values`, the arguments must also be plain JSON nested at most
 * `MAX_JSON_DEPTH` levels (an event's own check covers that when they travel in one).
 */
export function stateOpIssues(ops: unknown, path: string, options: { values?: boolean } = {}): ValidationIssue[] {
  if (!Array.isArray(ops)) return [{ path, message: 'must be a list of state operations ({ op, key, … })' }];
  const issues: ValidationIssue[] = [];
  ops.forEach((op: unknown, index) => {
    const at = joinPath(path, index);
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      issues.push({ path: at, message: 'must be a state operation ({ op, key, … })' });
      return;
    }
    const record = op as Record<string, unknown>;
    const name = record['op'];
    if (typeof name !== 'string' || !OP_NAMES.includes(name))
      issues.push({ path: joinPath(at, 'op'), message: `must be one of ${OP_NAMES.join(', ')}` });
    const key = record['key'];
    if (typeof key !== 'string') issues.push({ path: joinPath(at, 'key'), message: 'must be a state key (a string)' });
    else
      issues.push(
        ...newStateKeyIssues({ [key]: true }, joinPath(at, 'key')).map((issue) => ({
          ...issue,
          path: joinPath(at, 'key'),
        })),
      );
    const args: [string, unknown][] = [];
    if (name === 'add') {
      const by = record['by'];
      if (typeof by !== 'number' || !Number.isFinite(by))
        issues.push({ path: joinPath(at, 'by'), message: 'must be a finite number' });
    } else if (name === 'append' || name === 'addToSet') {
      if (!Array.isArray(record['items']))
        issues.push({ path: joinPath(at, 'items'), message: 'must be a list of values' });
      else args.push(['items', record['items']]);
    } else if (name === 'setField') {
      const field = record['field'];
      const problem =
        typeof field !== 'string'
          ? 'must be a string'
          : field === PROTO_KEY
            ? 'is not a usable field name (it would replace the object’s prototype)'
            : identifierProblem(field);
      if (problem !== undefined) issues.push({ path: joinPath(at, 'field'), message: problem });
      if (record['value'] === undefined)
        issues.push({ path: joinPath(at, 'value'), message: 'is required (use null for no value)' });
      else args.push(['value', record['value']]);
    }
    for (const [field, value] of options.values === true ? args : []) {
      const problem = findNonJson(value, joinPath(at, field), { maxDepth: MAX_JSON_DEPTH });
      if (problem !== undefined) issues.push(jsonIssue(problem));
    }
  });
  return issues;
}

/** The issue for a value that cannot be stored as JSON. */
export function jsonIssue(problem: JsonProblem): ValidationIssue {
  return { path: problem.path, message: `cannot be stored as JSON (found ${problem.found})` };
}

/** A state record (a new session's state, a delta): each value plain JSON nested at most `MAX_JSON_DEPTH` levels. */
export function stateValueProblem(record: Readonly<Record<string, unknown>>, path: string): JsonProblem | undefined {
  for (const key of Object.keys(record)) {
    const problem = findNonJson(record[key], joinPath(path, key), { maxDepth: MAX_JSON_DEPTH });
    if (problem !== undefined) return problem;
  }
  return undefined;
}
