import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';

export type ServeInspectorOptions = {
  app: Hono;
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. Binding beyond loopback is for an app made with a token; the CLI checks that. */
  host?: string | undefined;
};

export type ServedInspector = {
  url: string;
  port: number;
  /** Stops listening and closes the connections (a browser keeps idle ones open); resolves once the port is free. */
  close(): Promise<void>;
};

/** Listens for the inspector app; the only file that imports `@hono/node-server`. */
export async function serveInspector(options: ServeInspectorOptions): Promise<ServedInspector> {
  const host = options.host ?? '127.0.0.1';
  // overrideGlobalObjects: false keeps Node's own Request and Response in place for the rest of the process.
  const server = createAdaptorServer({ fetch: options.app.fetch, overrideGlobalObjects: false }) as Server;
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
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      return closing;
    },
  };
}
