import { describe, expect, it } from 'vitest';
import type { Event } from '../../contracts/event.js';
import type { Tool, Toolset } from '../../contracts/tool.js';
import { llmAgent } from '../../engine/agent/define-agent.js';
import { requestToJson } from '../../engine/assembly/request-json.js';
import { createEvent } from '../../engine/session/create-event.js';
import { assembleRequest } from '../../presets/assemble-request.js';
import { SEARCH_TOOLS, toolSearch, TOOL_SEARCH, type ToolSearchOptions } from './tool-search.js';

const object = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
});
const tool = (name: string, description: string, ...parameters: string[]): Tool => ({
  name,
  description,
  parameters: object(...parameters),
  execute: () => ({ ok: name }),
});
const toolset = (name: string, tools: Tool[], deferred: boolean): Toolset => ({
  kind: 'toolset',
  name,
  deferred,
  listTools: async () => ({ tools }),
});

const github = toolset(
  'github',
  [
    tool('merge_pull_request', 'Merges a pull request into its base branch.', 'owner', 'repo', 'pull_number'),
    tool('create_issue', 'Creates an issue in a repository.', 'owner', 'repo', 'title', 'body'),
    tool('list_issues', 'Lists the issues of a repository.\nPaginated.', 'owner', 'repo', 'state'),
    tool('create_pull_request', 'Opens a pull request from a branch.', 'owner', 'repo', 'head', 'base'),
  ],
  true,
);
const slack = toolset('slack', [tool('send_message', 'Posts a message to a channel.', 'channel', 'text')], false);
const note = tool('note', 'Writes a note.', 'text');

function agentWith(options?: ToolSearchOptions, extra: Partial<Parameters<typeof llmAgent>[0]> = {}) {
  return llmAgent({
    name: 'dev',
    instruction: 'Help.',
    tools: [note],
    toolsets: [github, slack],
    extensions: [toolSearch(options)],
    ...extra,
  });
}

let clock = 0;
function searchResponse(invocationId: string, query: string, loaded: string[], id = `call-${++clock}`): Event {
  return createEvent({
    id: `e-${id}`,
    invocationId,
    author: 'dev',
    content: {
      role: 'user',
      parts: [{ functionResponse: { id, name: SEARCH_TOOLS, response: { query, loaded, result: '…' } } }],
    },
  });
}
function searchCall(invocationId: string, query: string, id: string): Event {
  return createEvent({
    id: `c-${id}`,
    invocationId,
    author: 'dev',
    content: { role: 'model', parts: [{ functionCall: { id, name: SEARCH_TOOLS, args: { query } } }] },
  });
}
const user = (invocationId: string, text: string): Event =>
  createEvent({ id: `u-${invocationId}`, invocationId, author: 'user', content: { role: 'user', parts: [{ text }] } });

// A session: invocation i1 searched twice (merge, then issues); i2 has just started.
const EVENTS: Event[] = [
  user('i1', 'Merge PR 4 and file an issue.'),
  searchCall('i1', 'merge a pull request', 's1'),
  searchResponse('i1', 'merge a pull request', ['merge_pull_request', 'create_issue'], 's1'),
  searchCall('i1', 'issues', 's2'),
  searchResponse('i1', 'issues', ['create_issue', 'list_issues', 'not_a_tool'], 's2'),
];

describe('toolSearch: the request', () => {
  it('replaces the deferred tools by search_tools after the stable tools, with a sorted catalogue, and answers calls to them', async () => {
    const assembled = await assembleRequest({ agents: agentWith(), events: [user('i1', 'Hi')], invocationId: 'i1' });
    expect(assembled.request.tools.map((each) => each.name)).toEqual(['note', 'send_message', SEARCH_TOOLS]);
    const search = assembled.request.tools[2];
    expect(search?.description).toContain(
      '- create_issue: Creates an issue in a repository.\n- create_pull_request: Opens a pull request from a branch.\n- list_issues: Lists the issues of a repository.\n- merge_pull_request: Merges a pull request into its base branch.',
    );
    expect(search?.description).toMatch(/^Searches the 4 tools that are not loaded yet/);
    expect(search?.parameters).toMatchObject({
      required: ['query'],
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
    });
    expect(assembled.provenance.tools[2]).toMatchObject({
      kind: 'tool',
      processor: TOOL_SEARCH,
      extension: TOOL_SEARCH,
      field: SEARCH_TOOLS,
      note: expect.stringMatching(/^catalogue of 4 deferred tools in \d+ tokens \(budget 1000\); 0 loaded$/) as string,
    });
    expect(assembled.handlers.map((each) => each.name).sort()).toEqual([
      'create_issue',
      'create_pull_request',
      'list_issues',
      'merge_pull_request',
      'transfer_to_agent',
    ]);
    const answer = await assembled.handlers
      .find((each) => each.name === 'merge_pull_request')
      ?.execute?.({}, {} as never);
    expect(answer).toEqual({
      error: `Tool 'merge_pull_request' is not loaded yet. Call search_tools first with words for what you need (for example "merge pull request"); it loads the tools it finds for your next step.`,
    });
  });

  it('adds nothing for an agent without deferred tools: the request is byte for byte the one without the extension', async () => {
    const plain = llmAgent({ name: 'dev', instruction: 'Help.', tools: [note], toolsets: [slack] });
    const searched = llmAgent({
      name: 'dev',
      instruction: 'Help.',
      tools: [note],
      toolsets: [slack],
      extensions: [toolSearch()],
    });
    const [a, b] = await Promise.all([assembleRequest({ agents: plain }), assembleRequest({ agents: searched })]);
    expect(JSON.stringify(requestToJson(b.request))).toBe(JSON.stringify(requestToJson(a.request)));
    expect(b.handlers.map((each) => each.name)).toEqual(a.handlers.map((each) => each.name));
  });

  it('brings loaded tools back after the stable tools, in the order first loaded, keeping their source with a note', async () => {
    const assembled = await assembleRequest({ agents: agentWith(), events: EVENTS, invocationId: 'i1' });
    expect(assembled.request.tools.map((each) => each.name)).toEqual([
      'note',
      'send_message',
      SEARCH_TOOLS,
      'merge_pull_request',
      'create_issue',
      'list_issues',
    ]);
    expect(assembled.request.tools[3]).toEqual({
      name: 'merge_pull_request',
      description: 'Merges a pull request into its base branch.',
      parameters: object('owner', 'repo', 'pull_number'),
    });
    expect(assembled.provenance.tools[3]).toEqual({
      kind: 'tool',
      processor: 'tools',
      agent: 'dev',
      field: 'toolsets[0].tools[0]',
      tool: { kind: 'toolset', toolset: 'github', name: 'merge_pull_request' },
      note: 'loaded by search_tools("merge a pull request"), call s1, event e-s1',
    });
    expect(assembled.provenance.tools[5]?.note).toBe('loaded by search_tools("issues"), call s2, event e-s2');
    expect(assembled.provenance.tools[5]?.extension).toBeUndefined();
    expect(assembled.provenance.tools[2]?.note).toMatch(/; 3 loaded$/);
    expect(assembled.handlers.map((each) => each.name)).toEqual(['transfer_to_agent', 'create_pull_request']);
    expect(assembled.tools[3]?.tool?.execute).toBeTypeOf('function');
  });

  it('keeps search_tools byte for byte the same while the deferred tools are, whatever is loaded', async () => {
    const before = await assembleRequest({ agents: agentWith(), events: [user('i1', 'Hi')], invocationId: 'i1' });
    const after = await assembleRequest({ agents: agentWith(), events: EVENTS, invocationId: 'i1' });
    expect(JSON.stringify(after.request.tools.slice(0, 3))).toBe(JSON.stringify(before.request.tools));
  });

  it('gives a byte-identical request for the same session, every time', async () => {
    const agent = agentWith();
    const first = await assembleRequest({ agents: agent, events: EVENTS, invocationId: 'i1' });
    const second = await assembleRequest({
      agents: agentWith(),
      events: EVENTS.map((event) => structuredClone(event)),
      invocationId: 'i1',
    });
    expect(JSON.stringify(requestToJson(second.request))).toBe(JSON.stringify(requestToJson(first.request)));
    expect(second.provenance.tools).toEqual(first.provenance.tools);
  });

  it("scope 'invocation': the next invocation starts without them; scope 'session': they stay", async () => {
    const next = [...EVENTS, user('i2', 'And now?')];
    const invocation = await assembleRequest({ agents: agentWith(), events: next, invocationId: 'i2' });
    expect(invocation.request.tools.map((each) => each.name)).toEqual(['note', 'send_message', SEARCH_TOOLS]);
    const session = await assembleRequest({
      agents: agentWith({ scope: 'session' }),
      events: next,
      invocationId: 'i2',
    });
    expect(session.request.tools.map((each) => each.name)).toEqual([
      'note',
      'send_message',
      SEARCH_TOOLS,
      'merge_pull_request',
      'create_issue',
      'list_issues',
    ]);
  });

  it("reads only this agent's searches", async () => {
    const other = EVENTS.map((event) => ({ ...event, author: event.author === 'dev' ? 'helper' : event.author }));
    const assembled = await assembleRequest({ agents: agentWith(), events: other, invocationId: 'i1' });
    expect(assembled.request.tools.map((each) => each.name)).toEqual(['note', 'send_message', SEARCH_TOOLS]);
  });

  it('offers alwaysLoaded tools in their own place, out of the catalogue', async () => {
    const assembled = await assembleRequest({
      agents: agentWith({ alwaysLoaded: ['create_issue'] }),
      invocationId: 'i1',
    });
    expect(assembled.request.tools.map((each) => each.name)).toEqual([
      'note',
      'create_issue',
      'send_message',
      SEARCH_TOOLS,
    ]);
    expect(assembled.request.tools[3]?.description).not.toContain('create_issue');
    expect(assembled.request.tools[3]?.description).toMatch(/^Searches the 3 tools/);
  });

  it("defers an agent's own tool marked deferred", async () => {
    const secret = { ...tool('rotate_keys', 'Rotates the signing keys.'), deferred: true };
    const assembled = await assembleRequest({
      agents: llmAgent({ name: 'dev', tools: [note, secret], extensions: [toolSearch()] }),
    });
    expect(assembled.request.tools.map((each) => each.name)).toEqual(['note', SEARCH_TOOLS]);
    expect(assembled.request.tools[1]?.description).toContain('- rotate_keys: Rotates the signing keys.');
  });

  it('cuts the catalogue to its budget and says so in the provenance', async () => {
    const assembled = await assembleRequest({ agents: agentWith({ catalogueTokens: 25 }), invocationId: 'i1' });
    const search = assembled.request.tools.find((each) => each.name === SEARCH_TOOLS);
    expect(search?.description).toContain('Also: ');
    expect(assembled.provenance.tools[2]?.note).toMatch(/budget 25\); \d+ with a line, \d+ by name only, \d+ left out/);
  });

  it('refuses bad options, and an agent that has its own search_tools', async () => {
    expect(() => toolSearch({ catalogueTokens: 0 })).toThrow(/catalogueTokens/);
    expect(() => toolSearch({ scope: 'forever' as never })).toThrow(/scope/);
    const clash = agentWith(undefined, { tools: [note, tool(SEARCH_TOOLS, 'Mine.')] });
    await expect(assembleRequest({ agents: clash })).rejects.toThrow(/already offers a tool named 'search_tools'/);
  });

  it('places its processor right after tools, in any pipeline that has one', () => {
    const search = toolSearch();
    const pipeline = search.install([
      { name: 'tools', process: (draft) => draft },
      { name: 'finalize', process: (draft) => draft },
    ]);
    expect(pipeline.map((each) => each.name)).toEqual(['tools', TOOL_SEARCH, 'finalize']);
    expect(search.processors).toEqual([{ processor: search.processor, after: 'tools' }]);
  });
});

describe('toolSearch: the search tool', () => {
  it('loads the best matches, says so, and checks its arguments', async () => {
    const assembled = await assembleRequest({ agents: agentWith(), invocationId: 'i1' });
    const search = assembled.tools.find((entry) => entry.declaration.name === SEARCH_TOOLS)?.tool;
    expect(await search?.checkArgs?.({ query: ' merge the pull request ', limit: 50 })).toEqual({
      ok: true,
      value: { query: 'merge the pull request', limit: 10 },
    });
    expect(await search?.checkArgs?.({ query: '', limit: 0 })).toEqual({
      ok: false,
      issues: ['query: expected words to search for', 'limit: expected a whole number from 1 to 10'],
    });
    const result = await search?.execute?.({ query: 'merge the pull request', limit: 2 }, {} as never);
    expect(result).toEqual({
      query: 'merge the pull request',
      loaded: ['merge_pull_request', 'create_pull_request'],
      result:
        'Loaded 2 tools; call them from your next step on:\n- merge_pull_request: Merges a pull request into its base branch.\n- create_pull_request: Opens a pull request from a branch.',
    });
    expect(await search?.execute?.({ query: 'deploy kubernetes' }, {} as never)).toMatchObject({
      loaded: [],
      result: expect.stringMatching(/^No tool matches "deploy kubernetes"/) as string,
    });
    // The toolset's name is a word of each of its tools: the shorter tools rank first.
    expect(await search?.execute?.({ query: 'github' }, {} as never)).toMatchObject({
      loaded: ['create_issue', 'list_issues', 'create_pull_request', 'merge_pull_request'],
    });
  });
});
