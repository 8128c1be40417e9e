import { dirname, relative, resolve } from 'node:path';
import type { AgentDefinition } from '../contracts/agent.js';
import type { Model } from '../contracts/model.js';
import type { EventsCompactionConfig } from '../contracts/compaction.js';
import { parseCompactionConfig } from '../features/compaction/compaction-config.js';
import { toolsetsOf } from '../engine/agent/agent-tree.js';
import { trackToolsets } from './open-toolsets.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { agentFromConfig } from '../presets/agent-files.js';
import { isCaseDocument } from '../presets/case-file.js';
import { readProfileSpec, type ProfileSpec } from '../presets/profile-spec.js';
import type { AdkBinding } from '../presets/adk-bindings.js';
import { JsonReader, isPlainRecord } from '../engine/util/json-reader.js';
import { nodeAgentFiles } from './agent-files.js';
import { importAgentModule, isAgentModulePath } from './import-agent-module.js';
import { loadDocumentFile, relativeLoader } from './load-document-file.js';

/**
 * The agent tree a command runs: a YAML or JSON agent file (declarative form), or a JavaScript module whose default
 * export (or `agent` export) is an agent definition, for agents with tools written in code; TypeScript modules
 * (`.ts`, `.mts`, `.cts`) load as they are. A case file stands for its agent. A module may also export `model`: the
 * model its agents run on when the command names none (a scripted model with rules in code, a model object set up
 * as the module wants it).
 */
export async function loadAgent(path: string, cwd: string, warn?: (message: string) => void): Promise<AgentDefinition> {
  return (await loadAgentFile(path, cwd, warn)).agent;
}

/** What an agent file gives a runner: its agents, the profile it names, a module's model, a case file's compaction. */
export type LoadedAgentFile = {
  agent: AgentDefinition;
  profile: ProfileSpec | undefined;
  model?: Model;
  /** A case file's `eventsCompactionConfig`: when the runner compacts the sessions it runs. */
  compaction?: EventsCompactionConfig;
};

/**
 * `loadAgent`, and the profile the file names (`profile: adk`, `{ name, python }`; a case file's, else its agent's),
 * the model a module exports, the compaction settings a case file gives.
 */
export async function loadAgentFile(
  path: string,
  cwd: string,
  warn?: (message: string) => void,
  bindings?: Readonly<Record<string, AdkBinding>>,
): Promise<LoadedAgentFile> {
  const read = await readAgent(path, cwd, warn, bindings);
  // Agents written in code may hold toolsets too; the command closes them when it ends.
  for (const toolset of toolsetsOf([read.agent])) trackToolsets(toolset);
  return read;
}

async function readAgent(
  path: string,
  cwd: string,
  warn?: (message: string) => void,
  bindings?: Readonly<Record<string, AdkBinding>>,
): Promise<LoadedAgentFile> {
  const files = nodeAgentFiles(cwd, 'start', process.env, warn, bindings);
  if (isAgentModulePath(path)) {
    const module = await importAgentModule(path, cwd);
    const agent = module['agent'] ?? module['default'];
    if (!isAgentDefinition(agent)) {
      throw new ValidationError({
        subject: path,
        issues: [{ path: '', message: 'exports no agent definition' }],
        hint: 'Export one as `default` or `agent` (built with llmAgent, sequentialAgent, …).',
      });
    }
    const model = module['model'];
    if (model !== undefined && !isModel(model))
      throw new ValidationError({
        subject: path,
        issues: [{ path: 'model', message: 'is exported but is not a model' }],
        hint: 'Export a model object (createScriptedModel, an adapter of agentctx/models/…), or nothing by that name.',
      });
    return { agent, profile: undefined, ...(model === undefined ? {} : { model }) };
  }
  const { value, filename } = await loadDocumentFile(path, cwd);
  // Checked when the agent is read (a bad one fails it): here only a valid one is taken.
  const profileIn = (document: unknown) =>
    isPlainRecord(document) && document['profile'] !== undefined
      ? readProfileSpec(new JsonReader(), document['profile'], 'profile')
      : undefined;
  // A case file runs its agent (inline, or the agent file it names); its state and events are a situation to inspect.
  if (isCaseDocument(value)) {
    const inner = value['agent'];
    const settings = value['eventsCompactionConfig'];
    const compaction =
      settings == null ? {} : { compaction: parseCompactionConfig(settings, `${filename}: eventsCompactionConfig`) };
    if (typeof inner === 'string') {
      const named = await readAgent(relative(cwd, resolve(cwd, dirname(path), inner)) || inner, cwd, warn, bindings);
      return { ...named, profile: profileIn(value) ?? named.profile, ...compaction };
    }
    const agent = await agentFromConfig(inner, { filename: `${filename} (agent)`, load: relativeLoader(cwd), files });
    return { agent, profile: profileIn(value) ?? profileIn(inner), ...compaction };
  }
  return {
    agent: await agentFromConfig(value, { filename, load: relativeLoader(cwd), files }),
    profile: profileIn(value),
  };
}

function isModel(value: unknown): value is Model {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Model).specificationVersion === 'v1' &&
    typeof (value as Model).generate === 'function'
  );
}

function isAgentDefinition(value: unknown): value is AgentDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AgentDefinition).name === 'string' &&
    typeof (value as AgentDefinition).kind === 'string'
  );
}
