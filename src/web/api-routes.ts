import type { Hono } from 'hono';
import type { ModelCallReader } from '../contracts/model-call-log.js';
import type { SessionStore } from '../contracts/session-store.js';
import type { Session, SessionKey } from '../contracts/session.js';
import { requestToJson } from '../engine/assembly/request-json.js';
import type { PriceTable } from '../analysis/cost/price-table.js';
import { callCacheView, type CacheReports, type SessionCacheView } from './cache-view.js';
import { diffCalls } from './call-diff.js';
import type { CallLoader } from './call-loader.js';
import type { ChartRows } from './chart-rows.js';
import { buildCallView } from './call-view.js';
import { buildCallCost, buildSessionCost } from './cost-view.js';
import { findInSession } from './find-in-session.js';
import { safeJsonText } from './security-headers.js';
import { buildSessionChart } from './session-chart.js';
import { buildTimeline } from './session-timeline.js';
import { stateAtCall, stateEntries } from './state-at-call.js';
import { parseIndex, WebError } from './web-error.js';

export type ApiOptions = {
  store: SessionStore;
  /** Where the sessions' model calls are read. */
  log: ModelCallReader;
  calls: CallLoader;
  chartRows: ChartRows;
  /** Each call against its agent's previous call (the prompt cache), kept between requests. */
  cacheReports: CacheReports;
  /** Apps the page offers before anyone types one; when none, the store's own (`listApps`), if it can list them. */
  apps: readonly string[];
  /** Whether `/api/…` needs a bearer token; the page asks for one when it does. */
  tokenRequired: boolean;
  version: string;
  /** The prices calls are billed at. */
  prices: PriceTable;
  /** How many comparisons the page can show (`/api/comparisons`). */
  comparisons: number;
};

const SESSION = '/api/apps/:app/users/:user/sessions/:session';
const MAX_FIND_CHARS = 1000;

/** A JSON answer whose text is safe even if it is misread as HTML. */
export function jsonResponse(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(safeJsonText(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** The JSON endpoints the page reads; all of them read through the store contract and never write. */
export function addApiRoutes(app: Hono, options: ApiOptions): void {
  const { store, log, calls, prices, cacheReports } = options;

  // The apps the page offers: those it was told of, else every app of a store that can list them.
  app.get('/api/info', async () => {
    const apps = options.apps.length > 0 ? options.apps : ((await store.listApps?.()) ?? []);
    return jsonResponse({
      name: 'agentctx inspector',
      version: options.version,
      store: store.name,
      apps,
      readOnly: true,
      tokenRequired: options.tokenRequired,
      comparisons: options.comparisons,
    });
  });

  app.get('/api/apps/:app/sessions', async (c) => {
    const appName = c.req.param('app');
    const userId = nonEmpty(c.req.query('user'));
    const sessions = await store.listSessions({ appName, ...(userId === undefined ? {} : { userId }) });
    const users = [...new Set(sessions.map((session) => session.userId))].sort();
    return jsonResponse({
      appName,
      userId: userId ?? null,
      users,
      sessions: sessions.map((session) => ({
        appName: session.appName,
        userId: session.userId,
        id: session.id,
        lastUpdateTime: session.lastUpdateTime,
        revision: session.revision,
      })),
    });
  });

  app.get(SESSION, async (c) => {
    const key = sessionKey(c.req.param());
    const session = await loadSession(store, key);
    const summaries = await log.listModelCalls(key);
    return jsonResponse({
      appName: session.appName,
      userId: session.userId,
      id: session.id,
      lastUpdateTime: session.lastUpdateTime,
      revision: session.revision,
      eventCount: session.events.length,
      state: stateEntries(session.state),
      calls: summaries,
      timeline: buildTimeline(session.events, summaries),
      cost: buildSessionCost(summaries, prices),
    });
  });

  app.get(`${SESSION}/cost`, async (c) => {
    const key = sessionKey(c.req.param());
    await loadSession(store, key, 0);
    return jsonResponse(buildSessionCost(await log.listModelCalls(key), prices));
  });

  app.get(`${SESSION}/calls/:index`, async (c) => {
    const key = sessionKey(c.req.param());
    const index = parseIndex(c.req.param('index'), 'the call number');
    const call = await loadCall(log, calls, key, index);
    const cache = callCacheView(await cacheReports.call(key, await log.listModelCalls(key), index));
    return jsonResponse(
      buildCallView(call.record, call.tokens, await calls.encoding, buildCallCost(call.record, prices), cache),
    );
  });

  app.get(`${SESSION}/cache`, async (c) => {
    const key = sessionKey(c.req.param());
    await loadSession(store, key, 0);
    const report = await cacheReports.session(key, await log.listModelCalls(key));
    const view: SessionCacheView = {
      appName: key.appName,
      userId: key.userId,
      sessionId: key.sessionId,
      tokenizer: await calls.encoding,
      ...report,
    };
    return jsonResponse(view);
  });

  app.get(`${SESSION}/calls/:index/raw`, async (c) => {
    const key = sessionKey(c.req.param());
    const index = parseIndex(c.req.param('index'), 'the call number');
    const call = await loadCall(log, calls, key, index);
    return new Response(`${safeJsonText(requestToJson(call.record.request), 2)}\n`, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'content-disposition': `inline; filename="call-${index}.json"`,
      },
    });
  });

  app.get(`${SESSION}/calls/:index/state`, async (c) => {
    const key = sessionKey(c.req.param());
    const index = parseIndex(c.req.param('index'), 'the call number');
    const session = await loadSession(store, key);
    const summaries = await log.listModelCalls(key);
    const call = summaries.find((summary) => summary.index === index);
    if (call === undefined)
      throw new WebError(
        404,
        'call_not_found',
        `Session ${key.sessionId} has no call ${index}; it has ${summaries.length}.`,
      );
    return jsonResponse({
      call: index,
      timestamp: call.timestamp,
      state: stateAtCall(session.state, session.events, call),
    });
  });

  app.get(`${SESSION}/find`, async (c) => {
    const key = sessionKey(c.req.param());
    const text = c.req.query('text') ?? '';
    if (text === '') throw new WebError(400, 'invalid_parameter', 'Give the text to find as ?text=…');
    if (text.length > MAX_FIND_CHARS)
      throw new WebError(
        400,
        'invalid_parameter',
        `The text to find is ${text.length} characters long; at most ${MAX_FIND_CHARS}.`,
      );
    const chosen = c.req.query('call');
    await loadSession(store, key, 0);
    const records = (await calls.all(key)).map((call) => call.record);
    return jsonResponse(
      findInSession(records, text, chosen === undefined || chosen === '' ? undefined : parseIndex(chosen, 'call')),
    );
  });

  app.get(`${SESSION}/diff`, async (c) => {
    const key = sessionKey(c.req.param());
    const b = parseIndex(c.req.query('b'), 'b');
    const aText = c.req.query('a');
    const a = aText === undefined || aText === '' ? b - 1 : parseIndex(aText, 'a');
    if (a < 1)
      throw new WebError(
        400,
        'invalid_parameter',
        `Call ${b} is the first: there is no call before it to compare with. Pick a with ?a=…`,
      );
    const [left, right] = [await loadCall(log, calls, key, a), await loadCall(log, calls, key, b)];
    return jsonResponse({
      a: { index: a, agent: left.record.agent, tokens: left.tokens.total },
      b: { index: b, agent: right.record.agent, tokens: right.tokens.total },
      ...diffCalls(left.record, right.record),
    });
  });

  app.get(`${SESSION}/chart`, async (c) => {
    const key = sessionKey(c.req.param());
    const session = await loadSession(store, key);
    const rows = await options.chartRows.of(key, await log.listModelCalls(key));
    return jsonResponse(buildSessionChart(rows, session.events, await calls.encoding));
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function sessionKey(params: Record<string, string>): SessionKey {
  return { appName: params['app'] ?? '', userId: params['user'] ?? '', sessionId: params['session'] ?? '' };
}

async function loadSession(store: SessionStore, key: SessionKey, numRecentEvents?: number): Promise<Session> {
  const session = await store.getSession({ ...key, ...(numRecentEvents === undefined ? {} : { numRecentEvents }) });
  if (session === undefined)
    throw new WebError(
      404,
      'session_not_found',
      `Session ${key.sessionId} of user ${key.userId} in app ${key.appName} is not in the store.`,
    );
  return session;
}

async function loadCall(
  log: ModelCallReader,
  calls: CallLoader,
  key: SessionKey,
  index: number,
): Promise<NonNullable<Awaited<ReturnType<CallLoader['get']>>>> {
  const call = await calls.get(key, index);
  if (call !== undefined) return call;
  const count = (await log.listModelCalls(key)).length;
  throw new WebError(404, 'call_not_found', `Session ${key.sessionId} has no call ${index}; it has ${count}.`);
}
