import { describe, expect, it } from 'vitest';
import type { WireObserver, WireRequest, WireResponse } from '../../contracts/model.js';
import { tapWire, type Fetch } from './wire-tap.js';

const KEY = 'AIza-secret-key-0123';

function recorder(): WireObserver & { seen: (['request', WireRequest] | ['response', WireResponse])[] } {
  const seen: (['request', WireRequest] | ['response', WireResponse])[] = [];
  return {
    seen,
    request: (sent) => void seen.push(['request', sent]),
    response: (received) => void seen.push(['response', received]),
  };
}

/** A fetch that answers each request with the next status, and keeps what it was handed. */
function answering(...statuses: number[]): Fetch & { calls: { input: unknown; init: RequestInit | undefined }[] } {
  const calls: { input: unknown; init: RequestInit | undefined }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ input, init });
    return new Response('{}', { status: statuses[calls.length - 1] ?? 200 });
  };
  return Object.assign(fetch, { calls });
}

describe('tapWire', () => {
  it('is nothing when the call has no observer', () => {
    expect(tapWire(undefined, { secrets: [KEY] })).toBeUndefined();
  });

  it('tells the request as handed to fetch before it goes out, and its answer with the usage once', async () => {
    const observer = recorder();
    const fetch = answering(200);
    const tap = tapWire(observer, { fetch, secrets: [KEY] });
    const body = '{"model":"m","messages":[{"role":"user","content":"héllo 👋"}]}';
    const init = { method: 'POST', body, headers: { authorization: `Bearer ${KEY}` } };
    const response = await tap?.fetch('http://127.0.0.1:9/v1/chat/completions', init);
    expect(response?.status).toBe(200);
    expect(fetch.calls).toEqual([{ input: 'http://127.0.0.1:9/v1/chat/completions', init }]);
    expect(observer.seen).toEqual([
      ['request', { url: 'http://127.0.0.1:9/v1/chat/completions', method: 'POST', body }],
    ]);
    const usage = { prompt_tokens: 3, prompt_tokens_details: { cached_tokens: 1 } };
    tap?.answered(usage);
    tap?.answered({ other: 1 });
    expect(observer.seen[1]).toEqual(['response', { status: 200, usage }]);
    expect((observer.seen[1]?.[1] as WireResponse).usage).toBe(usage);
    expect(observer.seen).toHaveLength(2);
  });

  it('tells an error status at once, and nothing for a connection that failed', async () => {
    const observer = recorder();
    const tap = tapWire(observer, { fetch: answering(503), secrets: [] });
    await tap?.fetch('http://x.test/a', { method: 'POST', body: '{}' });
    tap?.answered({ ignored: true });
    expect(observer.seen.map(([kind, value]) => [kind, 'status' in value ? value.status : value.url])).toEqual([
      ['request', 'http://x.test/a'],
      ['response', 503],
    ]);

    const lost = recorder();
    const refused = tapWire(lost, { fetch: () => Promise.reject(new TypeError('fetch failed')), secrets: [] });
    await expect(refused?.fetch('http://x.test/a', { method: 'POST', body: '{}' })).rejects.toThrow('fetch failed');
    refused?.answered({});
    expect(lost.seen.map(([kind]) => kind)).toEqual(['request']);
  });

  it('answers a request still waiting, without usage, when another goes out; a null usage is no usage', async () => {
    const observer = recorder();
    const tap = tapWire(observer, { fetch: answering(200, 200), secrets: [] });
    await tap?.fetch('http://x.test/1', { method: 'POST', body: '1' });
    await tap?.fetch('http://x.test/2', { method: 'POST', body: '2' });
    tap?.answered(null);
    expect(observer.seen).toEqual([
      ['request', { url: 'http://x.test/1', method: 'POST', body: '1' }],
      ['response', { status: 200 }],
      ['request', { url: 'http://x.test/2', method: 'POST', body: '2' }],
      ['response', { status: 200 }],
    ]);
  });

  it('keeps the key out of the url and the body it tells, and sends them untouched', async () => {
    const observer = recorder();
    const fetch = answering(200);
    const tap = tapWire(observer, { fetch, secrets: [KEY] });
    const url = `https://x.test/v1beta/models/m:generateContent?key=${KEY}&alt=sse`;
    const body = `{"contents":[{"parts":[{"text":"my key is ${KEY}"}]}]}`;
    await tap?.fetch(new URL(url), { method: 'POST', body });
    expect(fetch.calls[0]).toMatchObject({ init: { body } });
    expect(observer.seen[0]).toEqual([
      'request',
      {
        url: 'https://x.test/v1beta/models/m:generateContent?alt=sse',
        method: 'POST',
        body: '{"contents":[{"parts":[{"text":"my key is [redacted]"}]}]}',
      },
    ]);
    expect(JSON.stringify(observer.seen)).not.toContain(KEY);
  });

  it('reads bytes as UTF-8, and the method and url of a Request', async () => {
    const observer = recorder();
    const tap = tapWire(observer, { fetch: answering(200, 200), secrets: [] });
    await tap?.fetch('http://x.test/bytes', { method: 'POST', body: new TextEncoder().encode('{"a":"é"}') });
    await tap?.fetch(new Request('http://x.test/request', { method: 'PUT' }));
    expect(observer.seen.filter(([kind]) => kind === 'request').map(([, value]) => value)).toEqual([
      { url: 'http://x.test/bytes', method: 'POST', body: '{"a":"é"}' },
      { url: 'http://x.test/request', method: 'PUT', body: '' },
    ]);
  });
});
