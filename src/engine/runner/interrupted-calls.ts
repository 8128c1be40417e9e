import type { Content, FunctionCall } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import type { Session } from '../../contracts/session.js';
import { createEvent } from '../session/create-event.js';
import type { Invocation } from './invocation.js';
import { UNANSWERED_CALLS, type UnansweredCalls } from './unanswered-calls.js';

/**
 * The result recorded for a function call whose run stopped before the tool returned (a crash, a kill, a result that
 * could not be stored). It starts with `interrupted:` so code can tell it from a tool's own error, and it tells the
 * model what it can and cannot assume.
 */
export const INTERRUPTED_CALL_ERROR =
  'interrupted: the run that made this call stopped before the tool returned, so its result is lost and it is unknown whether the tool did anything. Check before repeating an action with side effects; call the tool again if you still need its result.';

/**
 * The invocations running in this process, by session: their calls are in flight, never interrupted. Shared by every
 * runner of the process, so two runners on one store never answer each other's calls. Invocations that ended here are
 * remembered too (the latest {@link ENDED_KEPT}): a call of one of those is interrupted whatever its age.
 */
const running = new Map<string, number>();
const ended = new Set<string>();
const ENDED_KEPT = 1000;

function runningKey(session: Pick<Session, 'appName' | 'userId' | 'id'>, invocationId: string): string {
  return JSON.stringify([session.appName, session.userId, session.id, invocationId]);
}

/** Notes an invocation as running in this process until the returned function is called. */
export function markRunning(session: Pick<Session, 'appName' | 'userId' | 'id'>, invocationId: string): () => void {
  const key = runningKey(session, invocationId);
  running.set(key, (running.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const count = (running.get(key) ?? 1) - 1;
    if (count > 0) {
      running.set(key, count);
      return;
    }
    running.delete(key);
    ended.add(key);
    if (ended.size > ENDED_KEPT) ended.delete(ended.values().next().value as string);
  };
}

/** By default, a call another process made is presumed running for this long when no tool time limit bounds it. */
export const DEFAULT_INTERRUPTED_AFTER_MS = 60_000;

/**
 * How long a call of another process must have waited for its response before this run calls it interrupted, in ms:
 * the runner's `interruptedAfterMs` when given; else past its `toolTimeoutMs` and a second for the write (a live run
 * with the same limit would have answered by then); else {@link DEFAULT_INTERRUPTED_AFTER_MS}.
 */
export function interruptedAfterMs(settings: {
  interruptedAfterMs?: number | undefined;
  toolTimeoutMs?: number | undefined;
}): number {
  if (settings.interruptedAfterMs !== undefined) return settings.interruptedAfterMs;
  return settings.toolTimeoutMs === undefined ? DEFAULT_INTERRUPTED_AFTER_MS : settings.toolTimeoutMs + 1000;
}

/**
 * The unanswered calls this run may answer as interrupted: not of an invocation running in this process, and either
 * of one that ended in this process or made at least {@link interruptedAfterMs} ago by the runner's clock (younger
 * calls of other processes may still be running; until they are answered, requests show them as interrupted).
 */
export function interruptedCalls(invocation: Invocation, answered: ReadonlySet<string>): UnansweredCalls[] {
  const { session, settings } = invocation;
  const quiet = interruptedAfterMs(settings);
  const now = settings.now();
  return invocation.memo
    .get(UNANSWERED_CALLS)
    .find(session.events, answered)
    .filter(({ event }) => {
      const key = runningKey(session, event.invocationId);
      if (running.has(key)) return false;
      return ended.has(key) || quiet === 0 || (now - event.timestamp) * 1000 >= quiet;
    });
}

/** The event that answers interrupted calls: by the agent that made them, on its branch, in its invocation. */
export function interruptedResponse(
  unanswered: UnansweredCalls,
  clock: { now: () => number; newId: () => string },
): Event {
  const { event, calls } = unanswered;
  const content: Content = {
    role: 'user',
    parts: calls.map((call) => ({
      functionResponse: { id: call.id as string, name: call.name, response: { error: INTERRUPTED_CALL_ERROR } },
    })),
  };
  return createEvent(
    {
      author: event.author,
      invocationId: event.invocationId,
      ...(event.branch === undefined ? {} : { branch: event.branch }),
      content,
    },
    clock,
  );
}

/** Thrown by a retried write that finds, in the session as it now is, nothing left to answer. */
class NothingLeft extends Error {}

/**
 * Answers, before the run's first event is stored, every call an earlier run left without a response and that is no
 * longer running: one event per model event, only for the calls still missing. On a conflict the session is reloaded
 * and what is missing worked out again, so a call answered meanwhile (by its own run, or by another process recovering
 * it) is never answered twice. Returns the stored events, oldest first.
 */
export async function answerInterruptedCalls(invocation: Invocation, incoming: Content | undefined): Promise<Event[]> {
  const answered = new Set(
    (incoming?.parts ?? []).flatMap((part) =>
      'functionResponse' in part && part.functionResponse.id !== undefined ? [part.functionResponse.id] : [],
    ),
  );
  const clock = { now: invocation.settings.now, newId: invocation.settings.newId };
  const stored: Event[] = [];
  for (;;) {
    const next = interruptedCalls(invocation, answered)[0];
    if (next === undefined) return stored;
    const remake = async () => {
      const again = interruptedCalls(invocation, answered).find((candidate) => candidate.event.id === next.event.id);
      if (again === undefined) throw new NothingLeft();
      return interruptedResponse(again, clock);
    };
    try {
      stored.push(await invocation.persist(interruptedResponse(next, clock), remake));
    } catch (error) {
      if (!(error instanceof NothingLeft)) throw error;
    }
  }
}

/**
 * The calls of a model event that nothing after it in the session answers: all of them, unless another run answered
 * some (recording them as interrupted) while they ran here.
 */
export function stillOpen(
  calls: readonly FunctionCall[],
  events: readonly Event[],
  modelEventId: string,
): FunctionCall[] {
  const answered = new Set<string>();
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.id === modelEventId) break;
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part && part.functionResponse.id !== undefined) answered.add(part.functionResponse.id);
  }
  return answered.size === 0 ? [...calls] : calls.filter((call) => call.id === undefined || !answered.has(call.id));
}
