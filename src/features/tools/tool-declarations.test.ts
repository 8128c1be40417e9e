import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Tool, Toolset, ToolsetContext } from '../../contracts/tool.js';
import { llmAgent } from '../../engine/agent/define-agent.js';
import { agentTool } from '../../engine/tools/agent-tool.js';
import { declareTool } from '../../engine/tools/tool.js';
import { describeToolOrigin } from '../../engine/tools/tool-origin.js';
import { assembleRequest } from '../../presets/assemble-request.js';
import { toolBudget } from './tool-budget.js';

const tool = (name: string, description = `Does ${name}.`): Tool =>
  declareTool({ name, description, parameters: { type: 'object', properties: { q: { type: 'string' } } } });

/** A toolset whose server-side list is given (and may change), recording what each listing saw. */
function toolset(
  name: string,
  listed: () => Tool[],
  options: { mcp?: boolean; deferred?: boolean } = {},
): Toolset & { seen: ToolsetContext[] } {
  const seen: ToolsetContext[] = [];
  return {
    kind: 'toolset',
    name,
    seen,
    ...(options.mcp === true ? { origin: { kind: 'mcp' as const, server: name } } : {}),
    ...(options.deferred === true ? { deferred: true } : {}),
    listTools: async (context) => {
      seen.push(context);
      return { tools: listed(), warnings: [] };
    },
  };
}

describe('toolsets in the tools processor', () => {
  it('lists each toolset per request, after the agent’s own tools, with the MCP server and tool name in the source', async () => {
    const files = toolset('files', () => [tool('read'), tool('write')], { mcp: true });
    const agent = llmAgent({ name: 'writer', tools: [tool('own'), files] });
    expect(agent.tools.map((entry) => entry.name)).toEqual(['own']);
    expect(agent.toolsets).toEqual([files]);
    const { request, provenance } = await assembleRequest({ agents: agent, state: { plan: 'p' } });
    expect(request.tools.map((entry) => entry.name)).toEqual(['own', 'read', 'write']);
    expect(provenance.tools[0]).toEqual({ kind: 'tool', processor: 'tools', agent: 'writer', field: 'tools[0]' });
    expect(provenance.tools[2]).toEqual({
      kind: 'tool',
      processor: 'tools',
      agent: 'writer',
      field: 'toolsets[0].tools[1]',
      tool: { kind: 'mcp', toolset: 'files', server: 'files', name: 'write' },
    });
    expect(files.seen).toEqual([
      { agentName: 'writer', appName: 'agentctx', userId: 'user', sessionId: 'session', state: { plan: 'p' } },
    ]);
    expect(provenance.tools.map((source) => describeToolOrigin(source).label)).toEqual([
      'function tool',
      'MCP server files, tool read',
      'MCP server files, tool write',
    ]);
  });

  it('prefixes a name another tool of the request has with the toolset’s name, every colliding copy, and only those', async () => {
    const a = toolset('a', () => [tool('search'), tool('only_a')]);
    const b = toolset('b', () => [tool('search'), tool('own')]);
    const { request, provenance } = await assembleRequest({
      agents: llmAgent({ name: 'x', tools: [tool('own'), a, b] }),
    });
    expect(request.tools.map((entry) => entry.name)).toEqual(['own', 'a_search', 'only_a', 'b_search', 'b_own']);
    expect(provenance.tools[1]?.tool).toEqual({ kind: 'toolset', toolset: 'a', name: 'search' });
    expect(provenance.tools[4]?.tool).toEqual({ kind: 'toolset', toolset: 'b', name: 'own' });
  });

  it('leaves out a toolset that cannot list its tools, says why in the warnings, and builds the request', async () => {
    const broken: Toolset = {
      kind: 'toolset',
      name: 'down',
      listTools: () => Promise.reject(new Error('spawn nope ENOENT')),
    };
    const partial: Toolset = {
      kind: 'toolset',
      name: 'half',
      listTools: async () => ({
        tools: [tool('ok')],
        warnings: ["tool 'bad' is left out: its input schema is invalid"],
      }),
    };
    const { request, warnings } = await assembleRequest({
      agents: llmAgent({ name: 'x', tools: [tool('own'), broken, partial] }),
    });
    expect(request.tools.map((entry) => entry.name)).toEqual(['own', 'ok']);
    expect(warnings).toEqual([
      "toolset 'down' could not list its tools, so they are left out of this request: spawn nope ENOENT",
      "toolset 'half': tool 'bad' is left out: its input schema is invalid",
    ]);
  });

  it('gives a deferred toolset’s tools the deferred mark, and agent tools their kind', async () => {
    const helper = llmAgent({ name: 'helper' });
    const { tools, provenance } = await assembleRequest({
      agents: llmAgent({
        name: 'x',
        tools: [agentTool(helper), toolset('big', () => [tool('t1')], { deferred: true })],
      }),
    });
    expect(tools.map((entry) => entry.tool?.deferred === true)).toEqual([false, true]);
    expect(provenance.tools[0]?.tool).toEqual({ kind: 'agent' });
    expect(describeToolOrigin(provenance.tools[0]).label).toBe('agent tool');
  });

  it('refuses toolsets with the same name or without listTools, naming where', () => {
    const one = toolset('same', () => []);
    expect(() => llmAgent({ name: 'x', tools: [one, toolset('same', () => [])] })).toThrow(
      /toolsets\[1\]\.name: 'same' names two toolsets/,
    );
    expect(() =>
      llmAgent({ name: 'x', toolsets: [{ kind: 'toolset', name: 'bad name' } as unknown as Toolset] }),
    ).toThrow(ValidationError);
  });
});

describe('toolBudget', () => {
  it('warns when definitions exceed the budget, naming each source largest first, and changes nothing else', async () => {
    const big = toolset(
      'github',
      () =>
        Array.from({ length: 6 }, (_, index) =>
          tool(`gh_${index}`, 'Lists the pull requests of a repository with their state. '.repeat(8)),
        ),
      { mcp: true },
    );
    const agent = llmAgent({ name: 'x', tools: [tool('own'), big], extensions: [toolBudget({ maxTokens: 100 })] });
    const { request, warnings } = await assembleRequest({ agents: agent });
    const unbudgeted = await assembleRequest({ agents: llmAgent({ name: 'x', tools: [tool('own'), big] }) });
    expect(request).toEqual(unbudgeted.request);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^tool definitions take (\d+) tokens, over this agent's budget of 100: MCP github \d+ \(6 tools\), function tools \d+ \(1 tool\)\. Defer the largest/,
    );
    const within = await assembleRequest({
      agents: llmAgent({ name: 'x', tools: [tool('own')], extensions: [toolBudget({ maxTokens: 10_000 })] }),
    });
    expect(within.warnings).toEqual([]);
  });

  it('refuses a budget that is not a whole number of tokens', () => {
    expect(() => toolBudget({ maxTokens: 0 })).toThrow(/maxTokens: expected a whole number of tokens ≥ 1, got 0/);
    expect(() => toolBudget({ maxTokens: 1.5 })).toThrow(ValidationError);
  });
});
