import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { ModelCallReader } from '../contracts/model-call-log.js';
import type { Session } from '../contracts/session.js';
import { NO_MODEL_CALLS } from '../engine/session/call-log-of.js';
import type { Runner } from '../engine/runner/runner.js';
import { requestToJson } from '../engine/assembly/request-json.js';
import { eventToJson, sessionToJson, type SessionJson } from '../engine/session/session-json.js';
import { readCreateSessionBody, readQuery } from './request-input.js';
import { sessionKey, type Handler, type RouteContext } from './route-context.js';

/** `POST /apps/{app}/users/{user}/sessions` → 201 and the new session. */
export const createSession: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const body = readCreateSessionBody(await context.body());
  const defaults = context.newSessions;
  // The server's defaults for new sessions come first; the request's own state wins over them.
  const state = defaults?.state === undefined ? body.state : { ...defaults.state, ...body.state };
  const session = await context.runner.createSession({
    userId: context.params['user'] ?? '',
    ...body,
    ...(state === undefined ? {} : { state }),
  });
  if (defaults?.artifacts !== undefined && defaults.artifacts.length > 0) {
    const store = context.runner.artifacts;
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
    for (const { name, artifact } of defaults.artifacts) await store?.save({ ...key, filename: name, artifact });
  }
  const location = `${context.url.pathname.replace(/\/$/, '')}/${encodeURIComponent(session.id)}`;
  return { status: 201, body: sessionToJson(session), headers: { location } };
};

/** `GET …/sessions` → `{ sessions }`, without their events, most recently updated first. */
export const listSessions: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const sessions = await context.runner.sessions.listSessions({
    appName: context.runner.appName,
    userId: context.params['user'] ?? '',
  });
  return { status: 200, body: { sessions: sessions.map(withoutEvents) } };
};

/** `GET …/sessions/{id}[?limit=N]` → the session with its events (the last N). */
export const getSession: Handler = async (context) => {
  const { limit } = readQuery(context.url.searchParams, { limit: 'count' });
  const session = await loadSession(context, limit === undefined ? {} : { numRecentEvents: limit });
  return { status: 200, body: sessionToJson(session) };
};

/** `DELETE …/sessions/{id}` → 204; its events and recorded calls go too, shared `app:` and `user:` state stays. */
export const deleteSession: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  await loadSession(context, { numRecentEvents: 0 });
  const { userId, sessionId } = sessionKey(context);
  await context.runner.deleteSession({ userId, sessionId });
  return { status: 204 };
};

/**
 * `GET …/sessions/{id}/events[?limit=N][&after=T][&afterRevision=R]` → `{ events, revision }`: the last N, those at or
 * after time T, those appended after revision R (what a client that read the session at R has not seen).
 */
export const listEvents: Handler = async (context) => {
  const { limit, after, afterRevision } = readQuery(context.url.searchParams, {
    limit: 'count',
    after: 'number',
    afterRevision: 'count',
  });
  const session = await loadSession(context, {
    ...(limit === undefined ? {} : { numRecentEvents: limit }),
    ...(after === undefined ? {} : { afterTimestamp: after }),
    ...(afterRevision === undefined ? {} : { afterRevision }),
  });
  return { status: 200, body: { events: session.events.map(eventToJson), revision: session.revision } };
};

/** `GET …/sessions/{id}/calls` → `{ calls }`: every recorded model call, without its request. */
export const listCalls: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  await loadSession(context, { numRecentEvents: 0 });
  return { status: 200, body: { calls: await callsOf(context.runner).listModelCalls(sessionKey(context)) } };
};

/** `GET …/sessions/{id}/calls/{n}` → the recorded call: the exact request, its provenance and usage. */
export const getCall: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const text = context.params['call'] ?? '';
  const index = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(index) || index < 1) {
    throw new ValidationError({
      subject: 'path',
      issues: [{ path: 'call', message: `expected a call number from 1, got ${JSON.stringify(text)}` }],
    });
  }
  const key = sessionKey(context);
  await loadSession(context, { numRecentEvents: 0 });
  const record = await callsOf(context.runner).getModelCall({ ...key, index });
  if (record === undefined) {
    const count = (await callsOf(context.runner).listModelCalls(key)).length;
    throw new NotFoundError({
      resource: 'model call',
      id: String(index),
      message: `Session ${key.sessionId} has no call ${index}; it has ${count}.`,
      hint: `List them with GET …/sessions/${encodeURIComponent(key.sessionId)}/calls.`,
    });
  }
  return { status: 200, body: { ...record, request: requestToJson(record.request) } };
};

/** Where the runner's calls are read: its log, or none (a runner that records calls nowhere lists none). */
function callsOf(runner: Runner): ModelCallReader {
  return runner.calls ?? NO_MODEL_CALLS;
}

/** Refuses a route on a session that is not there (404), before anything is read or written for it. */
export async function requireSession(context: RouteContext): Promise<void> {
  await loadSession(context, { numRecentEvents: 0 });
}

async function loadSession(
  context: RouteContext,
  window: { numRecentEvents?: number; afterTimestamp?: number; afterRevision?: number },
): Promise<Session> {
  const key = sessionKey(context);
  const session = await context.runner.sessions.getSession({ ...key, ...window });
  if (session === undefined) throw sessionNotFound(key);
  return session;
}

export function sessionNotFound(key: { appName: string; userId: string; sessionId: string }): NotFoundError {
  return new NotFoundError({
    resource: 'session',
    id: key.sessionId,
    message: `Session ${key.sessionId} of user ${key.userId} not found in app ${key.appName}.`,
    hint: `Create it with POST /apps/${encodeURIComponent(key.appName)}/users/${encodeURIComponent(key.userId)}/sessions.`,
  });
}

function withoutEvents(session: Session): Omit<SessionJson, 'events'> {
  const { events: _events, ...rest } = sessionToJson(session);
  return rest;
}
