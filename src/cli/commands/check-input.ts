import { extname } from 'node:path';
import type { AgentTree } from '../../contracts/agent.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { parseDocument } from '../../engine/config/parse-document.js';
import { JsonReader, joinPath } from '../../engine/util/json-reader.js';
import { isLlmAgent } from '../../engine/agent/agent-tree.js';
import { isAgentDocument, isCaseDocument, parseCaseFile } from '../../presets/case-file.js';
import { adkRefusals } from '../adk-refusals.js';
import { isAdkSpelled } from '../../presets/adk-spelling.js';
import { nodeAgentFiles } from '../agent-files.js';
import type { AdkBinding } from '../../presets/adk-bindings.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { readInputFile } from '../read-input-file.js';

export type CheckInput = {
  templates: { name: string; text: string }[];
  state: Record<string, unknown> | undefined;
  artifacts: Record<string, string> | undefined;
  valueFormat: 'default' | 'python';
  escapes: boolean;
  /** The agent tree, when the file is an agent file or a case file: the context lint reads it. */
  tree?: AgentTree;
  /** What ADK's own loader would refuse in the agent file (written in ADK's spelling). */
  adkRefusals?: string[];
};

const DOCUMENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
const CHECK_FILE_FIELDS = ['template', 'templates', 'state', 'artifacts', 'valueFormat', 'escapes'];

/**
 * Reads what `check` works on: a YAML/JSON check file, or any other file as one template. An agent file's Python
 * names are bound by `bindings`; what it names that will not run is told to `warn`.
 */
export async function readCheckInput(
  path: string,
  cwd: string,
  options: { warn?: (message: string) => void; bindings?: Readonly<Record<string, AdkBinding>> | undefined } = {},
): Promise<CheckInput> {
  if (!DOCUMENT_EXTENSIONS.has(extname(path).toLowerCase())) {
    const text = await readInputFile(path, cwd);
    return {
      templates: [{ name: path, text }],
      state: undefined,
      artifacts: undefined,
      valueFormat: 'default',
      escapes: false,
    };
  }
  const { value: document } = await loadDocumentFile(path, cwd);
  if (isAgentDocument(document) || isCaseDocument(document)) {
    const input = await readAgentTemplates(document, path, cwd, options);
    return isAgentDocument(document) ? { ...input, adkRefusals: adkRefusals(document) } : caseRefusals(document, input);
  }
  const reader = new JsonReader();
  const record = reader.object(document, '', 'a mapping with templates and state');
  if (record === undefined) throw new ValidationError({ subject: path, issues: reader.issues });
  reader.keys(record, '', CHECK_FILE_FIELDS);
  const templates: { name: string; text: string }[] = [];
  const single = reader.string(record, 'template', '', { optional: true });
  if (single !== undefined) templates.push({ name: 'template', text: single });
  if (record['templates'] !== undefined) {
    const map = reader.object(record['templates'], 'templates', 'a mapping of name → template text');
    for (const [name, value] of Object.entries(map ?? {})) {
      if (typeof value === 'string') templates.push({ name, text: value });
      else reader.issue(joinPath('templates', name), 'expected the template text (a string)');
    }
  }
  if (templates.length === 0 && reader.issues.length === 0) {
    reader.issue('', "has no templates: add 'template: <text>' or a 'templates:' mapping");
  }
  const state =
    record['state'] == null ? undefined : reader.object(record['state'], 'state', 'a mapping of state keys to values');
  const artifacts = readArtifacts(reader, record['artifacts']);
  const valueFormat = record['valueFormat'] ?? 'default';
  if (valueFormat !== 'default' && valueFormat !== 'python')
    reader.issue('valueFormat', "expected 'default' or 'python'");
  const escapes = reader.boolean(record, 'escapes', '') ?? false;
  if (reader.issues.length > 0) throw new ValidationError({ subject: path, issues: reader.issues });
  return { templates, state, artifacts, valueFormat: valueFormat === 'python' ? 'python' : 'default', escapes };
}

/**
 * An agent file's templates (every agent's `instruction` and `globalInstruction` written as text: providers are not
 * templated), or a case file's with its state, artifacts and conventions.
 */
async function readAgentTemplates(
  document: Record<string, unknown>,
  path: string,
  cwd: string,
  options: { warn?: (message: string) => void; bindings?: Readonly<Record<string, AdkBinding>> | undefined },
): Promise<CheckInput> {
  const caseFile = await parseCaseFile(document, {
    filename: path,
    load: relativeLoader(cwd),
    files: nodeAgentFiles(cwd, 'start', process.env, options.warn, options.bindings),
  });
  const templates: { name: string; text: string }[] = [];
  for (const node of caseFile.tree.nodes) {
    const agent = node.definition;
    if (!isLlmAgent(agent)) continue;
    if (typeof agent.globalInstruction === 'string')
      templates.push({ name: `${agent.name}.globalInstruction`, text: agent.globalInstruction });
    if (typeof agent.instruction === 'string')
      templates.push({ name: `${agent.name}.instruction`, text: agent.instruction });
  }
  const isCase = isCaseDocument(document);
  return {
    templates,
    state: isCase ? caseFile.state : undefined,
    artifacts: caseFile.artifacts,
    valueFormat: caseFile.profile.valueFormat === 'python' ? 'python' : 'default',
    escapes: caseFile.profile.templateEscapes,
    tree: caseFile.tree,
  };
}

function readArtifacts(reader: JsonReader, value: unknown): Record<string, string> | undefined {
  if (value == null) return undefined;
  const map = reader.object(value, 'artifacts', 'a mapping of artifact name → text');
  if (map === undefined) return undefined;
  const artifacts: Record<string, string> = {};
  for (const [name, text] of Object.entries(map)) {
    if (typeof text === 'string') artifacts[name] = text;
    else reader.issue(joinPath('artifacts', name), 'expected the artifact text (a string)');
  }
  return artifacts;
}

/** Reads a `--state` file: a mapping of state keys to values. */
export async function readStateFile(
  path: string,
  cwd: string,
  pythonNumbers: boolean,
): Promise<Record<string, unknown>> {
  const document = await parseDocument(await readInputFile(path, cwd), { filename: path, pythonNumbers });
  const reader = new JsonReader();
  const state = reader.object(document, '', 'a mapping of state keys to values');
  if (state === undefined) throw new ValidationError({ subject: path, issues: reader.issues });
  return state;
}

// A case file whose agent is written inline in ADK's spelling, and nothing else: an agent file wrapped in `agent:`,
// which ADK refuses (it reads the agent at the top of the file).
function caseRefusals(document: Record<string, unknown>, input: CheckInput): CheckInput {
  const keys = Object.keys(document);
  if (keys.length !== 1 || !isAdkSpelled(document['agent'])) return input;
  return {
    ...input,
    adkRefusals: [
      'agent: ADK reads the agent at the top of its file; under agent: it is agentctx\u2019s case-file form, so move its fields up a level for ADK',
      ...adkRefusals(document['agent'], 'agent.'),
    ],
  };
}
