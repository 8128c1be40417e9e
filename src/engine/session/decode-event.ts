import type { Content } from '../../contracts/content.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event, EventActions, EventCompaction, Usage } from '../../contracts/event.js';
import type { StateOp } from '../../contracts/state-op.js';
import { JsonReader, joinPath } from '../util/json-reader.js';
import { readContent } from './decode-content.js';
import { eventIssues } from './input-rules.js';

const EVENT_FIELDS = [
  'id',
  'invocationId',
  'author',
  'branch',
  'timestamp',
  'content',
  'actions',
  'usage',
  'longRunningToolIds',
  'partial',
  'errorCode',
  'errorMessage',
] as const;

// Fields of ADK's serialized events that carry nothing agentctx uses; accepted so ADK exports load as they are.
const ADK_ONLY_FIELDS = [
  'usageMetadata',
  'turnComplete',
  'interrupted',
  'finishReason',
  'modelVersion',
  'groundingMetadata',
  'citationMetadata',
  'customMetadata',
  'avgLogprobs',
  'logprobsResult',
  'liveSessionResumptionUpdate',
  'inputTranscription',
  'outputTranscription',
  'nodeInfo',
  'isolationScope',
  'output',
  'interactionId',
  'cacheMetadata',
];

const ACTION_FIELDS = [
  'stateDelta',
  'stateOps',
  'artifactDelta',
  'transferToAgent',
  'escalate',
  'skipSummarization',
  'compaction',
  'rewindBeforeInvocationId',
  'requestedToolConfirmations',
  'requestedAuthConfigs',
] as const;
const ADK_ONLY_ACTION_FIELDS = ['endOfAgent', 'agentState', 'renderUiWidgets', 'route', 'setModelResponse'];

/** Reads one event in its JSON form, reporting problems to `reader`. */
export function readEvent(reader: JsonReader, value: unknown, path: string): Event | undefined {
  const record = reader.object(value, path, 'an event');
  if (record === undefined) return undefined;
  reader.keys(record, path, EVENT_FIELDS, ADK_ONLY_FIELDS);
  const id = reader.string(record, 'id', path, { nonEmpty: true });
  const invocationId = reader.string(record, 'invocationId', path, { optional: true }) ?? '';
  const author = reader.string(record, 'author', path);
  const branch = reader.string(record, 'branch', path, { optional: true });
  const timestamp = reader.number(record, 'timestamp', path, { min: 0 });
  const content =
    record['content'] == null ? undefined : readContent(reader, record['content'], joinPath(path, 'content'));
  const actions =
    record['actions'] == null
      ? { stateDelta: {}, artifactDelta: {} }
      : readActions(reader, record['actions'], joinPath(path, 'actions'));
  const usage = readUsage(reader, record, path);
  const partial = reader.boolean(record, 'partial', path);
  const errorCode = reader.string(record, 'errorCode', path, { optional: true });
  const errorMessage = reader.string(record, 'errorMessage', path, { optional: true });
  if (id === undefined || author === undefined || timestamp === undefined || actions === undefined) return undefined;
  const event: Event = { id, invocationId, author, timestamp, actions };
  if (branch !== undefined && branch !== '') event.branch = branch;
  if (content !== undefined) event.content = content;
  if (usage !== undefined) event.usage = usage;
  const longRunning = readIds(reader, record['longRunningToolIds'], joinPath(path, 'longRunningToolIds'));
  if (longRunning !== undefined && longRunning.length > 0) event.longRunningToolIds = longRunning;
  if (partial !== undefined) event.partial = partial;
  if (errorCode !== undefined) event.errorCode = errorCode;
  if (errorMessage !== undefined) event.errorMessage = errorMessage;
  // The rules every store applies (id, state keys, JSON depth), reported here with the rest.
  for (const issue of eventIssues(event, path)) reader.issue(issue.path, issue.message);
  return event;
}

// ADK writes an empty list for an event with no long-running calls; both read as none.
function readIds(reader: JsonReader, value: unknown, path: string): string[] | undefined {
  if (value == null) return undefined;
  const list = reader.array(value, path);
  if (list === undefined) return undefined;
  const ids = list.filter((id): id is string => typeof id === 'string' && id !== '');
  if (ids.length !== list.length) return reader.issue(path, 'expected a list of function call ids (strings)');
  return ids;
}

function readActions(reader: JsonReader, value: unknown, path: string): EventActions | undefined {
  const record = reader.object(value, path);
  if (record === undefined) return undefined;
  reader.keys(record, path, ACTION_FIELDS, ADK_ONLY_ACTION_FIELDS);
  const stateDelta =
    record['stateDelta'] == null ? {} : reader.object(record['stateDelta'], joinPath(path, 'stateDelta'));
  const artifactDelta = readArtifactDelta(reader, record['artifactDelta'], joinPath(path, 'artifactDelta'));
  const transferToAgent = reader.string(record, 'transferToAgent', path, { optional: true, nonEmpty: true });
  const escalate = reader.boolean(record, 'escalate', path);
  const skipSummarization = reader.boolean(record, 'skipSummarization', path);
  const rewind = reader.string(record, 'rewindBeforeInvocationId', path, { optional: true, nonEmpty: true });
  const compaction =
    record['compaction'] == null
      ? undefined
      : readCompaction(reader, record['compaction'], joinPath(path, 'compaction'));
  // Checked in full (each operation's name, key and arguments) with the rest of the event, by `eventIssues`.
  const stateOps =
    record['stateOps'] == null ? undefined : reader.array(record['stateOps'], joinPath(path, 'stateOps'));
  if (stateDelta === undefined || artifactDelta === undefined) return undefined;
  const actions: EventActions = { stateDelta, artifactDelta };
  if (stateOps !== undefined && stateOps.length > 0) actions.stateOps = stateOps as StateOp[];
  if (transferToAgent !== undefined) actions.transferToAgent = transferToAgent;
  if (escalate !== undefined) actions.escalate = escalate;
  if (skipSummarization !== undefined) actions.skipSummarization = skipSummarization;
  if (compaction !== undefined) actions.compaction = compaction;
  if (rewind !== undefined) actions.rewindBeforeInvocationId = rewind;
  for (const key of ['requestedToolConfirmations', 'requestedAuthConfigs'] as const) {
    if (record[key] == null) continue;
    const requests = reader.object(record[key], joinPath(path, key), 'an object of function call id → request');
    if (requests !== undefined) actions[key] = requests;
  }
  return actions;
}

function readArtifactDelta(reader: JsonReader, value: unknown, path: string): Record<string, number> | undefined {
  if (value == null) return {};
  const record = reader.object(value, path, 'an object of artifact name → version');
  if (record === undefined) return undefined;
  const delta: Record<string, number> = {};
  for (const key of Object.keys(record)) {
    const version = reader.number(record, key, path, { integer: true, min: 0 });
    if (version !== undefined) delta[key] = version;
  }
  return delta;
}

function readCompaction(reader: JsonReader, value: unknown, path: string): EventCompaction | undefined {
  const record = reader.object(value, path);
  if (record === undefined) return undefined;
  reader.keys(record, path, ['startTimestamp', 'endTimestamp', 'compactedContent', 'eventIds']);
  const startTimestamp = reader.number(record, 'startTimestamp', path, { min: 0 });
  const endTimestamp = reader.number(record, 'endTimestamp', path, { min: 0 });
  const compactedContent: Content | undefined = readContent(
    reader,
    record['compactedContent'],
    joinPath(path, 'compactedContent'),
  );
  if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
    reader.issue(path, `startTimestamp ${startTimestamp} is after endTimestamp ${endTimestamp}`);
  }
  const ids = record['eventIds'] == null ? undefined : reader.array(record['eventIds'], joinPath(path, 'eventIds'));
  if (ids !== undefined && !ids.every((id) => typeof id === 'string'))
    reader.issue(joinPath(path, 'eventIds'), 'expected a list of event ids');
  if (startTimestamp === undefined || endTimestamp === undefined || compactedContent === undefined) return undefined;
  return {
    startTimestamp,
    endTimestamp,
    compactedContent,
    ...(ids === undefined ? {} : { eventIds: ids as string[] }),
  };
}

const USAGE_FIELDS = ['promptTokens', 'outputTokens', 'cachedTokens', 'totalTokens'] as const;
// ADK's usageMetadata names, mapped onto ours.
const ADK_USAGE_FIELDS: Record<string, (typeof USAGE_FIELDS)[number]> = {
  promptTokenCount: 'promptTokens',
  candidatesTokenCount: 'outputTokens',
  cachedContentTokenCount: 'cachedTokens',
  totalTokenCount: 'totalTokens',
};

function readUsage(reader: JsonReader, event: Record<string, unknown>, path: string): Usage | undefined {
  const ours = event['usage'];
  const theirs = event['usageMetadata'];
  if (ours == null && (theirs == null || typeof theirs !== 'object')) return undefined;
  const usage: Usage = {};
  if (ours != null) {
    const record = reader.object(ours, joinPath(path, 'usage'));
    if (record === undefined) return undefined;
    reader.keys(record, joinPath(path, 'usage'), USAGE_FIELDS);
    for (const field of USAGE_FIELDS) {
      const count = reader.number(record, field, joinPath(path, 'usage'), { optional: true, integer: true, min: 0 });
      if (count !== undefined) usage[field] = count;
    }
    return usage;
  }
  const record = theirs as Record<string, unknown>;
  for (const [name, field] of Object.entries(ADK_USAGE_FIELDS)) {
    const count = record[name];
    if (typeof count === 'number' && Number.isInteger(count) && count >= 0) usage[field] = count;
  }
  return usage;
}

/** Validates one event in its JSON form; throws a `ValidationError` listing every problem. */
export function parseEvent(value: unknown, subject = 'event'): Event {
  const reader = new JsonReader();
  const event = readEvent(reader, value, '');
  if (event === undefined || reader.issues.length > 0) throw new ValidationError({ subject, issues: reader.issues });
  return event;
}

/** Validates a list of events in their JSON form. */
export function parseEvents(value: unknown, subject = 'events'): Event[] {
  const reader = new JsonReader();
  const events: Event[] = [];
  const list = reader.array(value, '');
  list?.forEach((item, index) => {
    const event = readEvent(reader, item, `[${index}]`);
    if (event !== undefined) events.push(event);
  });
  checkUniqueEventIds(reader, events, '');
  if (list === undefined || reader.issues.length > 0) throw new ValidationError({ subject, issues: reader.issues });
  return events;
}

/** Reports events that reuse an earlier event's id; ids identify events in provenance and compaction records. */
export function checkUniqueEventIds(reader: JsonReader, events: readonly Event[], path: string): void {
  const seen = new Set<string>();
  events.forEach((event, index) => {
    if (seen.has(event.id)) reader.issue(joinPath(joinPath(path, index), 'id'), `duplicate event id '${event.id}'`);
    seen.add(event.id);
  });
}
