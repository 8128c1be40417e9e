import { expect } from 'vitest';
import type { WireObserver, WireRequest, WireResponse } from '../../src/contracts/model.js';
import type { FakeServer } from './fake-server.js';

/** What an adapter told its observer, in order. */
export type WireRecord = (['request', WireRequest] | ['response', WireResponse])[];

/** An observer that keeps everything it is told. */
export function recordWire(): {
  wire: WireObserver;
  seen: WireRecord;
  requests: () => WireRequest[];
  responses: () => WireResponse[];
} {
  const seen: WireRecord = [];
  return {
    wire: {
      request: (sent) => void seen.push(['request', sent]),
      response: (received) => void seen.push(['response', received]),
    },
    seen,
    requests: () => seen.flatMap(([kind, value]) => (kind === 'request' ? [value as WireRequest] : [])),
    responses: () => seen.flatMap(([kind, value]) => (kind === 'response' ? [value as WireResponse] : [])),
  };
}

/**
 * The record holds, request for request, exactly what the server received: the same body text byte for byte (and so
 * the same JSON), the method, and the server's own address; each request answered once, right after it, in order.
 */
export function expectRecordedAsReceived(seen: WireRecord, server: FakeServer): void {
  expect(seen.map(([kind]) => kind)).toEqual(server.received.flatMap(() => ['request', 'response']));
  server.received.forEach((received, index) => {
    const [, sent] = seen[index * 2] as ['request', WireRequest];
    expect(sent.body).toBe(received.rawBody);
    expect(JSON.parse(sent.body)).toEqual(received.body);
    expect(sent.method).toBe('POST');
    expect(sent.method).toBe(received.method);
    expect(sent.url).toBe(`${server.url}${received.url}`);
  });
}
