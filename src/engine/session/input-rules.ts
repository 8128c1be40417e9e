import type { Content } from '../../contracts/content.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { StateOp } from '../../contracts/state-op.js';
import { JSON_VALUE_HINT, jsonIssue, stateKeyIssues, stateOpIssues, stateValueProblem } from '../state/state-rules.js';
import { identifierProblem, IDENTIFIER_HINT } from '../util/identifier.js';
import { joinPath } from '../util/json-reader.js';
import { ENVELOPE_DEPTH, findNonJson, inspectJson, MAX_JSON_DEPTH, type JsonProblem } from '../util/json-value.js';

// What every store, the runner and the JSON readers refuse at the boundary, before anything is written: one place,
// so the in-memory, SQLite, PostgreSQL and file stores cannot drift apart.

/**
 * Issues for identifier fields (app name, user id, session id…): each must be a string of well-formed Unicode
 * without NUL; `nonEmpty` fields must also not be empty. Absent (`undefined`) fields listed in `optional` pass.
 */
export function identifierIssues(
  fields: Readonly<Record<string, unknown>>,
  options: { nonEmpty?: readonly string[]; optional?: readonly string[] } = {},
): ValidationIssue[] {
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
export function checkKeyFields(
  subject: string,
  fields: Readonly<Record<string, unknown>>,
  options: { optional?: readonly string[] } = {},
): void {
  const issues = identifierIssues(fields, options);
  if (issues.length > 0) throw new ValidationError({ subject, issues, hint: IDENTIFIER_HINT });
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
  if (event.actions.stateOps !== undefined)
    issues.push(...stateOpIssues(event.actions.stateOps, joinPath(joinPath(path, 'actions'), 'stateOps')));
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
  if (compaction !== undefined)
    partPayloads(compaction.compactedContent, joinPath(joinPath(actions, 'compaction'), 'compactedContent'), payloads);
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
    if ('functionCall' in part && part.functionCall?.args !== undefined)
      checks.push([part.functionCall.args, joinPath(joinPath(at, 'functionCall'), 'args')]);
    if ('functionResponse' in part && part.functionResponse?.response !== undefined)
      checks.push([part.functionResponse.response, joinPath(joinPath(at, 'functionResponse'), 'response')]);
  });
}
