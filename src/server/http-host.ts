import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { clientErrorAnswers, nodeServerTimeouts, resolveHttpTimeouts } from '../access/http-limits.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import { checkLoopbackHost, createTokenCheck, isLoopbackHost } from './auth.js';
import { checkCrossSite } from './cross-site.js';
import { errorReply, HttpError, sendJson, type ErrorReply } from './http-error.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';
import type { Reply, Turns } from './route-context.js';
import { requestUrl } from './routes.js';
import { DEFAULT_HEARTBEAT_MS } from './sse-stream.js';

/** How long a request still sending its body when the server starts closing may take to finish it. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;

/** What every protocol's server takes besides what it serves. */
export type HostSettings = {
  /** When set, every request needs `Authorization: Bearer <token>`; required to listen beyond loopback. */
  token?: string | undefined;
  /** Largest request body accepted, in bytes (413 past it). Default 1 MiB. */
  maxBodyBytes?: number;
  /** How often an event stream sends a `: ping` comment while a turn is quiet. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Time a client has to send a request's headers, from its first byte (408 past it). Default 10 000 ms. */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send a whole request, headers and body (408 past it). Default 30 000 ms. A turn's event
   * stream is not limited by it: the stream starts once the request is in.
   */
  requestTimeoutMs?: number;
  /**
   * On `close()`, how long a request still sending its body may take to finish it; past it the request is answered
   * 503 and its connection closed, so a stalled upload cannot hold a shutdown. Default 5 000 ms.
   */
  shutdownGraceMs?: number;
  /**
   * Origins whose web pages may send requests that change something (`https://app.example`; `*` for any). By default
   * none: such a request from a page of another origin is refused with 403 `cross_site_request` (cross-site.ts).
   */
  allowedOrigins?: readonly string[];
  /** Where errors that are bugs (answered 500 without details) are reported. Default `console.error`. */
  onError?: (error: unknown) => void;
};

export type ServerAddress = { host: string; port: number; url: string };

/** An HTTP server over runners. Holds nothing between requests: any number of them can share one database. */
export type AgentctxServer = {
  /** Starts listening; `host` defaults to 127.0.0.1, and any other than loopback needs a token. Port 0 picks a free one. */
  listen(port?: number, host?: string): Promise<ServerAddress>;
  /**
   * Graceful stop: new requests get 503 while the requests in flight (running turns included) finish, then the
   * port closes and the promise resolves. Calling it again returns the same promise.
   */
  close(): Promise<void>;
  /** Aborts every running turn (each ends as its runner handles an abort); for a second Ctrl-C. */
  abortTurns(): void;
  /** Requests being answered now. */
  readonly activeRequests: number;
  /** The underlying `node:http` server, e.g. to read its address or tune timeouts. */
  readonly httpServer: Server;
};

/** One request as a protocol sees it, with what the host keeps for every request. */
export type HostRequest = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Reads and parses the JSON body (once). */
  body(): Promise<unknown>;
  turns: Turns;
  heartbeatMs: number;
  reportError(error: unknown): void;
};

/** What a protocol adds to the host: how it answers a request, and how it spells an error. */
export type Protocol = {
  dispatch(request: HostRequest): Promise<Reply | undefined>;
  /** The JSON an error is answered with; agentctx's own `{ error: { code, message, hint } }` by default. */
  errorBody?(reply: ErrorReply): unknown;
};

/**
 * The HTTP server every protocol shares: loopback or a bearer token, header and request timeouts, JSON errors
 * (never a 500 for what a client can send), and a graceful close that waits for running turns.
 */
export function createHttpHost(settings: HostSettings, protocol: Protocol): AgentctxServer {
  if (settings.token !== undefined && settings.token.trim() === '')
    throw new UsageError('The server token is empty.', 'Pass a non-empty token, or none.');
  const timeouts = resolveHttpTimeouts(settings);
  if ('problem' in timeouts) throw new UsageError(`The server's ${timeouts.problem}.`, 'Leave it out for the default.');
  const shutdownGraceMs = settings.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  if (!(Number.isInteger(shutdownGraceMs) && shutdownGraceMs >= 0))
    throw new UsageError(
      `shutdownGraceMs must be a whole number of milliseconds from 0, got ${String(shutdownGraceMs)}.`,
    );
  const checkToken = settings.token === undefined ? undefined : createTokenCheck(settings.token);
  const maxBodyBytes = settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const heartbeatMs = settings.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const allowedOrigins = settings.allowedOrigins ?? [];
  const reportError =
    settings.onError ?? ((error: unknown) => console.error('agentctx server: unexpected error:', error));
  const errorBody = protocol.errorBody ?? ((reply: ErrorReply) => reply.body);
  const turns: Turns = { busy: new Set(), controllers: new Set() };
  // Requests whose handler has not returned, each with the switch that stops reading its body at shutdown.
  const inFlight = new Set<{ req: IncomingMessage; cut: AbortController }>();
  let active = 0;
  let closing: Promise<void> | undefined;
  let drained: (() => void) | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse, cut: AbortSignal): Promise<void> => {
    try {
      if (closing !== undefined) {
        throw new HttpError(503, 'shutting_down', 'The server is shutting down and takes no new requests.', {
          hint: 'Retry against another instance, or once it is back.',
          headers: { connection: 'close', 'retry-after': '5' },
        });
      }
      if (checkToken === undefined) checkLoopbackHost(req.headers.host);
      else checkToken(req.headers.authorization);
      checkCrossSite(req, allowedOrigins);
      const url = requestUrl(req.url ?? '/');
      let body: Promise<unknown> | undefined;
      const reply = await protocol.dispatch({
        req,
        res,
        url,
        turns,
        heartbeatMs,
        reportError,
        body: () => (body ??= readJsonBody(req, maxBodyBytes, cut)),
      });
      if (reply !== undefined) sendJson(res, reply.status, reply.body, reply.headers);
    } catch (error) {
      const reply = errorReply(error);
      if (reply.unexpected) reportError(error);
      // A client that left (or whose socket was closed for it) gets no answer: there is no one to read it.
      if (res.headersSent || res.socket === null || !res.socket.writable) res.destroy();
      else sendJson(res, reply.status, errorBody(reply), reply.headers);
    }
  };

  // A request is in flight until its response is closed and its handler has returned: a turn whose client left
  // goes on (aborted) until the runner has stored its last event, and the store must stay open until then.
  const answers = clientErrorAnswers(timeouts);
  const httpServer = createHttpServer(nodeServerTimeouts(timeouts), (req, res) => {
    active += 1;
    const entry = { req, cut: new AbortController() };
    inFlight.add(entry);
    let pending = 2;
    const settle = () => {
      pending -= 1;
      if (pending > 0) return;
      active -= 1;
      if (active === 0) drained?.();
    };
    res.once('close', settle);
    answers.track(req.socket, res);
    void handle(req, res, entry.cut.signal).finally(() => {
      inFlight.delete(entry);
      settle();
    });
  });
  // Requests that Node's parser gives up on (timed out, cut off, not HTTP) are answered with a JSON error, quietly.
  httpServer.on('clientError', answers.onClientError);

  return {
    httpServer,
    get activeRequests() {
      return active;
    },
    listen(port = 8080, host = '127.0.0.1') {
      if (checkToken === undefined && !isLoopbackHost(host)) {
        return Promise.reject(
          new UsageError(
            `Listening on ${host} without a token would let anyone who can reach it run the agent.`,
            'Set a token (--token or AGENTCTX_TOKEN), or bind 127.0.0.1.',
          ),
        );
      }
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address();
          const bound = typeof address === 'object' && address !== null ? address.port : port;
          const shown = host.includes(':') ? `[${host}]` : host;
          resolve({ host, port: bound, url: `http://${shown}:${bound}` });
        });
      });
    },
    close() {
      closing ??= (async () => {
        // Uploads still under way get a grace period; running turns are waited for (abortTurns stops them).
        const grace = setTimeout(() => {
          for (const { req, cut } of inFlight) if (!req.complete) cut.abort(uploadCutOff(shutdownGraceMs));
        }, shutdownGraceMs);
        grace.unref();
        if (active > 0) await new Promise<void>((resolve) => (drained = resolve));
        clearTimeout(grace);
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections();
        });
      })();
      return closing;
    },
    abortTurns() {
      for (const controller of turns.controllers) controller.abort(new Error('The server is shutting down.'));
    },
  };
}

function uploadCutOff(graceMs: number): HttpError {
  return new HttpError(
    503,
    'shutting_down',
    `The server is shutting down, and the request body did not arrive within ${graceMs} ms of it.`,
    {
      hint: 'Retry against another instance, or once it is back.',
      headers: { connection: 'close', 'retry-after': '5' },
    },
  );
}
