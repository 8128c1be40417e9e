import { dirname, relative, resolve } from 'node:path';
import type { AgentDefinition } from '../contracts/agent.js';
import { toolsetsOf } from '../engine/agent/agent-tree.js';
import { trackToolsets } from './open-toolsets.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { agentFromConfig } from '../presets/agent-files.js';
import { isCaseDocument } from '../presets/case-file.js';
import { nodeAgentFiles } from './agent-files.js';
import { importAgentModule, isAgentModulePath } from './import-agent-module.js';
import { loadDocumentFile, relativeLoader } from './load-document-file.js';

/**
 * The agent tree a command runs: a YAML or JSON agent file (declarative form), or a JavaScript module whose default
 * export (or `agent` export) is an agent definition, for agents with tools written in code; TypeScript modules
 * (`.ts`, `.mts`, `.cts`) load as they are. A case file stands for its agent.
 */
export async function loadAgent(path: string, cwd: string, warn?: (message: string) => void): Promise<AgentDefinition> {
  const agent = await readAgent(path, cwd, warn);
  // Agents written in code may hold toolsets too; the command closes them when it ends.
  for (const toolset of toolsetsOf([agent])) trackToolsets(toolset);
  return agent;
}

async function readAgent(path: string, cwd: string, warn?: (message: string) => void): Promise<AgentDefinition> {
  const files = nodeAgentFiles(cwd, 'start', process.env, warn);
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
    return agent;
  }
  const { value, filename } = await loadDocumentFile(path, cwd);
  // A case file runs its agent (inline, or the agent file it names); its state and events are a situation to inspect.
  if (isCaseDocument(value)) {
    const inner = value['agent'];
    if (typeof inner === 'string')
      return loadAgent(relative(cwd, resolve(cwd, dirname(path), inner)) || inner, cwd, warn);
    return agentFromConfig(inner, { filename: `${filename} (agent)`, load: relativeLoader(cwd), files });
  }
  return agentFromConfig(value, { filename, load: relativeLoader(cwd), files });
}

function isAgentDefinition(value: unknown): value is AgentDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AgentDefinition).name === 'string' &&
    typeof (value as AgentDefinition).kind === 'string'
  );
}
