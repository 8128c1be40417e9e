import { expect } from 'vitest';
import { McpError } from '../../src/contracts/errors/mcp-error.js';
import type { Event } from '../../src/contracts/event.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { mcpToolset, type McpToolset, type McpToolsetOptions } from '../../src/mcp/index.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import type { ScriptedResponse } from '../../src/models/scripted/script.js';
import { createRunner, type RunnerOptions } from '../../src/presets/create-runner.js';
import { defineRows } from '../reliability/rows.js';
import { finalText, fixtureServer, LISTING_CONTEXT, responsesById, turn, warningsKept } from './helpers.js';

// Part 3, MCP servers that fail: they do not start, die in the middle of a call, hang, answer garbage, answer too
// much, or list a tool the model cannot be given. Each gives a typed McpError (to code) and an `{ error }` response or
// a request warning (to the model), and the invocation goes on to the model's final answer. The servers are
// test/mcp/fixtures/*.mjs over stdio.

const ENTRY = 'MCP server (stdio)';
const FINAL = 'I will do without it.';
const opened: McpToolset[] = [];

function toolset(options: Omit<McpToolsetOptions, 'name'> & { name?: string }): McpToolset {
  const made = mcpToolset({ name: 'faulty', ...options });
  opened.push(made);
  return made;
}

/** One invocation of an agent with this toolset, its model answering from the script and then with FINAL. */
async function invoke(tools: McpToolset, script: ScriptedResponse[], options: Partial<RunnerOptions> = {}) {
  const model = createScriptedModel([...script, { text: FINAL }]);
  const kept = warningsKept();
  const runner = createRunner({
    agents: llmAgent({ name: 'agent', tools: [tools] }),
    model,
    plugins: [kept.plugin],
    ...options,
  });
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  const events: Event[] = await turn(runner, 'Go.');
  expect(finalText(events)).toBe(FINAL);
  return { events, responses: responsesById(events), model, warnings: kept.warnings, runner };
}

/** The McpError a promise rejects with; fails the row when it resolves or throws anything else. */
async function mcpError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(McpError.isInstance(error), `not an McpError: ${String(error)}`).toBe(true);
  expect((error as McpError).code).toBe('mcp_error');
  return error as McpError;
}

const left = (name: string, said: string) =>
  `toolset '${name}' could not list its tools, so they are left out of this request: ${said}`;

export const rows = defineRows(
  import.meta.url,
  'faults',
  [
    {
      id: 'mcp.start.missing-command',
      entry: ENTRY,
      tried: 'a toolset whose command does not exist',
      expected:
        "`listTools` rejects with `McpError` (failure `start`, a hint to check the command); through the runner every request goes on without its tools, with a warning quoting the error, and the turn ends with the model's answer",
      run: async () => {
        const ghost = toolset({
          name: 'ghost',
          server: { command: '/nonexistent/agentctx-mcp-server', args: ['--stdio'] },
        });
        const error = await mcpError(ghost.listTools(LISTING_CONTEXT));
        expect(error).toMatchObject({
          server: 'ghost',
          failure: 'start',
          hint: expect.stringMatching(/^Check the command \(or URL\)/),
        });
        const said =
          "MCP server 'ghost': could not be started or reached: spawn /nonexistent/agentctx-mcp-server ENOENT";
        expect(error.message).toBe(said);
        const { model, warnings } = await invoke(ghost, [{ functionCall: { id: 'c1', name: 'anything', args: {} } }]);
        expect(model.requests.map((request) => request.tools)).toEqual([[], []]);
        expect(warnings).toEqual([[left('ghost', said)], [left('ghost', said)]]);
        expect(ghost.connection.opened).toBe(0);
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.start.exits',
      entry: ENTRY,
      tried: 'a server that writes a complaint to stderr and exits at once, before the handshake',
      expected:
        "`McpError` (failure `start`) whose message quotes the server's stderr; the request goes on without its tools, with that message as a warning, and the turn ends with the model's answer",
      run: async () => {
        const quits = toolset({
          name: 'quits',
          server: {
            command: process.execPath,
            args: ['-e', 'console.error("config file /etc/quits.json not found"); process.exit(2)'],
          },
        });
        const error = await mcpError(quits.listTools(LISTING_CONTEXT));
        expect(error).toMatchObject({ server: 'quits', failure: 'start' });
        const said =
          'MCP server \'quits\': could not be started or reached: MCP error -32000: Connection closed (its stderr ends: "config file /etc/quits.json not found")';
        expect(error.message).toBe(said);
        const { model, warnings } = await invoke(quits, []);
        expect(model.requests[0]?.tools).toEqual([]);
        expect(warnings).toEqual([[left('quits', said)]]);
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.died-mid-call',
      entry: ENTRY,
      tried: 'a server that exits while answering a tool call, then more calls',
      expected:
        "the call gets `{ error }` saying the connection closed, quoting the server's stderr and that the next call starts it again; the next request starts a new server (`connection.opened` 2, a new pid) whose calls answer; `callTool` rejects with `McpError` failure `closed`",
      run: async () => {
        const faulty = toolset({ server: fixtureServer('sdk-server') });
        const { responses, warnings } = await invoke(faulty, [
          { functionCall: { id: 'c-pid1', name: 'pid', args: {} } },
          { functionCall: { id: 'c-die', name: 'die', args: {} } },
          { functionCall: { id: 'c-pid2', name: 'pid', args: {} } },
        ]);
        expect(responses['c-die']).toEqual({
          error:
            'MCP server \'faulty\': tools/call die: MCP error -32000: Connection closed (its stderr ends: "fixture: dying on purpose in the middle of a call") The server exited or hung up; the next call starts it again.',
        });
        const [first, second] = [responses['c-pid1']?.['result'], responses['c-pid2']?.['result']];
        expect(first).toMatch(/^\d+$/);
        expect(second).toMatch(/^\d+$/);
        expect(second).not.toBe(first);
        expect(faulty.connection.opened).toBe(2);
        expect(warnings).toEqual([[], [], [], []]);

        // To code: the typed error, and the next call starts the server once more.
        const error = await mcpError(faulty.connection.callTool('die', {}, { timeoutMs: 60_000 }));
        expect(error).toMatchObject({ server: 'faulty', failure: 'closed' });
        expect(await faulty.connection.callTool('ok', {}, { timeoutMs: 60_000 })).toEqual({
          content: [{ type: 'text', text: 'ok from fixture' }],
        });
        expect(faulty.connection.opened).toBe(3);
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.hang',
      entry: ENTRY,
      tried: 'a tool that never answers, on a toolset with `timeoutMs: 300`',
      expected:
        '`{ error }` naming the 300 ms limit and how to raise it; the same connection answers the next call; `callTool` rejects with `McpError` failure `timeout`',
      run: async () => {
        const faulty = toolset({ server: fixtureServer('sdk-server'), timeoutMs: 300 });
        const { responses } = await invoke(faulty, [{ functionCall: { id: 'c-hang', name: 'hang', args: {} } }]);
        expect(responses).toEqual({
          'c-hang': {
            error:
              "MCP server 'faulty': tools/call hang: no answer within 300 ms Raise the toolset's timeoutMs, or find out why the server is slow.",
          },
        });
        // The same connection answers the next call (given more than 300 ms, on a busy machine).
        expect(await faulty.connection.callTool('ok', {}, { timeoutMs: 60_000 })).toEqual({
          content: [{ type: 'text', text: 'ok from fixture' }],
        });
        expect(faulty.connection.opened).toBe(1);
        const error = await mcpError(faulty.connection.callTool('hang', {}, { timeoutMs: 200 }));
        expect(error).toMatchObject({
          server: 'faulty',
          failure: 'timeout',
          message: "MCP server 'faulty': tools/call hang: no answer within 200 ms",
        });
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.malformed-result',
      entry: ENTRY,
      tried:
        'a hand-written server answering tools/call with a result whose content is not a list, a line that is not JSON (and nothing else), a JSON-RPC error, and a result with isError',
      expected:
        "`{ error }` for each: the validation problem, the time limit, naming the skipped line (so the call had no answer) and saying stdout is for JSON-RPC only, the server's error code and message, the tool's own text; the connection stays up and a proper call after them answers",
      run: async () => {
        const raw = toolset({ name: 'raw', server: fixtureServer('raw-server'), timeoutMs: 3_000 });
        const { responses, model } = await invoke(raw, [
          {
            functionCalls: ['not_a_result', 'garbage', 'rpc_error', 'reported'].map((name) => ({
              id: `c-${name}`,
              name,
              args: {},
            })),
          },
          { functionCall: { id: 'c-ok', name: 'ok', args: {} } },
        ]);
        expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
          'garbage',
          'not_a_result',
          'ok',
          'reported',
          'rpc_error',
        ]);
        expect(responses).toEqual({
          'c-not_a_result': {
            error: expect.stringMatching(
              /^MCP server 'raw': tools\/call not_a_result: .*"expected": "array".*"path": \[\s*"content"\s*\].*expected array, received string/s,
            ),
          },
          // JSON.parse's message (Node's wording) quotes the start of the skipped line.
          'c-garbage': {
            error: expect.stringMatching(
              /^MCP server 'raw': tools\/call garbage: no answer within 3000 ms; meanwhile it wrote a line to stdout that is not JSON-RPC, skipped \(the last: .*"\}\} this li.*\) Over stdio, stdout carries JSON-RPC messages only: have the server write its logs and banners to stderr\.$/,
            ),
          },
          'c-rpc_error': {
            error: "MCP server 'raw': tools/call rpc_error: MCP error -32603: the raw fixture broke inside",
          },
          'c-reported': { error: 'the tool says: disk full' },
          'c-ok': { result: 'still fine' },
        });
        expect(raw.connection.opened).toBe(1);
        expect(await mcpError(raw.connection.callTool('rpc_error', {}, { timeoutMs: 60_000 }))).toMatchObject({
          failure: 'protocol',
        });
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.bad-tool-schema',
      entry: ENTRY,
      tried:
        'a server listing, among its good tools, one whose inputSchema is `{"$ref": "#"}`, one without an inputSchema and an entry that is not an object (MCP\'s schema refuses the whole listing for any of them)',
      expected:
        'only those three are left out, each with a warning in the request (before: every tool of the server was, and the model was told the agent has no tools); the good tools are offered and answer',
      run: async () => {
        const raw = toolset({ name: 'raw', server: fixtureServer('raw-server', '--bad-schemas'), timeoutMs: 3_000 });
        const { responses, model, warnings } = await invoke(raw, [
          { functionCall: { id: 'c-ok', name: 'ok', args: {} } },
        ]);
        expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
          'garbage',
          'not_a_result',
          'ok',
          'reported',
          'rpc_error',
        ]);
        expect(warnings[0]).toEqual([
          `toolset 'raw': tool 'bad_ref' is left out: its input schema is invalid (its inputSchema is not a JSON Schema of type "object")`,
          `toolset 'raw': tool 'no_schema' is left out: its input schema is invalid (its inputSchema is not a JSON Schema of type "object")`,
          "toolset 'raw': the server listed a tool without a name; it is left out",
        ]);
        expect(responses).toEqual({ 'c-ok': { result: 'still fine' } });
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.oversized-result',
      entry: ENTRY,
      tried:
        'a tool answering 5,000 characters on a toolset with `maxResultChars: 200`, with and without an artifact store, and failing with 5,000 characters (`isError`)',
      expected:
        "`{ result: <the first 200 characters>, truncated: <a note with the whole size and the artifact's name> }`; the whole result is saved as that artifact (JSON text, recorded in the event's artifactDelta); without an artifact store the note says it is not kept; a failure that long is cut the same way, as `{ error: <the first 200 characters>, truncated }`",
      run: async () => {
        const faulty = toolset({ server: fixtureServer('sdk-server'), maxResultChars: 200 });
        const artifacts = createInMemoryArtifactStore();
        const script: ScriptedResponse[] = [{ functionCall: { id: 'c-big', name: 'big', args: { size: 5_000 } } }];
        const { responses, events, runner } = await invoke(faulty, script, { artifacts });
        const whole = JSON.stringify({ result: 'x'.repeat(5_000) });
        expect(whole.length).toBe(5_013);
        const name = 'mcp-faulty-big-c-big.json';
        expect(responses['c-big']).toEqual({
          result: 'x'.repeat(200),
          truncated: `The result was 5013 characters, cut to the first 200; the whole result is saved as the artifact '${name}'.`,
        });
        expect(events.find((event) => event.actions.artifactDelta[name] !== undefined)?.actions.artifactDelta).toEqual({
          [name]: 0,
        });
        expect(await artifacts.load({ appName: 'agent', userId: 'u1', sessionId: 's1', filename: name })).toEqual({
          kind: 'text',
          mimeType: 'application/json',
          text: whole,
          version: 0,
        });

        // The same agent (and server) on a runner without an artifact store; then a failure as long.
        const bare = await invoke(faulty, script, { agents: runner.tree });
        expect(bare.responses['c-big']).toEqual({
          result: 'x'.repeat(200),
          truncated:
            'The result was 5013 characters, cut to the first 200; it is not kept (the runner has no artifact store).',
        });
        const failed = await invoke(
          faulty,
          [{ functionCall: { id: 'c-fail', name: 'big', args: { size: 5_000, failed: true } } }],
          { agents: runner.tree, artifacts },
        );
        expect(failed.responses['c-fail']).toEqual({
          error: 'x'.repeat(200),
          truncated:
            "The result was 5012 characters, cut to the first 200; the whole result is saved as the artifact 'mcp-faulty-big-c-fail.json'.",
        });
        expect(
          (
            await artifacts.load({
              appName: 'agent',
              userId: 'u1',
              sessionId: 's1',
              filename: 'mcp-faulty-big-c-fail.json',
            })
          )?.kind,
        ).toBe('text');
        expect(faulty.connection.opened).toBe(1);
      },
      timeout: 120_000,
    },
    {
      id: 'mcp.invalid-schema',
      entry: ENTRY,
      tried:
        'a server listing a tool whose input schema is not valid JSON Schema (a type that does not exist) beside good ones, and a model that calls it anyway',
      expected:
        "that tool is left out with a warning naming it and the schema problem; the others are offered and answer; a call to it gets `{ error }` (not available) and the turn ends with the model's answer",
      run: async () => {
        const faulty = toolset({ server: fixtureServer('sdk-server', '--names', 'ok,pid', '--bad-schema') });
        const { responses, model, warnings } = await invoke(faulty, [
          {
            functionCalls: [
              { id: 'c-broken', name: 'broken', args: { n: 1 } },
              { id: 'c-ok', name: 'ok', args: {} },
            ],
          },
        ]);
        expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
          ['ok', 'pid'],
          ['ok', 'pid'],
        ]);
        const warning =
          "toolset 'faulty': tool 'broken' is left out: its input schema is invalid (type must be JSONType or JSONType[]: integer-ish)";
        expect(warnings).toEqual([[warning], [warning]]);
        expect(responses).toEqual({
          'c-broken': { error: "Tool 'broken' is not available. Available tools: ok, pid." },
          'c-ok': { result: 'ok from fixture' },
        });
      },
      timeout: 120_000,
    },
  ],
  {
    afterAll: async () => {
      await Promise.all(opened.splice(0).map((made) => made.connection.close()));
    },
  },
);
