import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Artifact } from '../contracts/artifact.js';
import type { Runner } from '../engine/runner/runner.js';

/** Turns running in this process: one per session at a time, each abortable. */
export type Turns = {
  /** Keys of sessions with a turn in flight. */
  readonly busy: Set<string>;
  readonly controllers: Set<AbortController>;
};

/** What every session created through the API starts with (`agentctx serve --state --artifact`). */
export type NewSessionDefaults = {
  /** State values (scoped keys included) under the request's own `state`, which wins. */
  readonly state?: Readonly<Record<string, unknown>> | undefined;
  /** Artifacts saved into each new session (a `user:` name once per user, as a new version). */
  readonly artifacts?: readonly { readonly name: string; readonly artifact: Artifact }[] | undefined;
};

/** What a route handler gets: the request, its path parameters, and the server's runner. */
export type RouteContext = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Decoded path parameters: `app`, `user`, `session`, `call`, `artifact`. */
  params: Readonly<Record<string, string>>;
  runner: Runner;
  newSessions: NewSessionDefaults | undefined;
  /** Reads and parses the JSON body (once). */
  body(): Promise<unknown>;
  turns: Turns;
  heartbeatMs: number;
  /** Logs an error that is a bug rather than a refusal. */
  reportError(error: unknown): void;
};

/** A JSON answer; a handler that wrote its own response (the event stream) returns `undefined`. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

export type Handler = (context: RouteContext) => Promise<Reply | undefined>;

/** The session a route names, as the store's key. */
export function sessionKey(context: RouteContext): { appName: string; userId: string; sessionId: string } {
  return {
    appName: context.runner.appName,
    userId: context.params['user'] ?? '',
    sessionId: context.params['session'] ?? '',
  };
}
