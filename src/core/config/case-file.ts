import { agentFromConfig, type AgentConfigOptions } from '../agent/agent-config.js';
import { createAgentTree, type AgentTree } from '../agent/agent-tree.js';
import { parseCompactionConfig, type EventsCompactionConfig } from '../compaction/compaction-config.js';
import { ValidationError } from '../errors/validation-error.js';
import { assembleRequest, type AssembledRequest } from '../request/assemble.js';
import type { Processor } from '../request/processor.js';
import { recordTextReader } from '../session/artifact-rules.js';
import { checkUniqueEventIds, readEvent } from '../session/decode-event.js';
import type { Event } from '../session/event.js';
import { JsonReader, isPlainRecord, joinPath } from '../util/json-reader.js';

/** A request to assemble without running anything: an agent tree, who is asked, and the session as it stands. */
export type CaseFile = {
  tree: AgentTree;
  currentAgent: string;
  state: Record<string, unknown>;
  /** Artifact name → text; absent means no artifact store, so `{artifact.…}` fails as in ADK. */
  artifacts: Record<string, string> | undefined;
  events: Event[];
  valueFormat: 'default' | 'python';
  escapes: boolean;
  branch: string | undefined;
  appName: string;
  userId: string;
  sessionId: string;
  /** When the session's history would be compacted (no summarizer: a file cannot hold one). */
  eventsCompactionConfig?: EventsCompactionConfig;
  /** ADK's rules for the request (summaries shown as ADK does) and for compaction. */
  adkCompatibility?: boolean;
};

export type CaseFileOptions = AgentConfigOptions;

const CASE_FIELDS = ['agent', 'currentAgent', 'state', 'artifacts', 'events', 'valueFormat', 'escapes', 'branch', 'appName', 'userId', 'sessionId', 'eventsCompactionConfig', 'adkCompatibility'];

/**
 * Reads a case file (YAML or JSON, parsed): `agent` (its declarative form, or the path of an agent file),
 * `currentAgent`, `state`, `artifacts`, `events`, `valueFormat`, `eventsCompactionConfig`, `adkCompatibility`.
 * Events may leave out `id` and `timestamp`; they get `e1`, `e2`, … and 1, 2, … so hand-written cases stay short and
 * deterministic.
 */
export async function parseCaseFile(value: unknown, options: CaseFileOptions): Promise<CaseFile> {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a case: a mapping with agent, state, events');
  if (record === undefined) throw new ValidationError({ subject: options.filename, issues: reader.issues });
  reader.keys(record, '', CASE_FIELDS);
  const tree = await readTree(reader, record['agent'], options);
  const currentAgent = reader.string(record, 'currentAgent', '', { optional: true, nonEmpty: true });
  if (tree !== undefined && currentAgent !== undefined && tree.findAgent(currentAgent) === undefined) {
    reader.issue('currentAgent', `no agent named '${currentAgent}'; the agents are ${tree.nodes.map((node) => node.name).join(', ')}`);
  }
  const state = record['state'] == null ? {} : reader.object(record['state'], 'state', 'a mapping of state keys to values');
  const artifacts = readArtifactTexts(reader, record['artifacts']);
  const events = readCaseEvents(reader, record['events']);
  const valueFormat = record['valueFormat'] ?? 'default';
  if (valueFormat !== 'default' && valueFormat !== 'python') reader.issue('valueFormat', `expected default or python, got ${JSON.stringify(valueFormat)}`);
  const escapes = reader.boolean(record, 'escapes', '') ?? false;
  const branch = reader.string(record, 'branch', '', { optional: true });
  const compaction = readCompactionConfig(reader, record['eventsCompactionConfig']);
  const adkCompatibility = reader.boolean(record, 'adkCompatibility', '');
  const names = {
    appName: reader.string(record, 'appName', '', { optional: true, nonEmpty: true }) ?? 'agentctx',
    userId: reader.string(record, 'userId', '', { optional: true, nonEmpty: true }) ?? 'user',
    sessionId: reader.string(record, 'sessionId', '', { optional: true, nonEmpty: true }) ?? 'session',
  };
  if (reader.issues.length > 0 || tree === undefined || state === undefined) throw new ValidationError({ subject: options.filename, issues: reader.issues });
  return {
    tree,
    currentAgent: currentAgent ?? tree.root.name,
    state,
    artifacts,
    events,
    valueFormat: valueFormat === 'python' ? 'python' : 'default',
    escapes,
    branch,
    ...names,
    ...(compaction === undefined ? {} : { eventsCompactionConfig: compaction }),
    ...(adkCompatibility === undefined ? {} : { adkCompatibility }),
  };
}

/** Assembles the case's request with the default pipeline, or the one given. */
export function assembleCase(caseFile: CaseFile, pipeline?: readonly Processor[]): Promise<AssembledRequest> {
  return assembleRequest({
    agents: caseFile.tree,
    agentName: caseFile.currentAgent,
    appName: caseFile.appName,
    userId: caseFile.userId,
    sessionId: caseFile.sessionId,
    events: caseFile.events,
    state: caseFile.state,
    artifacts: caseFile.artifacts === undefined ? undefined : recordTextReader(caseFile.artifacts),
    branch: caseFile.branch,
    valueFormat: caseFile.valueFormat,
    escapes: caseFile.escapes,
    adkCompatibility: caseFile.adkCompatibility,
    pipeline,
  });
}

async function readTree(reader: JsonReader, value: unknown, options: CaseFileOptions): Promise<AgentTree | undefined> {
  if (value === undefined) return reader.issue('agent', 'is required: the agent definition, or the path of an agent file');
  let definitionValue: unknown = value;
  let filename = options.filename;
  if (typeof value === 'string') {
    if (options.load === undefined) return reader.issue('agent', 'agent files cannot be read here; define the agent inline');
    const loaded = await options.load(value, options.filename);
    definitionValue = loaded.value;
    filename = loaded.filename;
  }
  try {
    const definition = await agentFromConfig(definitionValue, { ...options, filename });
    return createAgentTree(definition);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues) reader.issue(issue.path === '' ? 'agent' : joinPath('agent', issue.path), issue.message);
    return undefined;
  }
}

// The compaction settings, checked with ADK's rules; problems are reported under eventsCompactionConfig.
function readCompactionConfig(reader: JsonReader, value: unknown): EventsCompactionConfig | undefined {
  if (value == null) return undefined;
  if (isPlainRecord(value) && value['summarizer'] !== undefined) {
    return reader.issue('eventsCompactionConfig.summarizer', "cannot be set in a file; 'agentctx compact --summarizer' chooses one");
  }
  try {
    return parseCompactionConfig(value);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues) reader.issue(issue.path === '' ? 'eventsCompactionConfig' : joinPath('eventsCompactionConfig', issue.path), issue.message);
    return undefined;
  }
}

function readArtifactTexts(reader: JsonReader, value: unknown): Record<string, string> | undefined {
  if (value == null) return undefined;
  const map = reader.object(value, 'artifacts', 'a mapping of artifact name → text');
  const artifacts: Record<string, string> = {};
  for (const [name, text] of Object.entries(map ?? {})) {
    if (typeof text === 'string') artifacts[name] = text;
    else reader.issue(joinPath('artifacts', name), 'expected the artifact text (a string)');
  }
  return artifacts;
}

function readCaseEvents(reader: JsonReader, value: unknown): Event[] {
  if (value == null) return [];
  const list = reader.array(value, 'events') ?? [];
  const events: Event[] = [];
  list.forEach((item, index) => {
    const withDefaults = isPlainRecord(item) ? { id: `e${index + 1}`, timestamp: index + 1, ...item } : item;
    const event = readEvent(reader, withDefaults, joinPath('events', index));
    if (event !== undefined) events.push(event);
  });
  checkUniqueEventIds(reader, events, 'events');
  return events;
}
