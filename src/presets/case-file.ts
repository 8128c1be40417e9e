import type { AgentTree, Processor, Plugin } from '../contracts/agent.js';
import type { EventsCompactionConfig } from '../contracts/compaction.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { Content } from '../contracts/content.js';
import type { Event } from '../contracts/event.js';
import type { Profile, ProfileName } from '../contracts/profile.js';
import type { AssembledRequest } from '../contracts/provenance.js';
import { createAgentTree, inheritedModel } from '../engine/agent/agent-tree.js';
import { deriveProfile, resolveProfile } from '../engine/profile/profiles.js';
import { recordTextReader } from '../engine/session/artifact-rules.js';
import { checkUniqueEventIds, readEvent } from '../engine/session/decode-event.js';
import { JsonReader, isPlainRecord, joinPath } from '../engine/util/json-reader.js';
import { parseCompactionConfig } from '../features/compaction/compaction-config.js';
import { GlobalInstructionPlugin } from '../features/global-instruction/global-instruction-plugin.js';
import { agentFromConfig, type AgentFileOptions } from './agent-files.js';
import { assembleRequest } from './assemble-request.js';
import { CASE_FIELD_SCHEMAS } from './case-file-schema.js';
import { readProfileSpec, type ProfileSpec } from './profile-spec.js';

/** A request to assemble without running anything: an agent tree, who is asked, and the session as it stands. */
export type CaseFile = {
  tree: AgentTree;
  currentAgent: string;
  state: Record<string, unknown>;
  /** Artifact name → text; absent means no artifact store, so `{artifact.…}` fails as in ADK. */
  artifacts: Record<string, string> | undefined;
  events: Event[];
  /** The conventions the request follows: the file's `profile` (or `adkCompatibility: true` for `adk`), with its `valueFormat` and `escapes`. */
  profile: Profile;
  /** What the file itself set of the profile's fields, kept over any other base profile a command picks (`--adk`). */
  profileChanges: Partial<Pick<Profile, 'valueFormat' | 'templateEscapes' | 'python'>>;
  /** Plugins the case runs with, as a runner's (the built-in ones a file can name: `globalInstruction`). */
  plugins: readonly Plugin[];
  branch: string | undefined;
  appName: string;
  userId: string;
  sessionId: string;
  /** When the session's history would be compacted (no summarizer: a file cannot hold one). */
  eventsCompactionConfig?: EventsCompactionConfig;
};

export type CaseFileOptions = AgentFileOptions;

const CASE_FIELDS = Object.keys(CASE_FIELD_SCHEMAS);

/**
 * Reads a case file (YAML or JSON, parsed): `agent` (its declarative form, or the path of an agent file),
 * `currentAgent`, `state`, `artifacts`, `events`, `valueFormat`, `escapes`, `eventsCompactionConfig`, `profile`
 * (`agentctx` or `adk`; `adkCompatibility: true` is the older spelling of `adk`), `plugins`.
 * Events may leave out `id` and `timestamp`; they get `e1`, `e2`, … and 1, 2, … so hand-written cases stay short and
 * deterministic.
 */
export async function parseCaseFile(value: unknown, options: CaseFileOptions): Promise<CaseFile> {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a case: a mapping with agent, state, events');
  if (record === undefined) throw new ValidationError({ subject: options.filename, issues: reader.issues });
  // An agent file where a case is expected is the case of that agent in an empty session: one format everywhere.
  const agentOnly = isAgentDocument(record);
  if (!agentOnly) reader.keys(record, '', CASE_FIELDS);
  const read = await readTree(reader, agentOnly ? record : record['agent'], options, agentOnly ? '' : 'agent');
  const tree = read?.tree;
  const currentAgent = reader.string(record, 'currentAgent', '', { optional: true, nonEmpty: true });
  if (tree !== undefined && currentAgent !== undefined && tree.findAgent(currentAgent) === undefined) {
    reader.issue(
      'currentAgent',
      `no agent named '${currentAgent}'; the agents are ${tree.nodes.map((node) => node.name).join(', ')}`,
    );
  }
  const state =
    record['state'] == null ? {} : reader.object(record['state'], 'state', 'a mapping of state keys to values');
  const artifacts = readArtifactTexts(reader, record['artifacts']);
  const events = readCaseEvents(reader, record['events']);
  const valueFormat = record['valueFormat'];
  if (valueFormat !== undefined && valueFormat !== 'default' && valueFormat !== 'python')
    reader.issue('valueFormat', `expected default or python, got ${JSON.stringify(valueFormat)}`);
  const escapes = reader.boolean(record, 'escapes', '');
  const branch = reader.string(record, 'branch', '', { optional: true });
  const compaction = readCompactionConfig(reader, record['eventsCompactionConfig']);
  const spec = readProfile(reader, agentOnly ? {} : record, read?.profile);
  const base = spec.name;
  const profileChanges: CaseFile['profileChanges'] = {
    ...(spec.python === undefined ? {} : { python: spec.python }),
    ...(valueFormat === 'default' || valueFormat === 'python'
      ? { valueFormat: valueFormat as 'default' | 'python' }
      : {}),
    ...(escapes === undefined ? {} : { templateEscapes: escapes }),
  };
  const plugins = readPlugins(reader, record['plugins']);
  const names = {
    appName: reader.string(record, 'appName', '', { optional: true, nonEmpty: true }) ?? 'agentctx',
    userId: reader.string(record, 'userId', '', { optional: true, nonEmpty: true }) ?? 'user',
    sessionId: reader.string(record, 'sessionId', '', { optional: true, nonEmpty: true }) ?? 'session',
  };
  if (reader.issues.length > 0 || tree === undefined || state === undefined)
    throw new ValidationError({ subject: options.filename, issues: reader.issues });
  return {
    tree,
    currentAgent: currentAgent ?? tree.root.name,
    state,
    artifacts,
    events,
    profile: caseProfile(base, profileChanges),
    profileChanges,
    plugins,
    branch,
    ...names,
    ...(compaction === undefined ? {} : { eventsCompactionConfig: compaction }),
  };
}

export type AssembleCaseOptions = {
  /** The processors to run; the agent's own, else the default pipeline, when absent. */
  pipeline?: readonly Processor[] | undefined;
  /**
   * Whether the model an agent names pairs calls with responses by id (`modelPairsCallsById` from `agentctx/models`),
   * so the request keeps generated call ids, as the runner would for that model. No by default.
   */
  pairsCallsById?: ((model: string) => boolean) | undefined;
  /** Whether the model an agent names holds deferred tool definitions back itself (`modelLoadsDeferredTools`). No by default. */
  loadsDeferredTools?: ((model: string) => boolean) | undefined;
};

/** Assembles the case's request with the default pipeline, or the one given. */
export function assembleCase(caseFile: CaseFile, options: AssembleCaseOptions = {}): Promise<AssembledRequest> {
  const model = inheritedModel(caseFile.tree.getAgent(caseFile.currentAgent));
  const pipeline = options.pipeline;
  return assembleRequest({
    agents: caseFile.tree,
    agentName: caseFile.currentAgent,
    appName: caseFile.appName,
    userId: caseFile.userId,
    sessionId: caseFile.sessionId,
    events: caseFile.events,
    userContent: invocationMessage(caseFile.events),
    state: caseFile.state,
    artifacts: caseFile.artifacts === undefined ? undefined : recordTextReader(caseFile.artifacts),
    branch: caseFile.branch,
    profile: caseFile.profile,
    plugins: caseFile.plugins,
    preserveFunctionCallIds: model !== undefined && options.pairsCallsById?.(model) === true,
    loadsDeferredTools: model !== undefined && options.loadsDeferredTools?.(model) === true,
    pipeline,
  });
}

// The user message that started the invocation the case continues: the last one the user typed (not a tool's answer).
function invocationMessage(events: readonly Event[]): Content | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const content = events[index]?.content;
    if (
      events[index]?.author === 'user' &&
      content !== undefined &&
      !content.parts.some((part) => 'functionResponse' in part)
    )
      return content;
  }
  return undefined;
}

/** A named profile with what a case file changed of it. */
export function caseProfile(base: ProfileName, changes: CaseFile['profileChanges']): Profile {
  return Object.keys(changes).length === 0 ? resolveProfile(base) : deriveProfile(base, { name: base, ...changes });
}

// `profile: agentctx|adk|{ name, python }`, or the older `adkCompatibility: true|false` (not both); else the agent
// file's own `profile`, else agentctx.
function readProfile(reader: JsonReader, record: Record<string, unknown>, agentFile: unknown): ProfileSpec {
  const legacy = reader.boolean(record, 'adkCompatibility', '');
  if (record['profile'] === undefined) {
    if (legacy !== undefined) return { name: legacy ? 'adk' : 'agentctx' };
    // Checked where the agent file was read: here only a valid one is taken.
    return (
      (agentFile === undefined ? undefined : readProfileSpec(new JsonReader(), agentFile, '')) ?? { name: 'agentctx' }
    );
  }
  const spec = readProfileSpec(reader, record['profile'], 'profile') ?? { name: 'agentctx' };
  if (legacy !== undefined && (legacy ? 'adk' : 'agentctx') !== spec.name)
    reader.issue('adkCompatibility', `contradicts profile: ${spec.name}; keep only profile`);
  return spec;
}

// The plugins a file can name: ADK's GlobalInstructionPlugin, as `{ globalInstruction: <template> }`.
function readPlugins(reader: JsonReader, value: unknown): Plugin[] {
  if (value == null) return [];
  const plugins: Plugin[] = [];
  (reader.array(value, 'plugins') ?? []).forEach((item, index) => {
    const at = joinPath('plugins', index);
    const record = reader.object(item, at, 'a plugin: { globalInstruction: <text> }');
    if (record === undefined) return;
    reader.keys(record, at, ['globalInstruction', 'global_instruction', 'name']);
    const text = reader.string(
      record,
      record['global_instruction'] === undefined ? 'globalInstruction' : 'global_instruction',
      at,
    );
    const name = reader.string(record, 'name', at, { optional: true, nonEmpty: true });
    if (text !== undefined) plugins.push(new GlobalInstructionPlugin(text, ...(name === undefined ? [] : [name])));
  });
  return plugins;
}

/**
 * Whether a document is an agent file (it names an agent, and has no `agent` entry), rather than a case file, whose
 * `agent` entry holds or names one.
 */
export function isAgentDocument(value: unknown): value is Record<string, unknown> {
  return (
    isPlainRecord(value) &&
    value['agent'] === undefined &&
    (value['name'] !== undefined || value['agent_class'] !== undefined || value['agentClass'] !== undefined)
  );
}

/** Whether a document is a case file: an `agent` entry, and no agent `name` of its own. */
export function isCaseDocument(value: unknown): value is Record<string, unknown> {
  return isPlainRecord(value) && value['agent'] !== undefined && value['name'] === undefined;
}

// `prefix` names where the agent sits in the document: `agent` in a case file, nothing in an agent file.
async function readTree(
  reader: JsonReader,
  value: unknown,
  options: CaseFileOptions,
  prefix: string,
): Promise<{ tree: AgentTree; profile: unknown } | undefined> {
  if (value === undefined)
    return reader.issue('agent', 'is required: the agent definition, or the path of an agent file');
  let definitionValue: unknown = value;
  let filename = options.filename;
  if (typeof value === 'string') {
    if (options.load === undefined)
      return reader.issue('agent', 'agent files cannot be read here; define the agent inline');
    const loaded = await options.load(value, options.filename);
    definitionValue = loaded.value;
    filename = loaded.filename;
  }
  try {
    const definition = await agentFromConfig(definitionValue, { ...options, filename });
    // The agent file's own `profile` (read, and checked, by agentFromConfig), for a case that names none.
    return {
      tree: createAgentTree(definition),
      profile: isPlainRecord(definitionValue) ? definitionValue['profile'] : undefined,
    };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues) reader.issue(underPath(prefix, issue.path), issue.message);
    return undefined;
  }
}

// A path below another: `agent` + `tools[0]` is `agent.tools[0]`, not `agent["tools[0]"]`.
function underPath(prefix: string, path: string): string {
  if (prefix === '' || path === '') return prefix || path;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

// The compaction settings, checked with ADK's rules; problems are reported under eventsCompactionConfig.
function readCompactionConfig(reader: JsonReader, value: unknown): EventsCompactionConfig | undefined {
  if (value == null) return undefined;
  if (isPlainRecord(value) && value['summarizer'] !== undefined) {
    return reader.issue(
      'eventsCompactionConfig.summarizer',
      "cannot be set in a file; 'agentctx compact --summarizer' chooses one",
    );
  }
  try {
    return parseCompactionConfig(value);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues)
      reader.issue(
        issue.path === '' ? 'eventsCompactionConfig' : joinPath('eventsCompactionConfig', issue.path),
        issue.message,
      );
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
