import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { mcpToolset } from '../../src/mcp/index.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteArtifactStore, createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import {
  everythingServer,
  EVERYTHING_JS,
  finalText,
  isRunning,
  originsOf,
  responsesById,
  scratch,
  serverPid,
  turn,
  warningsKept,
} from './helpers.js';

// @modelcontextprotocol/server-everything over stdio, through the runner, on a SQLite session and artifact store: the
// tools listed with their MCP provenance in the recorded requests, called by a scripted model, their results (text,
// an image kept as an artifact, structured content, a schema error) in the stored session, and the child process
// ended by runner.close().

// The server's tools for a client without sampling, elicitation or roots, sorted by name (the default order).
const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
];

const KEY = { appName: 'assistant', userId: 'u1', sessionId: 's1' };
const folders = scratch();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  await folders.cleanup();
});

const note = functionTool({
  name: 'note',
  description: 'Notes a line.',
  parameters: z.object({ line: z.string() }),
  execute: ({ line }) => ({ noted: line }),
});

async function setup() {
  const folder = await folders.folder();
  const sessions = createSqliteSessionStore({ path: join(folder, 'sessions.db') });
  const artifacts = createSqliteArtifactStore({ path: join(folder, 'sessions.db') });
  const everything = mcpToolset({ name: 'everything', server: everythingServer() });
  const model = createScriptedModel([
    {
      functionCalls: [
        { id: 'c-echo', name: 'echo', args: { message: 'hello mcp' } },
        { id: 'c-sum', name: 'get-sum', args: { a: 2, b: 3 } },
      ],
    },
    { functionCall: { id: 'c-img', name: 'get-tiny-image', args: {} } },
    { functionCall: { id: 'c-weather', name: 'get-structured-content', args: { location: 'New York' } } },
    {
      functionCalls: [
        { id: 'c-bad', name: 'get-sum', args: { a: 'two', b: 3 } },
        { id: 'c-note', name: 'note', args: { line: 'sum is 5' } },
      ],
    },
    { text: 'The sum is 5 and New York is cloudy.' },
  ]);
  const kept = warningsKept();
  const runner = createRunner({
    agents: llmAgent({ name: 'assistant', tools: [note, everything] }),
    model,
    sessions,
    artifacts,
    plugins: [kept.plugin],
  });
  closers.push(
    () => sessions.close(),
    () => artifacts.close(),
    () => runner.close(),
  );
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  return { sessions, artifacts, everything, model, runner, warnings: kept.warnings };
}

describe('MCP: server-everything over stdio, through the runner', () => {
  it('lists its tools with MCP provenance, calls them, stores the results, keeps the image as an artifact', async () => {
    const { sessions, artifacts, everything, model, runner, warnings } = await setup();
    expect(everything.connection.opened).toBe(0); // started on first use, not when declared
    const events = await turn(runner, 'Add 2 and 3, and show me the logo and the weather in New York.');
    expect(finalText(events)).toBe('The sum is 5 and New York is cloudy.');
    expect(everything.connection.opened).toBe(1); // one server for five requests

    // Every request offered the agent's tool, then the server's, sorted, each attributed to the server and its tool.
    const calls = await sessions.listModelCalls(KEY);
    expect(calls).toHaveLength(5);
    expect(warnings).toEqual([[], [], [], [], []]);
    for (const { index } of calls) {
      const call = await sessions.getModelCall({ ...KEY, index });
      expect(call?.request.tools.map((tool) => tool.name)).toEqual(['note', ...EVERYTHING_TOOLS]);
      expect(originsOf(call?.provenance.tools ?? [])).toEqual([
        undefined,
        ...EVERYTHING_TOOLS.map((name) => ({ kind: 'mcp', toolset: 'everything', server: 'everything', name })),
      ]);
      expect(call?.provenance.tools.slice(1).map((source) => source.field)).toEqual(
        EVERYTHING_TOOLS.map((_, at) => `toolsets[0].tools[${at}]`),
      );
    }
    const first = await sessions.getModelCall({ ...KEY, index: 1 });
    expect(first?.request).toEqual(model.requests[0]);
    const sum = first?.request.tools.find((tool) => tool.name === 'get-sum');
    expect(sum?.description).toBe('Returns the sum of two numbers');
    expect(sum?.parameters).toMatchObject({
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First number' },
        b: { type: 'number', description: 'Second number' },
      },
      required: ['a', 'b'],
    });

    // The results, as stored in the session.
    const stored = await sessions.getSession(KEY);
    const responses = responsesById(stored?.events ?? []);
    const image = 'mcp-everything-get-tiny-image-c-img-1.png';
    expect(responses).toEqual({
      'c-echo': { result: 'Echo: hello mcp' },
      'c-sum': { result: 'The sum of 2 and 3 is 5.' },
      'c-img': {
        result: [
          "Here's the image you requested:",
          { type: 'image', mimeType: 'image/png', bytes: 4033, artifact: image },
          'The image above is the MCP logo.',
        ],
      },
      'c-weather': { result: { temperature: 33, conditions: 'Cloudy', humidity: 82 } },
      'c-bad': {
        error: expect.stringMatching(
          /^Invalid arguments for tool 'get-sum': .*number.*Call it again with arguments that match its parameters\.$/,
        ),
      },
      'c-note': { noted: 'sum is 5' },
    });
    expect(responses).toEqual(responsesById(events));

    // The image's bytes, whole, in the artifact store, and the event that saved it says so.
    const imageEvent = stored?.events.find((event) =>
      event.content?.parts.some((part) => 'functionResponse' in part && part.functionResponse.id === 'c-img'),
    );
    expect(imageEvent?.actions.artifactDelta).toEqual({ [image]: 0 });
    const { MCP_TINY_IMAGE } = (await import(
      pathToFileURL(join(EVERYTHING_JS, '../tools/get-tiny-image.js')).href
    )) as { MCP_TINY_IMAGE: string };
    const saved = await artifacts.load({ ...KEY, filename: image });
    expect(saved).toMatchObject({ kind: 'binary', mimeType: 'image/png', version: 0 });
    expect(
      Buffer.from(saved?.kind === 'binary' ? saved.data : new Uint8Array()).equals(
        Buffer.from(MCP_TINY_IMAGE, 'base64'),
      ),
    ).toBe(true);
    expect(await artifacts.list(KEY)).toEqual([image]);
  }, 120_000);

  it('runner.close() ends the server process; the toolset then refuses to start it again, and the turn goes on', async () => {
    const { everything, runner, warnings, sessions } = await setup();
    const listed = await everything.listTools({
      agentName: 'assistant',
      appName: 'assistant',
      userId: 'u1',
      sessionId: 's1',
      state: {},
    });
    expect(listed.tools.map((tool) => tool.name)).toEqual(EVERYTHING_TOOLS);
    const pid = serverPid(everything);
    expect(pid).toBeTypeOf('number');
    expect(isRunning(pid as number)).toBe(true);

    await runner.close();
    await vi.waitFor(() => expect(isRunning(pid as number)).toBe(false), { timeout: 15_000, interval: 50 });
    expect(serverPid(everything)).toBeUndefined();
    await runner.close(); // safe twice

    // A closed toolset stays closed: the next request goes on without its tools, saying why.
    const model = createScriptedModel([{ text: 'No tools today.' }]);
    const kept = warningsKept();
    const again = createRunner({ agents: runner.tree, model, sessions, plugins: [kept.plugin] });
    const events = await turn(again, 'Anything?');
    expect(finalText(events)).toBe('No tools today.');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['note']);
    expect(kept.warnings).toEqual([
      [
        "toolset 'everything' could not list its tools, so they are left out of this request: MCP server 'everything': the toolset was closed",
      ],
    ]);
    expect(warnings).toEqual([]);
    expect(everything.connection.opened).toBe(1);
  }, 120_000);
});
