import { dirname, relative, resolve } from 'node:path';
import type { AgentDefinition } from '../contracts/agent.js';
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
 * (`.ts`, `.mts`, `.cts`) load as they are. A case file stands for its agent.
 */
export async function loadAgent(path: string, cwd: string, warn?: (message: string) => void): Promise<AgentDefinition> {
  return (await loadAgentFile(path, cwd, warn)).agent;
}

/** `loadAgent`, and the profile the file names (`profile: adk`, `{ name, python }`; a case file's, else its agent's). */
export async function loadAgentFile(
  path: string,
  cwd: string,
  warn?: (message: string) => void,
  bindings?: Readonly<Record<string, AdkBinding>>,
): Promise<{ agent: AgentDefinition; profile: ProfileSpec | undefined }> {
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
): Promise<{ agent: AgentDefinition; profile: ProfileSpec | undefined }> {
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
    return { agent, profile: undefined };
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
    if (typeof inner === 'string') {
      const named = await readAgent(relative(cwd, resolve(cwd, dirname(path), inner)) || inner, cwd, warn, bindings);
      return { agent: named.agent, profile: profileIn(value) ?? named.profile };
    }
    const agent = await agentFromConfig(inner, { filename: `${filename} (agent)`, load: relativeLoader(cwd), files });
    return { agent, profile: profileIn(value) ?? profileIn(inner) };
  }
  return {
    agent: await agentFromConfig(value, { filename, load: relativeLoader(cwd), files }),
    profile: profileIn(value),
  };
}

function isAgentDefinition(value: unknown): value is AgentDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AgentDefinition).name === 'string' &&
    typeof (value as AgentDefinition).kind === 'string'
  );
}
