import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { unboundedFetch } from './unbounded-fetch.js';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type Dispatcher = { dispatch(options: object, handler: unknown): boolean };
const globals = globalThis as { [GLOBAL_DISPATCHER]?: Dispatcher };

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function echoServer(): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => response.end(JSON.stringify({ method: request.method, body })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('unboundedFetch', () => {
  it('sends through the global dispatcher, with Undici’s header and body timeouts off', async () => {
    const url = await echoServer();
    await fetch(url); // Node sets its global dispatcher up on first use.
    const global = globals[GLOBAL_DISPATCHER];
    if (global === undefined) throw new Error('no global dispatcher');
    const seen: object[] = [];
    globals[GLOBAL_DISPATCHER] = {
      dispatch: (options, handler) => (seen.push(options), global.dispatch(options, handler)),
    };
    cleanups.push(() => void (globals[GLOBAL_DISPATCHER] = global));

    const response = await unboundedFetch(`${url}/v1beta/models/m:generateContent`, {
      method: 'POST',
      body: '{"a":"é"}',
    });
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":"é"}' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/m:generateContent',
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  });
});
