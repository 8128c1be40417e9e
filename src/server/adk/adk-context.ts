import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import type { Model } from '../../contracts/model.js';
import type { Session, SessionKey } from '../../contracts/session.js';
import type { Runner } from '../../engine/runner/runner.js';
import type { HostRequest } from '../http-host.js';
import type { Reply } from '../route-context.js';
import type { EvalFiles } from './eval-files.js';
import type { SessionNotes } from './session-notes.js';

/** What an ADK route handler gets: the request, its path parameters, and every app served. */
export type AdkContext = HostRequest & {
  params: Readonly<Record<string, string>>;
  /** The runners served, by app name (each runner's root agent). */
  apps: ReadonlyMap<string, Runner>;
  /** What `GET /version` answers. */
  version: string;
  /** Sessions this server has answered for (ADK's trace routes name only the id). */
  seen: SessionNotes;
  /** A link to a recorded call in agentctx's inspector, when one is served. */
  inspectorLink: ((key: SessionKey, call: number) => string) | undefined;
  /** Where eval sets and their results are kept; undefined when the server was given no `evalDir`. */
  evals: EvalFiles | undefined;
  /** The judge of the LLM-judged metrics of eval runs; none offered without it. */
  judge: Model | undefined;
};

export type AdkHandler = (context: AdkContext) => Promise<Reply | undefined>;

/** The runner of the app a path or body names; 404 `App not found: <name>` otherwise. */
export function appRunner(context: AdkContext, name: string = context.params['app'] ?? ''): Runner {
  const runner = context.apps.get(name);
  if (runner === undefined) {
    throw new NotFoundError({
      resource: 'app',
      id: name,
      message: `App not found: ${name}`,
      hint: `This server serves ${[...context.apps.keys()].join(', ')}; GET /list-apps lists them.`,
    });
  }
  return runner;
}

/** The session a path names, loaded; 404 `Session not found: <id>` (ADK's message) otherwise. */
export async function pathSession(
  context: AdkContext,
  window: { numRecentEvents?: number } = {},
): Promise<{ runner: Runner; session: Session }> {
  const runner = appRunner(context);
  const key = {
    appName: runner.appName,
    userId: context.params['user'] ?? '',
    sessionId: context.params['session'] ?? '',
  };
  const session = await runner.sessions.getSession({ ...key, ...window });
  if (session === undefined) throw sessionNotFound(key.sessionId);
  noteSession(context, key);
  return { runner, session };
}

/** Remembers a session answered for, so the trace routes can find it by id: only one that exists. */
export function noteSession(context: AdkContext, key: SessionKey): void {
  context.seen.note(key);
}

export function sessionNotFound(sessionId: string): NotFoundError {
  return new NotFoundError({
    resource: 'session',
    id: sessionId,
    message: `Session not found: ${sessionId}`,
    hint: 'Create it with POST /apps/{app}/users/{user}/sessions/{id}.',
  });
}

/** Query parameters a route does not take are ignored, as ADK's servers ignore them; this reads a whole number. */
export function queryNumber(context: AdkContext, name: string): number | undefined {
  const text = context.url.searchParams.get(name);
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : Number.NaN;
}
