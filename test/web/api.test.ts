import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffRequests } from '../../src/engine/assembly/diff-requests.js';
import { findInRequest } from '../../src/engine/assembly/find-in-request.js';
import { requestToJson } from '../../src/engine/assembly/request-json.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { countRequestTokens } from '../../src/engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { serveInspector } from '../../src/web/serve-inspector.js';
import { DEFAULT_ASSETS_DIR } from '../../src/web/static-assets.js';
import { createFixtureStore, HOSTILE, PAGED, SCRIPT_IN_STATE, MARKUP_IN_OUTPUT, type InspectorFixture } from './fixtures.js';

let fixture: InspectorFixture;
let app: ReturnType<typeof createInspectorApp>;

beforeAll(async () => {
  fixture = await createFixtureStore();
  app = createInspectorApp({ store: fixture.store, apps: ['report_analyst', 'notes_app'], version: 'test', onError: (error) => { throw error; } });
}, 60_000);
afterAll(async () => fixture?.cleanup());

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers: { host: '127.0.0.1:8090', ...headers } });
const session = (key: typeof PAGED) => `/api/apps/${encodeURIComponent(key.appName)}/users/${encodeURIComponent(key.userId)}/sessions/${encodeURIComponent(key.sessionId)}`;
const json = async (path: string) => {
  const response = await get(path);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return response.json() as Promise<any>;
};

describe('the inspector API', () => {
  it('lists apps given up front, the sessions of an app and their users', async () => {
    expect(await json('/api/info')).toEqual({ name: 'agentctx inspector', version: 'test', store: 'sqlite', apps: ['report_analyst', 'notes_app'], readOnly: true, tokenRequired: false });
    const listing = await json('/api/apps/report_analyst/sessions');
    expect(listing.users).toEqual(['analyst']);
    expect(listing.sessions.map((s: { id: string }) => s.id)).toEqual(['report-analyst-paged']);
    expect((await json('/api/apps/report_analyst/sessions?user=nobody')).sessions).toEqual([]);
    expect((await json('/api/apps/unknown_app/sessions')).sessions).toEqual([]);
  });

  it('gives a session its state with scopes and a timeline of invocations, calls, tool calls, state changes and transfers', async () => {
    const body = await json(session(PAGED));
    const calls = await fixture.store.listModelCalls(PAGED);
    expect(body.calls).toEqual(calls);
    expect(body.calls).toHaveLength(12);
    const items = body.timeline.flatMap((invocation: { items: { type: string }[] }) => invocation.items);
    const types = new Set(items.map((item: { type: string }) => item.type));
    for (const type of ['message', 'tool-call', 'tool-result', 'state', 'transfer', 'escalate', 'model-call']) expect(types, type).toContain(type);
    expect(items.filter((item: { type: string }) => item.type === 'model-call')).toHaveLength(12);
    // Each call sits right before the event that carried its answer.
    items.forEach((item: { type: string; responseEventId?: string }, position: number) => {
      if (item.type === 'model-call' && item.responseEventId !== null) expect(items[position + 1].eventId).toBe(item.responseEventId);
    });
    expect(body.state.find((entry: { key: string }) => entry.key === 'reports:result:batch-1')).toMatchObject({ scope: 'session' });
    const hostile = await json(session(HOSTILE));
    expect(hostile.state).toContainEqual({ key: 'user:signature', scope: 'user', value: MARKUP_IN_OUTPUT });
    const hostileItems = hostile.timeline.flatMap((invocation: { items: { type: string }[] }) => invocation.items);
    expect(hostileItems.filter((item: { type: string }) => item.type === 'compaction').length).toBeGreaterThan(0);
  });

  it('splits a call into its system blocks, tools and parts, with sources and the same token counts as countRequestTokens', async () => {
    const record = await fixture.store.getModelCall({ ...PAGED, index: 4 });
    const tokens = countRequestTokens(record!.request, await loadTokenCounter(), record!.provenance);
    const view = await json(`${session(PAGED)}/calls/4`);
    expect(view.request).toEqual(JSON.parse(JSON.stringify(requestToJson(record!.request))));
    expect(view.tokens.total).toBe(tokens.total);
    expect(view.system.map((block: { tokens: number }) => block.tokens)).toEqual(tokens.system.blocks);
    expect(view.system.map((block: { source: { kind: string } }) => block.source.kind)).toEqual(['instruction', 'page', 'identity']);
    expect(view.system[1].text).toContain('--- BEGIN REPORTS (10: rpt-001');
    expect(view.system.map((block: { text: string }) => block.text).join('\n\n')).toBe(record!.request.system);
    expect(view.tools.map((tool: { tokens: number }) => tool.tokens)).toEqual(tokens.tools.each);
    expect(view.messages.map((message: { tokens: number }) => message.tokens)).toEqual(tokens.messages.each.map((message) => message.total));
    expect(JSON.stringify(view.messages)).not.toContain('BEGIN REPORTS');
    expect(view.provenanceMismatch).toBe(false);
    const raw = await get(`${session(PAGED)}/calls/4/raw`);
    expect(JSON.parse(await raw.text())).toEqual(view.request);
  });

  it('finds a text in every call, with paths and sources in the chosen one', async () => {
    const result = await json(`${session(PAGED)}/find?text=rpt-003&call=4`);
    const record = await fixture.store.getModelCall({ ...PAGED, index: 4 });
    const expected = findInRequest(record!.request, 'rpt-003', record!.provenance);
    expect(result.places.map((place: { path: string }) => place.path)).toEqual(expected.map((occurrence) => occurrence.path));
    expect(result.places.find((place: { path: string }) => place.path === 'system')).toMatchObject({ block: 1, source: { kind: 'page' }, match: 'rpt-003' });
    expect(result.places.some((place: { path: string }) => /^messages\[\d+\]\.content\[\d+\]$/.test(place.path))).toBe(true);
    const all = await fixture.store.listModelCalls(PAGED);
    const containing: number[] = [];
    for (const call of all) if (findInRequest((await fixture.store.getModelCall({ ...PAGED, index: call.index }))!.request, 'rpt-003').length > 0) containing.push(call.index);
    expect(result.calls.map((call: { index: number }) => call.index)).toEqual(containing);
    expect((await get(`${session(PAGED)}/find?text=`)).status).toBe(400);
  });

  it('diffs two calls block by block, consecutive ones by default, with the common prefix', async () => {
    const diff = await json(`${session(PAGED)}/diff?b=5`);
    expect([diff.a.index, diff.b.index]).toEqual([4, 5]);
    const [a, b] = [await fixture.store.getModelCall({ ...PAGED, index: 4 }), await fixture.store.getModelCall({ ...PAGED, index: 5 })];
    expect(diff.commonPrefix).toEqual(diffRequests(a!.request, b!.request).commonPrefix);
    expect(diff.sections.system.map((row: { status: string }) => row.status)).toEqual(['identical', 'identical', 'identical']);
    expect(diff.sections.messages.filter((row: { status: string }) => row.status === 'added').length).toBeGreaterThan(0);
    // Call 7 pages the next batch in: the page block changed, the instruction stayed.
    const next = await json(`${session(PAGED)}/diff?a=6&b=7`);
    expect(next.sections.system.find((row: { kind: string; status: string }) => row.kind === 'instruction').status).toBe('identical');
    expect(next.sections.system.some((row: { kind: string; status: string }) => row.kind === 'page' && row.status !== 'identical')).toBe(true);
    expect((await get(`${session(PAGED)}/diff?b=1`)).status).toBe(400);
  });

  it('charts prompt tokens per call by source kind, marking page-ins and compactions', async () => {
    const chart = await json(`${session(PAGED)}/chart`);
    expect(chart.calls).toHaveLength(12);
    const counter = await loadTokenCounter();
    for (const call of chart.calls) {
      const record = await fixture.store.getModelCall({ ...PAGED, index: call.index });
      const total = countRequestTokens(record!.request, counter, record!.provenance).total;
      expect(call.total).toBe(total);
      expect(Object.values(call.byKind as Record<string, number>).reduce((sum, value) => sum + value, 0)).toBe(total);
    }
    expect(chart.calls.filter((call: { pageIn: boolean }) => call.pageIn).map((call: { index: number }) => call.index)).toContain(4);
    expect(chart.kinds).toContain('page');
    const hostile = await json(`${session(HOSTILE)}/chart`);
    expect(hostile.compactions.length).toBeGreaterThan(0);
    expect(hostile.compactions[0].afterCall).toBe(2);
    expect(hostile.kinds).toContain('summary');
  });

  it('reads apps, users and sessions whose names need escaping in a path', async () => {
    const store = createInMemorySessionStore();
    const key = { appName: 'my app/x', userId: 'ü ser?#', sessionId: 's/1 %2F ü' };
    await store.createSession(key);
    const odd = createInspectorApp({ store });
    const response = await odd.request(session(key), { headers: { host: '127.0.0.1' } });
    expect(await response.json()).toMatchObject({ appName: key.appName, userId: key.userId, id: key.sessionId });
    const listing = (await (await odd.request(`/api/apps/${encodeURIComponent(key.appName)}/sessions`, { headers: { host: '127.0.0.1' } })).json()) as { users: string[] };
    expect(listing.users).toEqual([key.userId]);
  });

  it('answers unknown sessions and calls with 404 and bad numbers with 400, as JSON', async () => {
    const missing = await get('/api/apps/report_analyst/users/analyst/sessions/nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('session_not_found');
    expect((await get(`${session(PAGED)}/calls/99`)).status).toBe(404);
    expect((await get(`${session(PAGED)}/calls/0`)).status).toBe(400);
    expect((await get(`${session(PAGED)}/calls/x`)).status).toBe(400);
    expect((await get('/api/nothing')).status).toBe(404);
  });
});

describe('the inspector is safe to open', () => {
  it('sends a strict Content-Security-Policy and nosniff on pages, assets, JSON and errors', async () => {
    for (const path of ['/', '/assets/app.js', '/api/info', `${session(HOSTILE)}`, '/api/apps/x/users/y/sessions/z', '/nowhere']) {
      const response = await get(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('writes markup in JSON as \\u escapes, which parse back to the same text', async () => {
    const response = await get(session(HOSTILE));
    const text = await response.text();
    expect(text).not.toMatch(/[<>]/);
    expect(text).toContain('\\u003cscript\\u003e');
    expect(JSON.parse(text).state).toContainEqual({ key: 'note', scope: 'session', value: SCRIPT_IN_STATE });
    const call = await get(`${session(HOSTILE)}/calls/1/raw`);
    expect(await call.text()).not.toMatch(/[<>]/);
  });

  it('is read-only: anything but GET and HEAD is refused', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await app.request(session(PAGED), { method, headers: { host: '127.0.0.1' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    expect(await fixture.store.getSession(PAGED)).toBeDefined();
  });

  it('without a token, answers only requests addressed to a loopback name (DNS rebinding)', async () => {
    expect((await get('/api/info', { host: 'localhost:8090' })).status).toBe(200);
    expect((await get('/api/info', { host: '[::1]:8090' })).status).toBe(200);
    const refused = await get('/api/info', { host: 'attacker.example:8090' });
    expect(refused.status).toBe(403);
    expect((await get('/', { host: 'attacker.example' })).status).toBe(403);
  });

  it('with a token, needs it on every API request but serves the page, which asks for it', async () => {
    const locked = createInspectorApp({ store: fixture.store, token: 's3cret' });
    const request = (path: string, headers: Record<string, string> = {}) => locked.request(path, { headers: { host: 'inspector.internal', ...headers } });
    expect((await request('/')).status).toBe(200);
    expect((await request('/assets/app.js')).status).toBe(200);
    const refused = await request('/api/info');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await request('/api/info', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await request(session(PAGED), { authorization: 'Bearer s3cret' })).status).toBe(200);
    expect(() => createInspectorApp({ store: fixture.store, token: ' ' })).toThrow(/empty/);
    expect(() => createInspectorApp({ store: fixture.store, token: 'open sesame' })).toThrow(/contains a space/);
  });

  it('serves only the files of its assets folder, with their types', async () => {
    const js = await get('/assets/app.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('/assets/style.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const path of ['/assets/..%2Fpackage.json', '/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/assets/missing.js', '/assets/.hidden']) expect((await get(path)).status, path).toBe(404);
  });

  it('has a page with no inline script or style and assets that never parse data as HTML', () => {
    const html = readFileSync(join(DEFAULT_ASSETS_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    for (const name of readdirSync(DEFAULT_ASSETS_DIR).filter((file) => file.endsWith('.js'))) {
      const text = readFileSync(join(DEFAULT_ASSETS_DIR, name), 'utf8');
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\(\s*['"]on/);
    }
  });

  it('listens on 127.0.0.1 by default and frees its port on close', async () => {
    const served = await serveInspector({ app, port: 0 });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(`${served.url}api/info`);
    expect(response.status).toBe(200);
    await served.close();
    await expect(fetch(`${served.url}api/info`)).rejects.toThrow();
  });
});
