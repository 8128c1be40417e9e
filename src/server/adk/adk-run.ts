import type { Event } from '../../contracts/event.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import type { Runner } from '../../engine/runner/runner.js';
import { errorReply, HttpError } from '../http-error.js';
import { SseStream } from '../sse-stream.js';
import { toAdkEvent } from './adk-json.js';
import { readAdkRunBody, type AdkRunBody } from './adk-input.js';
import { adkErrorMessage } from './adk-errors.js';
import { appRunner, noteSession, sessionNotFound, type AdkContext, type AdkHandler } from './adk-context.js';

/** `POST /run` → every event of the turn, as one JSON list (streamed pieces left out). */
export const runAdk: AdkHandler = async (context) => {
  const body = readAdkRunBody(await context.body());
  const events: unknown[] = [];
  await withTurn(context, body, async (turn) => {
    for (let step = await turn.first(); step.done !== true; step = await turn.next())
      if (answers(step.value, false)) events.push(toAdkEvent(step.value));
  });
  return { status: 200, body: events };
};

/**
 * `POST /run_sse` → `text/event-stream` with one `data: <event JSON>` per event, as ADK's servers send them: no event
 * names, no end marker. Streamed pieces (`partial: true`, never stored) only when the request asks for `streaming`.
 * A failure before the first event is a JSON error; one after it is a last `data: {"error": …}`.
 */
export const runAdkSse: AdkHandler = async (context) => {
  const body = readAdkRunBody(await context.body());
  await withTurn(context, body, async (turn) => {
    let step = await turn.first();
    const stream = new SseStream(context.res, context.heartbeatMs);
    try {
      for (; step.done !== true; step = await turn.next()) {
        if (answers(step.value, body.streaming)) await stream.data(toAdkEvent(step.value));
      }
    } catch (error) {
      const reply = errorReply(error);
      if (reply.unexpected) context.reportError(error);
      await stream.data({ error: adkErrorMessage(reply) });
    } finally {
      stream.end();
    }
  });
  return undefined;
};

// What ADK's servers send of a turn: the agents' events, not the user's own message (which is stored all the same),
// and streamed pieces only when asked for.
function answers(event: Event, streaming: boolean): boolean {
  return event.author !== 'user' && (event.partial !== true || streaming);
}

type Turn = { first(): Promise<IteratorResult<Event>>; next(): Promise<IteratorResult<Event>> };

// One turn of a session at a time on this server, aborted when its client goes away.
async function withTurn(context: AdkContext, body: AdkRunBody, use: (turn: Turn) => Promise<void>): Promise<void> {
  const runner = appRunner(context, body.appName);
  const key = { appName: runner.appName, userId: body.userId, sessionId: body.sessionId };
  if (body.newMessage === undefined) {
    // ADK answers a run without a message with no events; the session must still exist.
    if ((await runner.sessions.getSession({ ...key, numRecentEvents: 0 })) === undefined)
      throw sessionNotFound(key.sessionId);
    noteSession(context, key);
    return use({
      first: async () => ({ done: true, value: undefined }),
      next: async () => ({ done: true, value: undefined }),
    });
  }
  const busyKey = JSON.stringify([key.appName, key.userId, key.sessionId]);
  if (context.turns.busy.has(busyKey)) {
    throw new HttpError(409, 'session_busy', `Session ${key.sessionId} is already running a turn on this server.`, {
      hint: 'Send the next message once the running turn has answered.',
    });
  }
  const controller = new AbortController();
  const abortOnDisconnect = () => {
    if (!context.res.writableEnded) controller.abort(new Error('The client disconnected.'));
  };
  context.turns.busy.add(busyKey);
  context.turns.controllers.add(controller);
  context.res.on('close', abortOnDisconnect);
  try {
    const events = startTurn(runner, body, controller.signal);
    await use({
      // The runner checks the session and the models before it writes anything: those failures are plain errors.
      first: async () => {
        try {
          const first = await events.next();
          // Noted only now that the runner has found the session: a request naming a missing one notes nothing.
          noteSession(context, key);
          return first;
        } catch (error) {
          throw error instanceof NotFoundError && error.resource === 'session' ? sessionNotFound(key.sessionId) : error;
        }
      },
      next: () => events.next(),
    });
  } finally {
    context.res.off('close', abortOnDisconnect);
    context.turns.controllers.delete(controller);
    context.turns.busy.delete(busyKey);
  }
}

function startTurn(runner: Runner, body: AdkRunBody, signal: AbortSignal): AsyncGenerator<Event> {
  return runner.run({
    userId: body.userId,
    sessionId: body.sessionId,
    message: body.newMessage ?? '',
    ...(body.stateDelta === undefined ? {} : { stateDelta: body.stateDelta }),
    signal,
  });
}
