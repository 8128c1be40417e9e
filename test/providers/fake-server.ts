import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAIModel } from '../../src/models/openai/openai-model.js';

/** A request the fake server received. */
export type ReceivedRequest = {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON (undefined when empty). */
  body: unknown;
  /** The body exactly as received, as UTF-8 text. */
  rawBody: string;
};

/** What the handler answers: JSON, a server-sent event stream, or an error status. */
export type FakeReply =
  | { json: unknown; status?: number; headers?: Record<string, string> }
  | { events: { event?: string; data: unknown }[]; status?: number }
  | { status: number; json?: unknown; headers?: Record<string, string> }
  | { destroy: true };

export type FakeServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
};

/**
 * An HTTP server on 127.0.0.1 that speaks whatever protocol its handler writes: tests put a provider's real
 * wire format behind it (JSON bodies, `text/event-stream` streams, error statuses) and read back the exact bodies
 * the adapters sent.
 */
export async function startFakeServer(
  handle: (request: ReceivedRequest, index: number) => FakeReply | Promise<FakeReply>,
): Promise<FakeServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
        rawBody: text,
      };
      received.push(request);
      Promise.resolve(handle(request, received.length - 1))
        .then((reply) => write(response, reply))
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: String(error) } }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function write(response: ServerResponse, reply: FakeReply): void {
  if ('destroy' in reply) {
    response.socket?.destroy();
    return;
  }
  if ('events' in reply) {
    response.writeHead(reply.status ?? 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const event of reply.events) {
      if (event.event !== undefined) response.write(`event: ${event.event}\n`);
      response.write(`data: ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}\n\n`);
    }
    response.end();
    return;
  }
  response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
  response.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
}

/** Fake servers started by one test file, closed together (after each test, or after all of them). */
export function fakeServers(): { serve: typeof startFakeServer; closeAll: () => Promise<void> } {
  const servers: FakeServer[] = [];
  return {
    async serve(handle) {
      const server = await startFakeServer(handle);
      servers.push(server);
      return server;
    },
    async closeAll() {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    },
  };
}

/** OpenAI's `text-embedding-3-small` through the OpenAI adapter, at a local server's `/v1`, without retries. */
export function localOpenAIEmbedder(url: string) {
  return createOpenAIModel({
    model: 'text-embedding-3-small',
    apiKey: 'k',
    baseURL: `${url}/v1`,
    env: {},
    retry: false,
  });
}
