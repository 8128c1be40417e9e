import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { declaresBody } from '../read-json-body.js';
import { createEvent } from '../../engine/session/create-event.js';
import { toAdkSession } from './adk-json.js';
import { EVAL_SESSION_ID_PREFIX } from './eval-files.js';
import { readAdkCreateSessionBody, readAdkPatchBody } from './adk-input.js';
import { appRunner, noteSession, pathSession, type AdkContext, type AdkHandler } from './adk-context.js';

/**
 * `GET /apps/{app}/users/{user}/sessions` → the user's sessions, without their events (a bare list, as ADK Python and
 * the dev UI have it). Sessions an evaluation ran in are left out, as ADK's api_server leaves them out.
 */
export const listAdkSessions: AdkHandler = async (context) => {
  const runner = appRunner(context);
  const sessions = await runner.sessions.listSessions({
    appName: runner.appName,
    userId: context.params['user'] ?? '',
  });
  return {
    status: 200,
    body: sessions
      .filter((session) => !session.id.startsWith(EVAL_SESSION_ID_PREFIX))
      .map((session) => toAdkSession(session, { events: false })),
  };
};

/**
 * `POST …/sessions` and `POST …/sessions/{id}` → the new session. The body may give `state`, a `sessionId` (the
 * path's wins) and `events` to start with, which are appended in order, as ADK Python's import does. An id in use is a
 * 409 `Session already exists: <id>`.
 */
export const createAdkSession: AdkHandler = async (context) => {
  const runner = appRunner(context);
  const body = readAdkCreateSessionBody(await optionalBody(context));
  const sessionId = context.params['session'] ?? body.sessionId;
  let session;
  try {
    // The events ADK imports with a session are stored with it, all or none (a store that refuses one writes nothing).
    session = await runner.createSession({
      userId: context.params['user'] ?? '',
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(body.state === undefined ? {} : { state: body.state }),
      ...(body.events.length === 0 ? {} : { events: body.events }),
    });
  } catch (error) {
    if (error instanceof ConflictError && error.code === 'already_exists') {
      throw new ConflictError({
        code: 'already_exists',
        message: `Session already exists: ${sessionId ?? ''}`,
        hint: 'Use another id, or leave the id out for a new one.',
      });
    }
    throw error;
  }
  noteSession(context, { appName: session.appName, userId: session.userId, sessionId: session.id });
  return { status: 200, body: toAdkSession(session) };
};

/** `GET …/sessions/{id}` → the session with its events. */
export const getAdkSession: AdkHandler = async (context) => {
  const { session } = await pathSession(context);
  return { status: 200, body: toAdkSession(session) };
};

/** `DELETE …/sessions/{id}` → 200 `null` (ADK Python's answer, which ADK's JS client can read; the JS server's empty 204 it cannot). */
export const deleteAdkSession: AdkHandler = async (context) => {
  const { runner, session } = await pathSession(context, { numRecentEvents: 0 });
  await runner.deleteSession({ userId: session.userId, sessionId: session.id });
  return { status: 200, body: null };
};

/**
 * `PATCH …/sessions/{id}` with `{ stateDelta }` → the updated session. The change is an event by `user` whose
 * actions carry the delta, in an invocation of its own (`p-<uuid>`), as ADK Python records it, so the history says
 * who changed what and when.
 */
export const patchAdkSession: AdkHandler = async (context) => {
  const delta = readAdkPatchBody(await context.body());
  const { runner, session } = await pathSession(context);
  await runner.sessions.appendEvent({
    session,
    event: createEvent({ author: 'user', invocationId: `p-${crypto.randomUUID()}`, actions: { stateDelta: delta } }),
  });
  return { status: 200, body: toAdkSession(session) };
};

// ADK's clients create sessions with no body at all, or with `{}`.
function optionalBody(context: AdkContext): Promise<unknown> {
  return declaresBody(context.req) ? context.body() : Promise.resolve(undefined);
}
