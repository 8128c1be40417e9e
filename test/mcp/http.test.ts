import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { McpError } from '../../src/contracts/errors/mcp-error.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { mcpToolset } from '../../src/mcp/index.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { finalText, LISTING_CONTEXT, originsOf, responsesById, turn, warningsKept } from './helpers.js';

// A Streamable HTTP MCP server started by the test on 127.0.0.1 (the SDK's server side, one session per client):
// it refuses requests without the right Authorization header, its tools are called through the runner, and tools it
// adds after connecting (telling the client its list changed) are offered by the next request.

const TOKEN = 'Bearer let-me-in';
type Seen = { method: string | undefined; authorization: string | undefined; client: string | undefined };

/** The tools every session of the server starts with; `unlock` adds `secret` and says the list changed. */
function buildServer(): McpServer {
  const server = new McpServer({ name: 'remote-fixture', version: '1.0.0' });
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    ({ a, b }) => ({
      content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool('whoami', { description: 'Says which client called, from its X-Client header.' }, (extra) => ({
    content: [{ type: 'text', text: `client: ${String(extra.requestInfo?.headers['x-client'])}` }],
  }));
  let unlocked = false;
  server.registerTool('unlock', { description: 'Makes the secret tool available.' }, async (extra) => {
    if (!unlocked) {
      unlocked = true;
      server.registerTool('secret', { description: 'Tells the secret.' }, () => ({
        content: [{ type: 'text', text: 'the password is swordfish' }],
      }));
    }
    // Registering told clients on their standing stream; this says it on the call's own stream, before its answer.
    await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    return { content: [{ type: 'text', text: 'unlocked' }] };
  });
  return server;
}

async function startServer() {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const seen: Seen[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const header = (name: string) =>
      typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined;
    seen.push({ method: request.method, authorization: header('authorization'), client: header('x-client') });
    if (header('authorization') !== TOKEN) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const id = header('mcp-session-id');
    let transport = id === undefined ? undefined : transports.get(id);
    if (id !== undefined && transport === undefined) {
      // A session this server does not know (it restarted): 404, as the spec has it, so the client starts a new one.
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (transport === undefined) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => void transports.set(session, created),
      });
      const server = buildServer();
      servers.push(server);
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    servers,
    /** Forgets every session, as a restarted server would. */
    forget: () => transports.clear(),
    async close() {
      for (const server of servers) await server.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

describe('MCP: a Streamable HTTP server on 127.0.0.1, through the runner', () => {
  it('sends the headers, calls its tools, and offers a tool the server adds during a call in the next request', async () => {
    const http = await startServer();
    closers.push(() => http.close());
    const remote = mcpToolset({
      name: 'remote',
      server: { url: http.url, headers: { Authorization: TOKEN, 'X-Client': 'agentctx-test' } },
    });
    const model = createScriptedModel([
      {
        functionCalls: [
          { id: 'c-add', name: 'add', args: { a: 2, b: 40 } },
          { id: 'c-who', name: 'whoami', args: {} },
        ],
      },
      { functionCall: { id: 'c-unlock', name: 'unlock', args: {} } },
      { functionCall: { id: 'c-secret', name: 'secret', args: {} } },
      { text: 'The password is swordfish.' },
    ]);
    const kept = warningsKept();
    const runner = createRunner({
      agents: llmAgent({ name: 'agent', tools: [remote] }),
      model,
      plugins: [kept.plugin],
    });
    closers.push(() => runner.close());
    await runner.createSession({ userId: 'u1', sessionId: 's1' });

    const events = await turn(runner, 'What is the secret?');
    expect(finalText(events)).toBe('The password is swordfish.');
    expect(kept.warnings).toEqual([[], [], [], []]);
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['add', 'unlock', 'whoami'],
      ['add', 'unlock', 'whoami'],
      ['add', 'secret', 'unlock', 'whoami'],
      ['add', 'secret', 'unlock', 'whoami'],
    ]);
    const call = await runner.sessions.getModelCall({ appName: 'agent', userId: 'u1', sessionId: 's1', index: 3 });
    expect(originsOf(call?.provenance.tools ?? [])).toEqual(
      ['add', 'secret', 'unlock', 'whoami'].map((name) => ({ kind: 'mcp', toolset: 'remote', server: 'remote', name })),
    );
    expect(responsesById(events)).toEqual({
      'c-add': { result: { sum: 42 } },
      'c-who': { result: 'client: agentctx-test' },
      'c-unlock': { result: 'unlocked' },
      'c-secret': { result: 'the password is swordfish' },
    });
    // One session of the server for the whole invocation, and every HTTP request carried the toolset's headers.
    expect(remote.connection.opened).toBe(1);
    expect(http.servers).toHaveLength(1);
    expect(http.seen.length).toBeGreaterThanOrEqual(6);
    expect(http.seen.filter((seen) => seen.authorization !== TOKEN || seen.client !== 'agentctx-test')).toEqual([]);
    expect(new Set(http.seen.map((seen) => seen.method))).toEqual(new Set(['POST', 'GET']));
  }, 120_000);

  it('picks up a tool the server registers between invocations, once the server says its list changed', async () => {
    const http = await startServer();
    closers.push(() => http.close());
    const remote = mcpToolset({ name: 'remote', server: { url: http.url, headers: { Authorization: TOKEN } } });
    const model = createScriptedModel([
      { text: 'first' },
      { functionCall: { id: 'c-late', name: 'late', args: {} } },
      { text: 'second' },
    ]);
    const runner = createRunner({ agents: llmAgent({ name: 'agent', tools: [remote] }), model });
    closers.push(() => runner.close());
    await runner.createSession({ userId: 'u1', sessionId: 's1' });

    expect(finalText(await turn(runner, 'one'))).toBe('first');
    expect(remote.connection['tools']).toBeDefined(); // the list is kept between requests
    const server = http.servers[0] as McpServer;
    server.registerTool('late', { description: 'Added after the client connected.' }, () => ({
      content: [{ type: 'text', text: 'late but here' }],
    }));
    // The notification travels on the client's standing GET stream; once heard, the kept list is dropped.
    await vi.waitFor(() => expect(remote.connection['tools']).toBeUndefined(), { timeout: 15_000, interval: 20 });

    const events = await turn(runner, 'two');
    expect(finalText(events)).toBe('second');
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['add', 'unlock', 'whoami'],
      ['add', 'late', 'unlock', 'whoami'],
      ['add', 'late', 'unlock', 'whoami'],
    ]);
    expect(responsesById(events)).toEqual({ 'c-late': { result: 'late but here' } });
    expect(remote.connection.opened).toBe(1);
  }, 120_000);

  it('a server that lost the session (restarted) answers 404: that call gets { error }, the next one opens a new session', async () => {
    const http = await startServer();
    closers.push(() => http.close());
    const remote = mcpToolset({ name: 'remote', server: { url: http.url, headers: { Authorization: TOKEN } } });
    const model = createScriptedModel([
      { functionCall: { id: 'c-before', name: 'add', args: { a: 1, b: 1 } } },
      { text: 'first' },
      { functionCall: { id: 'c-lost', name: 'add', args: { a: 2, b: 2 } } },
      { functionCall: { id: 'c-after', name: 'add', args: { a: 3, b: 3 } } },
      { text: 'second' },
    ]);
    const runner = createRunner({ agents: llmAgent({ name: 'agent', tools: [remote] }), model });
    closers.push(() => runner.close());
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    expect(finalText(await turn(runner, 'one'))).toBe('first');
    http.forget();
    const events = await turn(runner, 'two');
    expect(finalText(events)).toBe('second');
    expect(responsesById(events)).toEqual({
      'c-lost': {
        error: `MCP server 'remote': tools/call add: the server answered HTTP 404 Not Found: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null} The server exited or hung up; the next call starts it again.`,
      },
      'c-after': { result: { sum: 6 } },
    });
    expect(remote.connection.opened).toBe(2);
    expect(http.servers).toHaveLength(2);
    expect(await remote.connection.callTool('add', { a: 1, b: 2 }, { timeoutMs: 60_000 })).toMatchObject({
      structuredContent: { sum: 3 },
    });
  }, 120_000);

  it('a server that refuses the headers: a typed start error, and the invocation goes on without its tools', async () => {
    const http = await startServer();
    closers.push(() => http.close());
    const refused = mcpToolset({
      name: 'refused',
      server: { url: http.url, headers: { Authorization: 'Bearer wrong' } },
    });
    closers.push(() => refused.connection.close());
    const error = await refused.listTools(LISTING_CONTEXT).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(McpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'mcp_error', server: 'refused', failure: 'start' });
    // The status first (the SDK's own message has only the body), then the body, and a hint that fits the status.
    const said = `MCP server 'refused': could not be started or reached: the server answered HTTP 401 Unauthorized: {"error":"unauthorized"}`;
    expect((error as McpError).message).toBe(said);
    expect((error as McpError).hint).toBe(
      "Check the toolset's headers: the server wants credentials it accepts (an Authorization header, usually).",
    );

    const model = createScriptedModel([{ text: 'Without the remote tools, then.' }]);
    const kept = warningsKept();
    const runner = createRunner({
      agents: llmAgent({ name: 'agent', tools: [refused] }),
      model,
      plugins: [kept.plugin],
    });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    expect(finalText(await turn(runner, 'hello'))).toBe('Without the remote tools, then.');
    expect(model.requests[0]?.tools).toEqual([]);
    expect(kept.warnings).toEqual([
      [`toolset 'refused' could not list its tools, so they are left out of this request: ${said}`],
    ]);
    expect(http.servers).toHaveLength(0);
    expect(http.seen.every((seen) => seen.authorization === 'Bearer wrong')).toBe(true);
  }, 120_000);

  it('tells a refusal by its status, with a hint that fits it: forbidden, no such endpoint, a server error page', async () => {
    const answers: Record<string, [number, Record<string, string>, string]> = {
      '/forbidden': [403, {}, ''],
      '/nowhere': [404, { 'content-type': 'text/plain' }, 'Cannot POST /nowhere'],
      '/broken': [500, { 'content-type': 'text/html' }, `<html>${'x'.repeat(400)}</html>`],
    };
    const server = createServer((request, response) => {
      request.resume();
      const [status, headers, body] = answers[request.url ?? ''] ?? [400, {}, ''];
      response.writeHead(status, headers).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const refusal = async (path: string) => {
      const toolset = mcpToolset({ name: 'remote', server: { url: `${base}${path}` } });
      closers.push(() => toolset.connection.close());
      const error = (await toolset.listTools(LISTING_CONTEXT).catch((thrown: unknown) => thrown)) as McpError;
      return {
        message: error.message.replace("MCP server 'remote': could not be started or reached: ", ''),
        hint: error.hint,
      };
    };
    expect(await refusal('/forbidden')).toEqual({
      message: 'the server answered HTTP 403 Forbidden',
      hint: "Check the toolset's headers: the server wants credentials it accepts (an Authorization header, usually).",
    });
    expect(await refusal('/nowhere')).toEqual({
      message: 'the server answered HTTP 404 Not Found: Cannot POST /nowhere',
      hint: "Check the URL: it must be the server's Streamable HTTP endpoint (often ending in /mcp).",
    });
    expect(await refusal('/broken')).toEqual({
      message: `the server answered HTTP 500 Internal Server Error: <html>${'x'.repeat(294)}…`,
      hint: 'The server failed; its own logs say why.',
    });
  });
});
