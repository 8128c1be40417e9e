import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { mcpToolset, type McpToolInfo, type McpToolsetOptions } from '../../src/mcp/index.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { finalText, fixtureServer, originsOf, responsesById, responsesIn, turn, warningsKept } from './helpers.js';

// The tools of MCP servers on the wire: in a stable order whatever order the server lists them in (prompt caching
// depends on it), filtered by name (in the filter's order) or by a predicate, renamed `<toolset>_<name>` when two
// sources offer the same name. The servers are test/mcp/fixtures/sdk-server.mjs over stdio.

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

const NAMES = ['delta', 'alpha', 'charlie', 'bravo', 'lists'];

/** One invocation over the rotating server, its model calling `lists` in three requests, then answering; the requests' tools. */
async function rotating(order: McpToolsetOptions['order']) {
  const spin = mcpToolset({
    name: 'spin',
    server: fixtureServer('sdk-server', '--rotate', '--names', NAMES.join(',')),
    ...(order === undefined ? {} : { order }),
  });
  const model = createScriptedModel([
    ...[1, 2, 3].map((n) => ({ functionCall: { id: `c${n}`, name: 'lists', args: {} } })),
    { text: 'done' },
  ]);
  const runner = createRunner({ agents: llmAgent({ name: 'agent', tools: [spin] }), model });
  closers.push(() => runner.close());
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  const events = await turn(runner, 'Spin.');
  expect(finalText(events)).toBe('done');
  // The server listed its tools again before every request (it said its list changed at every call).
  expect(responsesIn(events).map((response) => response.response)).toEqual([
    { result: 'lists: 1' },
    { result: 'lists: 2' },
    { result: 'lists: 3' },
  ]);
  expect(spin.connection.opened).toBe(1);
  return model.requests.map((request) => request.tools);
}

describe('MCP: tool order, filters and name collisions on the wire', () => {
  it("a server that lists its tools in a new order each time: the default ('sorted') sends byte-identical tools every request", async () => {
    const requests = await rotating(undefined);
    expect(requests).toHaveLength(4);
    const bytes = requests.map((tools) => JSON.stringify(tools));
    expect(new Set(bytes).size).toBe(1);
    expect(requests[0]?.map((tool) => tool.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'lists']);
    expect(requests[0]?.[0]).toEqual({
      name: 'alpha',
      description: "The fixture's alpha tool.",
      parameters: { type: 'object', properties: {} },
    });
  }, 120_000);

  it("the same server with order 'server': the tools move with the server's order (what 'sorted' protects against)", async () => {
    const requests = await rotating('server');
    expect(requests.map((tools) => tools.map((tool) => tool.name))).toEqual([
      ['alpha', 'charlie', 'bravo', 'lists', 'delta'],
      ['alpha', 'delta', 'lists', 'bravo', 'charlie'],
      ['bravo', 'lists', 'delta', 'alpha', 'charlie'],
      ['bravo', 'charlie', 'alpha', 'delta', 'lists'],
    ]);
  }, 120_000);

  it("a list of names keeps the list's order (missing names warned about); a predicate sees each tool and the request's state", async () => {
    const picked = mcpToolset({
      name: 'picked',
      server: fixtureServer('sdk-server', '--server-name', 'picked'),
      tools: ['pid', 'nope', 'ok'],
    });
    const seen: McpToolInfo[] = [];
    const predicate = mcpToolset({
      name: 'predicate',
      server: fixtureServer('sdk-server', '--server-name', 'predicate', '--names', 'ok,pid,hang,big'),
      tools: (tool, context) => {
        seen.push(tool);
        return (context.state['allowed'] as string[]).includes(tool.name);
      },
      prefix: true,
    });
    const model = createScriptedModel([
      {
        functionCalls: [
          { id: 'c-picked', name: 'ok', args: {} },
          { id: 'c-pred', name: 'predicate_big', args: { size: 3 } },
          { id: 'c-hidden', name: 'predicate_hang', args: {} },
        ],
      },
      { text: 'done' },
    ]);
    const kept = warningsKept();
    const runner = createRunner({
      agents: llmAgent({ name: 'agent', tools: [picked, predicate] }),
      model,
      plugins: [kept.plugin],
    });
    closers.push(() => runner.close());
    await runner.createSession({ userId: 'u1', sessionId: 's1', state: { allowed: ['big', 'ok'] } });
    const events = await turn(runner, 'Pick.');
    expect(finalText(events)).toBe('done');

    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['pid', 'ok', 'predicate_big', 'predicate_ok'],
      ['pid', 'ok', 'predicate_big', 'predicate_ok'],
    ]);
    expect(kept.warnings).toEqual([
      ["toolset 'picked': its filter names 'nope', which the server does not list"],
      ["toolset 'picked': its filter names 'nope', which the server does not list"],
    ]);
    // The predicate saw the server's tools as listed (unprefixed), for every request.
    expect(seen.map((tool) => tool.name)).toEqual(['ok', 'pid', 'hang', 'big', 'ok', 'pid', 'hang', 'big']);
    expect(seen[3]).toEqual({
      name: 'big',
      description: "The fixture's big tool.",
      inputSchema: {
        type: 'object',
        properties: { size: { type: 'integer', minimum: 1 }, failed: { type: 'boolean' } },
        required: ['size'],
      },
    });
    const call = await runner.sessions.getModelCall({ appName: 'agent', userId: 'u1', sessionId: 's1', index: 1 });
    expect(originsOf(call?.provenance.tools ?? []).slice(0, 2)).toEqual([
      { kind: 'mcp', toolset: 'picked', server: 'picked', name: 'pid' },
      { kind: 'mcp', toolset: 'picked', server: 'picked', name: 'ok' },
    ]);
    expect(originsOf(call?.provenance.tools ?? []).slice(2)).toMatchObject([
      { kind: 'mcp', toolset: 'predicate', server: 'predicate' },
      { kind: 'mcp', toolset: 'predicate', server: 'predicate' },
    ]);
    expect(responsesById(events)).toEqual({
      'c-picked': { result: 'ok from picked' },
      'c-pred': { result: 'xxx' },
      'c-hidden': {
        error: "Tool 'predicate_hang' is not available. Available tools: pid, ok, predicate_big, predicate_ok.",
      },
    });
  }, 120_000);

  it("two toolsets offering the same name, and one offering the agent's own tool's name: those copies become <toolset>_<name>", async () => {
    const pid = functionTool({
      name: 'pid',
      description: "The agent's own pid tool.",
      parameters: z.object({}),
      execute: () => ({ pid: 'mine' }),
    });
    const one = mcpToolset({
      name: 'one',
      server: fixtureServer('sdk-server', '--server-name', 'one', '--names', 'ok,pid,lists'),
    });
    const two = mcpToolset({
      name: 'two',
      server: fixtureServer('sdk-server', '--server-name', 'two', '--names', 'ok,big'),
    });
    const model = createScriptedModel([
      {
        functionCalls: [
          { id: 'c-own', name: 'pid', args: {} },
          { id: 'c-one', name: 'one_ok', args: {} },
          { id: 'c-two', name: 'two_ok', args: {} },
          { id: 'c-plain', name: 'big', args: { size: 2 } },
        ],
      },
      { text: 'done' },
    ]);
    const kept = warningsKept();
    const runner = createRunner({
      agents: llmAgent({ name: 'agent', tools: [pid, one, two] }),
      model,
      plugins: [kept.plugin],
    });
    closers.push(() => runner.close());
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    const events = await turn(runner, 'Collide.');
    expect(finalText(events)).toBe('done');
    expect(kept.warnings).toEqual([[], []]);

    const call = await runner.sessions.getModelCall({ appName: 'agent', userId: 'u1', sessionId: 's1', index: 1 });
    expect(call?.request.tools.map((tool) => tool.name)).toEqual([
      'pid',
      'lists',
      'one_ok',
      'one_pid',
      'big',
      'two_ok',
    ]);
    expect(originsOf(call?.provenance.tools ?? [])).toEqual([
      undefined,
      { kind: 'mcp', toolset: 'one', server: 'one', name: 'lists' },
      { kind: 'mcp', toolset: 'one', server: 'one', name: 'ok' },
      { kind: 'mcp', toolset: 'one', server: 'one', name: 'pid' },
      { kind: 'mcp', toolset: 'two', server: 'two', name: 'big' },
      { kind: 'mcp', toolset: 'two', server: 'two', name: 'ok' },
    ]);
    // Each renamed tool reaches its own server, under the server's name for it.
    expect(responsesById(events)).toEqual({
      'c-own': { pid: 'mine' },
      'c-one': { result: 'ok from one' },
      'c-two': { result: 'ok from two' },
      'c-plain': { result: 'xx' },
    });
    expect(JSON.stringify(model.requests[0]?.tools)).toBe(JSON.stringify(model.requests[1]?.tools));
  }, 120_000);

  // A prefix is applied on the wire; provenance keeps the server's name for the tool.
  it("with prefix: true, the provenance names the server's tool as the server does ('big', not 'pre_big')", async () => {
    const pre = mcpToolset({ name: 'pre', server: fixtureServer('sdk-server', '--names', 'big'), prefix: true });
    const model = createScriptedModel([{ text: 'done' }]);
    const runner = createRunner({ agents: llmAgent({ name: 'agent', tools: [pre] }), model });
    closers.push(() => runner.close());
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    expect(finalText(await turn(runner, 'Prefix.'))).toBe('done');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['pre_big']);
    const call = await runner.sessions.getModelCall({ appName: 'agent', userId: 'u1', sessionId: 's1', index: 1 });
    expect(originsOf(call?.provenance.tools ?? [])).toEqual([
      { kind: 'mcp', toolset: 'pre', server: 'pre', name: 'big' },
    ]);
  }, 120_000);
});
