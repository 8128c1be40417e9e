import { NotFoundError } from '../contracts/errors/not-found-error.js';
import type { Event } from '../contracts/event.js';
import { eventJsonText } from '../engine/session/session-json.js';
import { errorReply, HttpError } from './http-error.js';
import { readQuery, readRunBody } from './request-input.js';
import { sessionKey, type Handler } from './route-context.js';
import { sessionNotFound } from './session-handlers.js';
import { SseStream } from './sse-stream.js';

/**
 * `POST …/sessions/{id}/run` → `text/event-stream`: `event: event` with each event as the runner stores and yields
 * it (`event: partial` for streamed text, never stored), then `event: done` with `{ events: n }`. A failure before
 * the first event (no such session, a bad body) is a JSON error instead; one after it is `event: error`. The client
 * going away aborts the turn.
 */
export const runTurn: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const body = readRunBody(await context.body());
  const key = sessionKey(context);
  const busyKey = JSON.stringify([key.userId, key.sessionId]);
  if (context.turns.busy.has(busyKey)) {
    throw new HttpError(409, 'session_busy', `Session ${key.sessionId} is already running a turn on this server.`, {
      hint: 'Send the next message after the running turn’s stream has ended (event: done).',
    });
  }
  const { res, turns } = context;
  const controller = new AbortController();
  const abortOnDisconnect = () => {
    if (!res.writableEnded) controller.abort(new Error('The client disconnected.'));
  };
  turns.busy.add(busyKey);
  turns.controllers.add(controller);
  res.on('close', abortOnDisconnect);
  try {
    const events = context.runner.run({
      userId: key.userId,
      sessionId: key.sessionId,
      ...body,
      signal: controller.signal,
    });
    let step: IteratorResult<Event>;
    try {
      // The runner checks the session and the models before it writes anything: those failures are plain errors.
      step = await events.next();
    } catch (error) {
      throw error instanceof NotFoundError && error.resource === 'session' ? sessionNotFound(key) : error;
    }
    const stream = new SseStream(res, context.heartbeatMs);
    let count = 0;
    try {
      for (; step.done !== true; step = await events.next()) {
        const event = step.value;
        if (event.partial === true) {
          await stream.sendText('partial', eventJsonText(event));
        } else {
          count += 1;
          // The text the store wrote, not made again per event.
          await stream.sendText('event', eventJsonText(event));
        }
      }
      stream.finish('done', { events: count });
    } catch (error) {
      const reply = errorReply(error);
      if (reply.unexpected) context.reportError(error);
      await stream.send('error', reply.body);
    } finally {
      stream.end();
    }
    return undefined;
  } finally {
    res.off('close', abortOnDisconnect);
    turns.controllers.delete(controller);
    turns.busy.delete(busyKey);
  }
};
