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
import { UnavailableError } from '../../src/contracts/errors/unavailable-error.js';
import { serveInspector } from '../../src/web/serve-inspector.js';
import { DEFAULT_ASSETS_DIR } from '../../src/web/static-assets.js';
import { ANSWER, APPENDED, INSERTED, LATENCY_MS, USAGE, WIRE_BODY } from './edited-session.js';
import {
  createFixtureStore,
  EDITED,
  HOSTILE,
  PAGED,
  SCRIPT_IN_STATE,
  MARKUP_IN_OUTPUT,
  type InspectorFixture,
} from './fixtures.js';

let fixture: InspectorFixture;
let app: ReturnType<typeof createInspectorApp>;

beforeAll(async () => {
  fixture = await createFixtureStore();
  app = createInspectorApp({
    store: fixture.store,
    apps: ['report_analyst', 'notes_app'],
    version: 'test',
    onError: (error) => {
      throw error;
    },
  });
}, 60_000);
afterAll(async () => fixture?.cleanup());

const get = (path: string, headers: Record<string, string> = {}) =>
  app.request(path, { headers: { host: '127.0.0.1:8090', ...headers } });
const session = (key: typeof PAGED) =>
  `/api/apps/${encodeURIComponent(key.appName)}/users/${encodeURIComponent(key.userId)}/sessions/${encodeURIComponent(key.sessionId)}`;
const json = async (path: string) => {
  const response = await get(path);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return response.json() as Promise<any>;
};

describe('the inspector API', () => {
  it('lists apps given up front, the sessions of an app and their users', async () => {
    expect(await json('/api/info')).toEqual({
      name: 'agentctx inspector',
      version: 'test',
      store: 'sqlite',
      apps: ['report_analyst', 'notes_app'],
      readOnly: true,
      tokenRequired: false,
      comparisons: 0,
    });
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
    for (const type of ['message', 'tool-call', 'tool-result', 'state', 'transfer', 'escalate', 'model-call'])
      expect(types, type).toContain(type);
    expect(items.filter((item: { type: string }) => item.type === 'model-call')).toHaveLength(12);
    // Each call sits right before the event that carried its answer.
    items.forEach((item: { type: string; responseEventId?: string }, position: number) => {
      if (item.type === 'model-call' && item.responseEventId !== null)
        expect(items[position + 1].eventId).toBe(item.responseEventId);
    });
    expect(body.state.find((entry: { key: string }) => entry.key === 'reports:result:batch-1')).toMatchObject({
      scope: 'session',
    });
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
    expect(view.system.map((block: { source: { kind: string } }) => block.source.kind)).toEqual([
      'instruction',
      'page',
      'identity',
    ]);
    expect(view.system[1].text).toContain('--- BEGIN REPORTS (10: rpt-001');
    expect(view.system.map((block: { text: string }) => block.text).join('\n\n')).toBe(record!.request.system);
    expect(view.tools.map((tool: { tokens: number }) => tool.tokens)).toEqual(tokens.tools.each);
    expect(view.messages.map((message: { tokens: number }) => message.tokens)).toEqual(
      tokens.messages.each.map((message) => message.total),
    );
    expect(JSON.stringify(view.messages)).not.toContain('BEGIN REPORTS');
    expect(view.provenanceMismatch).toBe(false);
    const raw = await get(`${session(PAGED)}/calls/4/raw`);
    expect(JSON.parse(await raw.text())).toEqual(view.request);
  });

  it('finds a text in every call, with paths and sources in the chosen one', async () => {
    const result = await json(`${session(PAGED)}/find?text=rpt-003&call=4`);
    const record = await fixture.store.getModelCall({ ...PAGED, index: 4 });
    const expected = findInRequest(record!.request, 'rpt-003', record!.provenance);
    expect(result.places.map((place: { path: string }) => place.path)).toEqual(
      expected.map((occurrence) => occurrence.path),
    );
    expect(result.places.find((place: { path: string }) => place.path === 'system')).toMatchObject({
      block: 1,
      source: { kind: 'page' },
      match: 'rpt-003',
    });
    expect(result.places.some((place: { path: string }) => /^messages\[\d+\]\.content\[\d+\]$/.test(place.path))).toBe(
      true,
    );
    const all = await fixture.store.listModelCalls(PAGED);
    const containing: number[] = [];
    for (const call of all)
      if (
        findInRequest((await fixture.store.getModelCall({ ...PAGED, index: call.index }))!.request, 'rpt-003').length >
        0
      )
        containing.push(call.index);
    expect(result.calls.map((call: { index: number }) => call.index)).toEqual(containing);
    expect((await get(`${session(PAGED)}/find?text=`)).status).toBe(400);
  });

  it('diffs two calls block by block, consecutive ones by default, with the common prefix', async () => {
    const diff = await json(`${session(PAGED)}/diff?b=5`);
    expect([diff.a.index, diff.b.index]).toEqual([4, 5]);
    const [a, b] = [
      await fixture.store.getModelCall({ ...PAGED, index: 4 }),
      await fixture.store.getModelCall({ ...PAGED, index: 5 }),
    ];
    expect(diff.commonPrefix).toEqual(diffRequests(a!.request, b!.request).commonPrefix);
    expect(diff.sections.system.map((row: { status: string }) => row.status)).toEqual([
      'identical',
      'identical',
      'identical',
    ]);
    expect(diff.sections.messages.filter((row: { status: string }) => row.status === 'added').length).toBeGreaterThan(
      0,
    );
    // Call 7 pages the next batch in: the page block changed, the instruction stayed.
    const next = await json(`${session(PAGED)}/diff?a=6&b=7`);
    expect(
      next.sections.system.find((row: { kind: string; status: string }) => row.kind === 'instruction').status,
    ).toBe('identical');
    expect(
      next.sections.system.some(
        (row: { kind: string; status: string }) => row.kind === 'page' && row.status !== 'identical',
      ),
    ).toBe(true);
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
    expect(
      chart.calls.filter((call: { pageIn: boolean }) => call.pageIn).map((call: { index: number }) => call.index),
    ).toContain(4);
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
    const listing = (await (
      await odd.request(`/api/apps/${encodeURIComponent(key.appName)}/sessions`, { headers: { host: '127.0.0.1' } })
    ).json()) as { users: string[] };
    expect(listing.users).toEqual([key.userId]);
  });

  it('offers the apps of its store when it is told of none, and only those it is told of otherwise', async () => {
    const info = async (app: ReturnType<typeof createInspectorApp>) =>
      ((await (await app.request('/api/info', { headers: { host: '127.0.0.1' } })).json()) as { apps: string[] }).apps;
    expect(await info(createInspectorApp({ store: fixture.store }))).toEqual(await fixture.store.listApps?.());
    expect(await info(createInspectorApp({ store: fixture.store }))).toEqual(
      expect.arrayContaining(['notes_app', 'report_analyst']),
    );
    expect(await info(createInspectorApp({ store: fixture.store, apps: ['notes_app'] }))).toEqual(['notes_app']);
    const { listApps: _cannot, ...unlisting } = createInMemorySessionStore();
    await unlisting.createSession({ appName: 'hidden', userId: 'u' });
    expect(await info(createInspectorApp({ store: unlisting }))).toEqual([]);
  });

  it('answers 503 with Retry-After, not 500, while the store’s database cannot answer', async () => {
    const store = createInMemorySessionStore();
    const down = new UnavailableError({
      store: 'postgres',
      reason: 'unreachable',
      message: 'PostgreSQL cannot be reached: connect ECONNREFUSED.',
    });
    store.getSession = async () => {
      throw down;
    };
    const reported: unknown[] = [];
    const inspector = createInspectorApp({ store, onError: (error) => reported.push(error) });
    const response = await inspector.request(session({ appName: 'a', userId: 'u', sessionId: 's' }), {
      headers: { host: '127.0.0.1' },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({ error: { code: 'store_unavailable', message: down.message } });
    expect(reported).toEqual([]);
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

type Piece = {
  role: string;
  offset: number;
  text: string;
  source?: { kind: string; agent: string };
  replaced?: string;
};
const joined = (pieces: Piece[]) => pieces.map((piece) => piece.text).join('');

describe('the inspector API on calls a callback edited, nested calls and calls that did not answer', () => {
  it('cuts an edited request into pieces that line up with it: what the callback wrote, what it removed, separators', async () => {
    const record = (await fixture.store.getModelCall({ ...EDITED, index: 1 }))!;
    const view = await json(`${session(EDITED)}/calls/1`);
    expect(view.editedByCallback).toBe(true);
    expect(view.provenanceMismatch).toBe(false);
    expect(view.mismatchNotes).toEqual([]);
    // Separators, block pieces and the text after the last block are the system text as sent, and each block's text.
    expect(
      view.system
        .map((block: { separatorBefore: string; pieces: Piece[] }) => block.separatorBefore + joined(block.pieces))
        .join('') + view.systemAfter,
    ).toBe(record.request.system);
    for (const block of view.system) expect(joined(block.pieces)).toBe(block.text);
    expect(view.system.map((block: { separatorBefore: string }) => block.separatorBefore)).toEqual(['', '\n\n']);
    const edits = view.system.flatMap((block: { pieces: Piece[] }) =>
      block.pieces.filter((piece) => piece.role === 'edit'),
    );
    expect(edits.map((piece: Piece) => [piece.text, piece.replaced, piece.source?.kind, piece.source?.agent])).toEqual([
      ['REDACTED', 'Ada', 'callback', 'coordinator'],
      [APPENDED, undefined, 'callback', 'coordinator'],
    ]);
    expect(view.system[1].source.kind).toBe('memory');
    expect(view.tools).toHaveLength(1);
    expect(view.tools[0].descriptionPieces.map((piece: Piece) => [piece.role, piece.text])).toEqual([
      ['own', 'Asks the researcher agent a question.'],
      ['edit', ' Keep questions short.'],
    ]);
    expect(view.messages[0].parts[0].pieces.map((piece: Piece) => [piece.role, piece.text, piece.replaced])).toEqual([
      ['edit', 'REDACTED', 'Ada'],
      ['own', ' asks: who wrote the first program?', undefined],
    ]);
    expect(view.messages[1].parts[0]).toMatchObject({
      text: INSERTED,
      source: { kind: 'callback', processor: 'beforeModel' },
    });
    expect(view.removed).toEqual(record.provenance.removed);
    expect(view.removed).toMatchObject([
      { what: 'tool', preview: 'debug_dump: Dumps internal state.', by: { kind: 'callback' } },
    ]);
  });

  it('gives a call its answer: status, model, timings, usage, the response and the exact wire body', async () => {
    const view = await json(`${session(EDITED)}/calls/1`);
    expect(view).toMatchObject({
      status: 'answered',
      model: { provider: 'openai', modelId: 'gpt-4o-mini' },
      latencyMs: LATENCY_MS,
      firstTokenMs: 321,
      usage: USAGE,
      error: null,
      parent: null,
      responseEventId: 'e-call1',
    });
    expect(view.response).toMatchObject({ role: 'model', text: ANSWER, finishReason: 'STOP', errorCode: null });
    expect(
      view.response.parts.map(
        (part: { type: string; thought: boolean; name: string | null; callId: string | null }) => [
          part.type,
          part.thought,
          part.name,
          part.callId,
        ],
      ),
    ).toEqual([
      ['text', true, null, null],
      ['text', false, null, null],
      ['functionCall', false, 'researcher', 'call_1'],
    ]);
    expect(view.wire).toEqual({
      url: 'https://api.openai.com/v1/chat/completions',
      method: 'POST',
      status: 200,
      attempts: 2,
      usage: { prompt_tokens: 812, completion_tokens: 64, prompt_tokens_details: { cached_tokens: 512 } },
      body: WIRE_BODY,
    });

    expect(await json(`${session(EDITED)}/calls/2`)).toMatchObject({
      agent: 'researcher',
      parent: { callIndex: 1, functionCallId: 'call_1', tool: 'researcher' },
      status: 'answered',
      latencyMs: 800,
    });
    expect(await json(`${session(EDITED)}/calls/3`)).toMatchObject({
      status: 'aborted',
      error: 'The run was cancelled.',
      latencyMs: 50,
      response: null,
      wire: null,
    });
    expect(await json(`${session(EDITED)}/calls/5`)).toMatchObject({
      status: 'pending',
      latencyMs: null,
      firstTokenMs: null,
      usage: null,
      error: null,
      response: null,
      wire: null,
    });
  });

  it('shows a recording whose provenance does not line up as whole, unattributed text, never sliced by stale ranges', async () => {
    const record = (await fixture.store.getModelCall({ ...EDITED, index: 4 }))!;
    const view = await json(`${session(EDITED)}/calls/4`);
    expect(view.provenanceMismatch).toBe(true);
    expect(view.mismatchNotes.join(' ')).toMatch(/system blocks do not cover/);
    expect(view.system).toHaveLength(1);
    expect(view.system[0]).toMatchObject({
      text: record.request.system,
      separatorBefore: '',
      pieces: [{ role: 'own', text: record.request.system }],
    });
    expect(view.system[0].source).toBeUndefined();
    expect(view.tools.map((tool: { source?: unknown }) => tool.source)).toEqual([undefined]);
    expect(
      view.messages.flatMap((message: { parts: { source?: unknown }[] }) => message.parts.map((part) => part.source)),
    ).toEqual([undefined, undefined]);
  });

  it('charts, finds and diffs by the sources that line up: a callback segment for call 1, nothing attributed in call 4', async () => {
    const diff = await json(`${session(EDITED)}/diff?a=3&b=4`);
    expect(
      diff.sections.system
        .filter((row: { b: number | null }) => row.b !== null)
        .map((row: { kind: string; charsB: number }) => [row.kind, row.charsB]),
    ).toEqual([['other', (await fixture.store.getModelCall({ ...EDITED, index: 4 }))!.request.system.length]]);
    const chart = await json(`${session(EDITED)}/chart`);
    expect(chart.calls[0].byKind.callback).toBeGreaterThan(0);
    expect(Object.keys(chart.calls[3].byKind).sort()).toEqual(['framing', 'other']);
    const inEdited = await json(`${session(EDITED)}/find?text=REDACTED&call=1`);
    expect(
      inEdited.places.map((place: { path: string; block: number | null; source: { kind: string } | null }) => [
        place.path,
        place.block,
        place.source?.kind,
      ]),
    ).toEqual([
      ['system', 1, 'callback'],
      ['messages[0].content[0]', null, 'callback'],
    ]);
    const inOld = await json(`${session(EDITED)}/find?text=REDACTED&call=4`);
    expect(
      inOld.places.map((place: { path: string; block: number | null; source: unknown }) => [
        place.path,
        place.block,
        place.source,
      ]),
    ).toEqual([
      ['system', null, null],
      ['messages[0].content[0]', null, null],
    ]);
  });

  it('lists calls with status and parent, and nests a sub-agent call under the tool call that started it', async () => {
    const body = await json(session(EDITED));
    const summaries = await fixture.store.listModelCalls(EDITED);
    expect(body.calls).toEqual(summaries);
    expect(body.calls.map((call: { status: string }) => call.status)).toEqual([
      'answered',
      'answered',
      'aborted',
      'answered',
      'pending',
    ]);
    expect(body.timeline.map((invocation: { invocationId: string }) => invocation.invocationId)).toEqual(['inv-1']);
    const items = body.timeline[0].items;
    const shape = items.map((item: { type: string; index?: number; callId?: string; depth?: number }) =>
      item.type === 'model-call'
        ? `call ${item.index}@${item.depth}`
        : item.type === 'tool-call' || item.type === 'tool-result'
          ? `${item.type} ${item.callId}`
          : item.type,
    );
    expect(shape).toEqual([
      'message',
      'call 1@0',
      'message',
      'tool-call call_1',
      'call 2@1',
      'tool-result call_1',
      'call 3@0',
      'call 4@0',
      'message',
      'call 5@0',
    ]);
    const nested = items.find((item: { index?: number }) => item.index === 2);
    expect(nested).toMatchObject({
      type: 'model-call',
      agent: 'researcher',
      invocationId: 'inv-sub',
      parent: { callIndex: 1, functionCallId: 'call_1', tool: 'researcher' },
      depth: 1,
      status: 'answered',
      latencyMs: 800,
    });
    expect(items.find((item: { index?: number }) => item.index === 1)).toMatchObject({
      status: 'answered',
      latencyMs: LATENCY_MS,
      firstTokenMs: 321,
      model: 'openai/gpt-4o-mini',
      error: null,
      parent: null,
      promptTokens: USAGE.promptTokens,
    });
    expect(items.find((item: { index?: number }) => item.index === 3)).toMatchObject({
      status: 'aborted',
      error: 'The run was cancelled.',
    });
    // The paged session's calls have no parent and sit at the top.
    const paged = (await json(session(PAGED))).timeline
      .flatMap((invocation: { items: { type: string }[] }) => invocation.items)
      .filter((item: { type: string }) => item.type === 'model-call');
    expect(
      paged.every(
        (item: { depth: number; parent: unknown; status: string }) =>
          item.depth === 0 && item.parent === null && item.status === 'answered',
      ),
    ).toBe(true);
  });

  it('answers whatever a client sends with 2xx or 4xx, never 500', async () => {
    const base = session(EDITED);
    const bad = [
      `${base}/calls/-1`,
      `${base}/calls/1.5`,
      `${base}/calls/1e3`,
      `${base}/calls/99999999999`,
      `${base}/calls/%00`,
      `${base}/calls/%E0%A4%A`,
      `${base}/calls/6`,
      `${base}/calls/1/raw/more`,
      `${base}/diff?b=`,
      `${base}/diff?b=abc`,
      `${base}/diff?a=0&b=2`,
      `${base}/diff?a=99&b=2`,
      `${base}/diff?a=-1&b=2`,
      `${base}/find`,
      `${base}/find?text=${'x'.repeat(1001)}`,
      `${base}/find?text=a&call=0`,
      `${base}/find?text=a&call=abc`,
      `/api/apps/${EDITED.appName}/users/${EDITED.userId}/sessions/missing/calls/1`,
      `/api/apps/${EDITED.appName}/users/${EDITED.userId}/sessions/missing/chart`,
      `/api/apps/${EDITED.appName}/users/${EDITED.userId}/sessions/missing/cost`,
      `/api/apps/${EDITED.appName}/users/${EDITED.userId}/sessions/missing/cache`,
      `${base}/cache/more`,
      `/api/apps/${EDITED.appName}/users/${EDITED.userId}/sessions/missing/find?text=a`,
      `/api/apps/${EDITED.appName}/users/${EDITED.userId}/sessions/${'s'.repeat(5000)}`,
      '/api/apps/%E0%A4%A/users/%ZZ/sessions/%',
      '/api/apps//users//sessions/',
      '/api/../../etc/passwd',
    ];
    for (const path of bad) {
      const response = await get(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
    }
    const fine = [
      `${base}/calls/1/raw`,
      `${base}/calls/5/raw`,
      `${base}/diff?b=2`,
      `${base}/diff?a=5&b=1`,
      `${base}/find?text=%E0%A4%A`,
      `${base}/find?text=REDACTED&call=4`,
      `${base}/find?text=a&call=99`,
      `${base}/chart`,
      `${base}/cost`,
      `${base}/cache`,
      `${session(PAGED)}/cache`,
      `${session(HOSTILE)}/cache`,
      `${base}?x=%ZZ`,
      '/api/apps/%E0%A4%A/sessions',
    ];
    for (const path of fine) expect((await get(path)).status, path).toBe(200);
  });
});

describe('the inspector is safe to open', () => {
  it('sends a strict Content-Security-Policy and nosniff on pages, assets, JSON and errors', async () => {
    for (const path of [
      '/',
      '/assets/app.js',
      '/api/info',
      `${session(HOSTILE)}`,
      '/api/apps/x/users/y/sessions/z',
      '/nowhere',
    ]) {
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
    const request = (path: string, headers: Record<string, string> = {}) =>
      locked.request(path, { headers: { host: 'inspector.internal', ...headers } });
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
    for (const path of [
      '/assets/..%2Fpackage.json',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/missing.js',
      '/assets/.hidden',
    ])
      expect((await get(path)).status, path).toBe(404);
  });

  it('has a page with no inline script or style and assets that never parse data as HTML', () => {
    const html = readFileSync(join(DEFAULT_ASSETS_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    for (const name of readdirSync(DEFAULT_ASSETS_DIR).filter((file) => file.endsWith('.js'))) {
      const text = readFileSync(join(DEFAULT_ASSETS_DIR, name), 'utf8');
      expect(text, name).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\(\s*['"]on/,
      );
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

describe('the inspector API on tools from toolsets', () => {
  it('names each tool definition’s origin (an MCP server and its tool, the agent’s own) and sums tokens by source', async () => {
    const { createRunner } = await import('../../src/presets/create-runner.js');
    const { llmAgent } = await import('../../src/engine/agent/define-agent.js');
    const { declareTool } = await import('../../src/engine/tools/tool.js');
    const { createScriptedModel } = await import('../../src/models/scripted/scripted-model.js');
    const store = createInMemorySessionStore();
    const tool = (name: string) =>
      declareTool({
        name,
        description: `Does ${name} for the user.`,
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
      });
    const github = {
      kind: 'toolset' as const,
      name: 'github',
      origin: { kind: 'mcp' as const, server: 'github' },
      listTools: async () => ({ tools: [tool('list_issues'), tool('get_issue')] }),
    };
    const runner = createRunner({
      agents: llmAgent({ name: 'helper', tools: [tool('own'), github] }),
      sessions: store,
      model: createScriptedModel([{ text: 'ok' }]),
    });
    await runner.createSession({ userId: 'u', sessionId: 's' });
    for await (const _event of runner.run({ userId: 'u', sessionId: 's', message: 'hi' }));
    const inspector = createInspectorApp({
      store,
      apps: ['helper'],
      version: 'test',
      onError: (error) => {
        throw error;
      },
    });
    const response = await inspector.request('/api/apps/helper/users/u/sessions/s/calls/1', {
      headers: { host: '127.0.0.1:8090' },
    });
    const view = (await response.json()) as {
      tools: { declaration: { name: string }; origin: { label: string }; tokens: number }[];
      toolsBySource: { group: string; tools: number; tokens: number }[];
    };
    expect(view.tools.map((entry) => [entry.declaration.name, entry.origin.label])).toEqual([
      ['own', 'function tool'],
      ['list_issues', 'MCP server github, tool list_issues'],
      ['get_issue', 'MCP server github, tool get_issue'],
    ]);
    const [own, listIssues, getIssue] = view.tools.map((entry) => entry.tokens);
    expect(view.toolsBySource).toEqual([
      { group: 'MCP github', tools: 2, tokens: (getIssue ?? 0) + (listIssues ?? 0) },
      { group: 'function tools', tools: 1, tokens: own },
    ]);
  });
});
