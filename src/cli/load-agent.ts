import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentDefinition } from '../contracts/agent.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { agentFromConfig } from '../presets/agent-files.js';
import { nodeAgentFiles } from './agent-files.js';
import { loadDocumentFile, relativeLoader } from './load-document-file.js';

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

/**
 * The agent tree a command runs: a YAML or JSON agent file (declarative form), or a JavaScript module whose default
 * export (or `agent` export) is an agent definition, for agents with tools written in code.
 */
export async function loadAgent(path: string, cwd: string): Promise<AgentDefinition> {
  if (MODULE_EXTENSIONS.has(extname(path))) {
    const module = (await import(pathToFileURL(resolve(cwd, path)).href)) as { default?: unknown; agent?: unknown };
    const agent = module.agent ?? module.default;
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
  return agentFromConfig(value, { filename, load: relativeLoader(cwd), files: nodeAgentFiles(cwd) });
}

function isAgentDefinition(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && typeof (value as AgentDefinition).name === 'string' && typeof (value as AgentDefinition).kind === 'string';
}
