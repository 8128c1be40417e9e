import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createAdaptorServer, getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { clientErrorAnswers, nodeServerTimeouts, resolveHttpTimeouts } from '../access/http-limits.js';
import { UsageError } from '../contracts/errors/usage-error.js';

export type ServeInspectorOptions = {
  app: Hono;
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. Binding beyond loopback is for an app made with a token; the CLI checks that. */
  host?: string | undefined;
  /** Time a client has to send a request's headers (408 past it). Default 10 000 ms. */
  headersTimeoutMs?: number | undefined;
  /** Time a client has to send a whole request (408 past it). Default 30 000 ms. */
  requestTimeoutMs?: number | undefined;
};

export type ServedInspector = {
  url: string;
  port: number;
  /** Stops listening and closes the connections (a browser keeps idle ones open); resolves once the port is free. */
  close(): Promise<void>;
};

// On close, connections still busy get this long before they are cut.
const CLOSE_GRACE_MS = 2000;

/** Listens for the inspector app; the only file that imports `@hono/node-server`. */
export async function serveInspector(options: ServeInspectorOptions): Promise<ServedInspector> {
  const host = options.host ?? '127.0.0.1';
  const timeouts = resolveHttpTimeouts(options);
  if ('problem' in timeouts)
    throw new UsageError(`The inspector's ${timeouts.problem}.`, 'Leave it out for the default.');
  // overrideGlobalObjects: false keeps Node's own Request and Response in place for the rest of the process.
  const server = createAdaptorServer({
    fetch: options.app.fetch,
    overrideGlobalObjects: false,
    serverOptions: nodeServerTimeouts(timeouts),
  }) as Server;
  // A request that is late, cut off or not HTTP gets a JSON error (or a closed socket), never a log line.
  const answers = clientErrorAnswers(timeouts);
  server.on('request', (req, res) => answers.track(req.socket, res));
  server.on('clientError', answers.onClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      });
      return closing;
    },
  };
}

/** The inspector app as a Node request handler, for a server of another protocol to serve it beside its own routes. */
export function inspectorRequestListener(app: Hono): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return getRequestListener(app.fetch, { overrideGlobalObjects: false });
}
