import type { Content } from '../../contracts/content.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { StateOp } from '../../contracts/state-op.js';
import { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from '../state/state-keys.js';
import { identifierProblem, IDENTIFIER_HINT } from '../util/identifier.js';
import { joinPath } from '../util/json-reader.js';
import { ENVELOPE_DEPTH, findNonJson, inspectJson, MAX_JSON_DEPTH, type JsonProblem } from '../util/json-value.js';

// What every store, the runner and the JSON readers refuse at the boundary, before anything is written: one place,
// so the in-memory, SQLite, PostgreSQL and file stores cannot drift apart.

/** The hint for values JSON cannot hold or that nest too deeply. */
export const JSON_VALUE_HINT: string = `State values and tool results must be plain JSON data, nested at most ${MAX_JSON_DEPTH} levels.`;

/**
 * Issues for identifier fields (app name, user id, session id…): each must be a string of well-formed Unicode
 * without NUL; `nonEmpty` fields must also not be empty. Absent (`undefined`) fields listed in `optional` pass.
 */
export function identifierIssues(fields: Readonly<Record<string, unknown>>, options: { nonEmpty?: readonly string[]; optional?: readonly string[] } = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined && options.optional?.includes(field) === true) continue;
    if (typeof value !== 'string') {
      issues.push({ path: field, message: 'must be a string' });
    } else if (value === '' && options.nonEmpty?.includes(field) === true) {
      issues.push({ path: field, message: 'must be a non-empty string' });
    } else {
      const problem = identifierProblem(value);
      if (problem !== undefined) issues.push({ path: field, message: problem });
    }
  }
  return issues;
}

/** Throws a `ValidationError` naming each field of a store call's key that is not a usable identifier. */
export function checkKeyFields(subject: string, fields: Readonly<Record<string, unknown>>, options: { optional?: readonly string[] } = {}): void {
  const issues = identifierIssues(fields, options);
  if (issues.length > 0) throw new ValidationError({ subject, issues, hint: IDENTIFIER_HINT });
}

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
      issues.push({ path: `${path}[${JSON.stringify(key)}]`, message: 'is not a usable state key (it would replace the state object’s prototype); choose another name' });
      continue;
    }
    const problem = identifierProblem(key);
    if (problem !== undefined) issues.push({ path: joinPath(path, key), message: `is not a usable state key: it ${problem}` });
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
    else if (SCOPE_PREFIXES.includes(key)) issues.push({ path: joinPath(path, key), message: `is not a usable state key: it names the scope '${key}' and no key in it (write '${key}name')` });
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
    if (typeof name !== 'string' || !OP_NAMES.includes(name)) issues.push({ path: joinPath(at, 'op'), message: `must be one of ${OP_NAMES.join(', ')}` });
    const key = record['key'];
    if (typeof key !== 'string') issues.push({ path: joinPath(at, 'key'), message: 'must be a state key (a string)' });
    else issues.push(...newStateKeyIssues({ [key]: true }, joinPath(at, 'key')).map((issue) => ({ ...issue, path: joinPath(at, 'key') })));
    const args: [string, unknown][] = [];
    if (name === 'add') {
      const by = record['by'];
      if (typeof by !== 'number' || !Number.isFinite(by)) issues.push({ path: joinPath(at, 'by'), message: 'must be a finite number' });
    } else if (name === 'append' || name === 'addToSet') {
      if (!Array.isArray(record['items'])) issues.push({ path: joinPath(at, 'items'), message: 'must be a list of values' });
      else args.push(['items', record['items']]);
    } else if (name === 'setField') {
      const field = record['field'];
      const problem = typeof field !== 'string' ? 'must be a string' : field === PROTO_KEY ? 'is not a usable field name (it would replace the object’s prototype)' : identifierProblem(field);
      if (problem !== undefined) issues.push({ path: joinPath(at, 'field'), message: problem });
      if (record['value'] === undefined) issues.push({ path: joinPath(at, 'value'), message: 'is required (use null for no value)' });
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

/**
 * Issues for an event in its JSON form: its id an identifier, its state delta's keys usable, everything plain JSON,
 * and each value a caller hands over (a state value, a call's arguments, a response) nested at most `MAX_JSON_DEPTH`
 * levels. The whole event is walked once; only an event deeper than that limit is walked again, value by value.
 */
export function eventIssues(event: Event, path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const idProblem = typeof event.id === 'string' ? identifierProblem(event.id) : undefined;
  if (idProblem !== undefined) issues.push({ path: joinPath(path, 'id'), message: idProblem });
  const delta = event.actions.stateDelta;
  issues.push(...stateKeyIssues(delta, joinPath(joinPath(path, 'actions'), 'stateDelta')));
  if (event.actions.stateOps !== undefined) issues.push(...stateOpIssues(event.actions.stateOps, joinPath(joinPath(path, 'actions'), 'stateOps')));
  const { problem, depth } = inspectJson(event, path, { maxDepth: MAX_JSON_DEPTH + ENVELOPE_DEPTH });
  // Deeper than a value may be: find the value that is, so the error names it and the values' own limit.
  const found = depth > MAX_JSON_DEPTH ? (valueDepthProblem(event, path) ?? problem) : problem;
  if (found !== undefined) issues.push(jsonIssue(found));
  return issues;
}

/** Throws the `ValidationError` for `issues`, with the hint of the first one's kind. */
export function refuse(subject: string, issues: readonly ValidationIssue[]): void {
  if (issues.length === 0) return;
  const json = issues[0]?.message.startsWith('cannot be stored as JSON') === true;
  throw new ValidationError({ subject, issues, hint: json ? JSON_VALUE_HINT : IDENTIFIER_HINT });
}

// The values inside an event, each measured from its own root.
function valueDepthProblem(event: Event, path: string): JsonProblem | undefined {
  const actions = joinPath(path, 'actions');
  const records: [Readonly<Record<string, unknown>> | undefined, string][] = [
    [event.actions.stateDelta, joinPath(actions, 'stateDelta')],
    [event.actions.requestedToolConfirmations, joinPath(actions, 'requestedToolConfirmations')],
    [event.actions.requestedAuthConfigs, joinPath(actions, 'requestedAuthConfigs')],
  ];
  for (const [record, at] of records) {
    const problem = record === undefined ? undefined : stateValueProblem(record, at);
    if (problem !== undefined) return problem;
  }
  const payloads: [unknown, string][] = [];
  (Array.isArray(event.actions.stateOps) ? event.actions.stateOps : []).forEach((op: StateOp, index) => {
    if (typeof op !== 'object' || op === null) return;
    const at = joinPath(joinPath(actions, 'stateOps'), index);
    if (op.op === 'setField') payloads.push([op.value, joinPath(at, 'value')]);
    else if (op.op !== 'add') payloads.push([op.items, joinPath(at, 'items')]);
  });
  partPayloads(event.content, joinPath(path, 'content'), payloads);
  const compaction = event.actions.compaction;
  if (compaction !== undefined) partPayloads(compaction.compactedContent, joinPath(joinPath(actions, 'compaction'), 'compactedContent'), payloads);
  for (const [value, at] of payloads) {
    const problem = findNonJson(value, at, { maxDepth: MAX_JSON_DEPTH });
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function partPayloads(content: Content | undefined, path: string, checks: [unknown, string][]): void {
  if (!Array.isArray(content?.parts)) return;
  content.parts.forEach((part, index) => {
    const at = joinPath(joinPath(path, 'parts'), index);
    if ('functionCall' in part && part.functionCall?.args !== undefined) checks.push([part.functionCall.args, joinPath(joinPath(at, 'functionCall'), 'args')]);
    if ('functionResponse' in part && part.functionResponse?.response !== undefined) checks.push([part.functionResponse.response, joinPath(joinPath(at, 'functionResponse'), 'response')]);
  });
}
