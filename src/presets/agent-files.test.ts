import { describe, expect, it } from 'vitest';
import type { LlmAgentDefinition } from '../contracts/agent.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { createAgentTree } from '../engine/agent/agent-tree.js';
import { llmAgent } from '../engine/agent/define-agent.js';
import { declareTool } from '../engine/tools/tool.js';
import { agentFromConfig } from './agent-files.js';

const files: Record<string, unknown> = {
  'agents/helper.yaml': { name: 'helper', description: 'Helps.', sub_agents: [{ config_path: 'leaf.yaml' }] },
  'agents/leaf.yaml': { agent_class: 'LlmAgent', name: 'leaf', instruction: 'Leaf.' },
  'agents/loop.yaml': { config_path: 'loop.yaml' },
};
const load = async (reference: string, from: string) => {
  const filename = `${from.slice(0, from.lastIndexOf('/') + 1)}${reference}`;
  if (!(filename in files)) throw new Error(`no file ${filename}`);
  return { value: files[filename], filename };
};

async function issuesOf(value: unknown, options: Partial<Parameters<typeof agentFromConfig>[1]> = {}): Promise<string[]> {
  const error = await agentFromConfig(value, { filename: 'agents/root.yaml', load, ...options }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe('agentFromConfig', () => {
  it('reads the camelCase form into the same definition llmAgent builds', async () => {
    const fromConfig = await agentFromConfig(
      { name: 'root', description: 'R', model: 'm', instruction: 'I', includeContents: 'none', outputKey: 'out', generateConfig: { temperature: 0.5 }, tools: [{ name: 't', description: 'T', parameters: { type: 'object' } }] },
      { filename: 'f.yaml' },
    );
    const fromCode = llmAgent({ name: 'root', description: 'R', model: 'm', instruction: 'I', includeContents: 'none', outputKey: 'out', generateConfig: { temperature: 0.5 }, tools: [declareTool({ name: 't', description: 'T', parameters: { type: 'object' } })] });
    expect(fromConfig).toEqual(fromCode);
  });

  it("reads ADK's snake_case files, workflow classes and sub-agents in other files", async () => {
    const root = await agentFromConfig(
      { agent_class: 'SequentialAgent', name: 'flow', sub_agents: [{ config_path: 'helper.yaml' }, { name: 'inline', global_instruction: 'G', disallow_transfer_to_peers: true }] },
      { filename: 'agents/root.yaml', load },
    );
    const tree = createAgentTree(root);
    expect(tree.nodes.map((node) => `${node.name}:${node.definition.kind}`)).toEqual(['flow:sequential', 'helper:llm', 'leaf:llm', 'inline:llm']);
    expect((tree.getAgent('inline').definition as LlmAgentDefinition).disallowTransferToPeers).toBe(true);
  });

  it('binds tools named without a declaration to the implementations given', async () => {
    const search = declareTool({ name: 'search', description: 'Search.' });
    const agent = (await agentFromConfig({ name: 'a', tools: ['search', { name: 'search2', description: 'S2' }] }, { filename: 'f', tools: { search } })) as LlmAgentDefinition;
    expect(agent.tools[0]).toBe(search);
  });

  it('reports every problem with its path', async () => {
    expect(
      await issuesOf({ name: 'bad name', instuction: 'x', includeContents: 'some', subAgents: [{ name: 'user' }, 'oops'], tools: ['ghost', { name: '9x', description: 'd' }] }),
    ).toEqual([
      "instuction: unknown field (did you mean 'instruction'?); allowed: kind, agentClass, name, description, model, instruction, globalInstruction, staticInstruction, subAgents, disallowTransferToParent, disallowTransferToPeers, includeContents, tools, outputKey, generateConfig, mode, preset, sections, skills, memory, workspace",
      "subAgents[0].name: 'user' is reserved for the end user's messages; choose another name",
      'subAgents[1]: expected an agent definition (a mapping), got the string "oops"',
      'includeContents: expected default or none, got "some"',
      "tools[0]: tool 'ghost' has no implementation here; declare it with a description (and parameters) to inspect it",
      "tools[1].name: '9x' is not a valid tool name",
      'name: "bad name" is not a valid agent name: use a letter or underscore, then letters, digits or underscores',
    ]);
  });

  it('refuses a file that includes itself', async () => {
    expect(await issuesOf({ config_path: 'loop.yaml' })).toEqual([expect.stringMatching(/includes itself/)]);
  });
});

describe('createAgentTree', () => {
  it('links parents and finds agents by name', () => {
    const tree = createAgentTree(llmAgent({ name: 'root', subAgents: [llmAgent({ name: 'a', subAgents: [llmAgent({ name: 'b' })] })] }));
    expect(tree.getAgent('b').parent?.parent?.name).toBe('root');
    expect(tree.findAgent('nope')).toBeUndefined();
    expect(() => tree.getAgent('nope')).toThrow(/No agent named 'nope' in the tree/);
  });

  it('refuses a name used twice', () => {
    const twin = llmAgent({ name: 'twin' });
    expect(() => createAgentTree(llmAgent({ name: 'root', subAgents: [twin, llmAgent({ name: 'x', subAgents: [twin] })] }))).toThrow(
      /twin: the name is used twice: under 'root' and under 'x'/,
    );
  });
});
