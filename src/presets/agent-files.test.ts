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

async function issuesOf(
  value: unknown,
  options: Partial<Parameters<typeof agentFromConfig>[1]> = {},
): Promise<string[]> {
  const error = await agentFromConfig(value, { filename: 'agents/root.yaml', load, ...options }).catch(
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe('agentFromConfig', () => {
  it('reads the camelCase form into the same definition llmAgent builds', async () => {
    const fromConfig = await agentFromConfig(
      {
        name: 'root',
        description: 'R',
        model: 'm',
        instruction: 'I',
        includeContents: 'none',
        outputKey: 'out',
        generateConfig: { temperature: 0.5 },
        tools: [{ name: 't', description: 'T', parameters: { type: 'object' } }],
      },
      { filename: 'f.yaml' },
    );
    const fromCode = llmAgent({
      name: 'root',
      description: 'R',
      model: 'm',
      instruction: 'I',
      includeContents: 'none',
      outputKey: 'out',
      generateConfig: { temperature: 0.5 },
      tools: [declareTool({ name: 't', description: 'T', parameters: { type: 'object' } })],
    });
    expect(fromConfig).toEqual(fromCode);
  });

  it("reads ADK's snake_case files, workflow classes and sub-agents in other files", async () => {
    const root = await agentFromConfig(
      {
        agent_class: 'SequentialAgent',
        name: 'flow',
        sub_agents: [
          { config_path: 'helper.yaml' },
          { name: 'inline', global_instruction: 'G', disallow_transfer_to_peers: true },
        ],
      },
      { filename: 'agents/root.yaml', load },
    );
    const tree = createAgentTree(root);
    expect(tree.nodes.map((node) => `${node.name}:${node.definition.kind}`)).toEqual([
      'flow:sequential',
      'helper:llm',
      'leaf:llm',
      'inline:llm',
    ]);
    expect((tree.getAgent('inline').definition as LlmAgentDefinition).disallowTransferToPeers).toBe(true);
  });

  it('binds tools named without a declaration to the implementations given', async () => {
    const search = declareTool({ name: 'search', description: 'Search.' });
    const agent = (await agentFromConfig(
      { name: 'a', tools: ['search', { name: 'search2', description: 'S2' }] },
      { filename: 'f', tools: { search } },
    )) as LlmAgentDefinition;
    expect(agent.tools[0]).toBe(search);
  });

  it('reports every problem with its path', async () => {
    expect(
      await issuesOf({
        name: 'bad name',
        instuction: 'x',
        includeContents: 'some',
        subAgents: [{ name: 'user' }, 'oops'],
        tools: ['ghost', { name: '9x', description: 'd' }],
      }),
    ).toEqual([
      "instuction: unknown field (did you mean 'instruction'?); allowed: name, description, kind, agentClass, subAgents, model, instruction, globalInstruction, staticInstruction, disallowTransferToParent, disallowTransferToPeers, includeContents, mode, tools, outputKey, outputSchema, inputSchema, generateConfig, preset, sections, skills, memoryFiles, workspace, mcp, toolSearch, toolBudget, planner",
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

describe('agentFromConfig: ADK agent-config forms', () => {
  it('reads AgentTool by config_path or inline, with skip_summarization', async () => {
    const root = (await agentFromConfig(
      {
        name: 'root',
        tools: [
          { name: 'AgentTool', args: { agent: { config_path: 'leaf.yaml' }, skip_summarization: true } },
          {
            name: 'AgentTool',
            args: { agent: { name: 'inline_helper', description: 'Helps inline.', instruction: 'Help.' } },
          },
        ],
      },
      { filename: 'agents/root.yaml', load },
    )) as LlmAgentDefinition;
    expect(root.tools?.map((tool) => [tool.name, tool.agent?.name, tool.skipSummarization ?? false])).toEqual([
      ['leaf', 'leaf', true],
      ['inline_helper', 'inline_helper', false],
    ]);
  });

  it('refuses what names Python code or runs in Google\u2019s services, saying why and what to write instead', async () => {
    const issues = await issuesOf({
      name: 'root',
      before_model_callbacks: [{ name: 'my_pkg.callbacks.log_request' }],
      tools: [{ name: 'vertex_ai_search' }, { name: 'my_pkg.tools.lookup' }, { name: 'AgentTool', args: {} }],
      sub_agents: [{ code: 'my_pkg.agents.helper' }],
    });
    expect(issues).toEqual([
      expect.stringMatching(
        /^before_model_callbacks: names Python callbacks, which agentctx cannot import; define the agent in a JavaScript or TypeScript module instead .*callbacks: \{ beforeModel: … \}/,
      ),
      expect.stringMatching(/^sub_agents\[0\]\.code: names Python code \(ADK's code reference\)/),
      expect.stringMatching(
        /^tools\[0\]: 'vertex_ai_search' is one of ADK's built-in tools, which run inside Google's services/,
      ),
      expect.stringMatching(
        /^tools\[1\]: 'my_pkg\.tools\.lookup' names Python code \(ADK's code reference\), which agentctx cannot import/,
      ),
      expect.stringMatching(/^tools\[2\]\.args\.agent: is required/),
    ]);
  });
});

describe('createAgentTree', () => {
  it('links parents and finds agents by name', () => {
    const tree = createAgentTree(
      llmAgent({ name: 'root', subAgents: [llmAgent({ name: 'a', subAgents: [llmAgent({ name: 'b' })] })] }),
    );
    expect(tree.getAgent('b').parent?.parent?.name).toBe('root');
    expect(tree.findAgent('nope')).toBeUndefined();
    expect(() => tree.getAgent('nope')).toThrow(/No agent named 'nope' in the tree/);
  });

  it('refuses a name used twice', () => {
    const twin = llmAgent({ name: 'twin' });
    expect(() =>
      createAgentTree(llmAgent({ name: 'root', subAgents: [twin, llmAgent({ name: 'x', subAgents: [twin] })] })),
    ).toThrow(/twin: the name is used twice: under 'root' and under 'x'/);
  });
});
