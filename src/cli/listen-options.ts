import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  resolveHttpTimeouts,
  type HttpTimeouts,
} from '../access/http-limits.js';
import { isLoopbackHost } from '../access/local-access.js';
import { UsageError } from '../contracts/errors/usage-error.js';

export type ListenOptions = { port: number; host: string; token: string | undefined };

/**
 * `--port`, `--host` and `--token` (or AGENTCTX_TOKEN) of a command that listens (`serve`, `web`), checked the same
 * way: a port from 0 to 65535, a non-empty token without spaces, and a token whenever the host reaches beyond
 * this machine. `service` names what listens, for the messages.
 */
export function listenOptions(
  values: { port?: string | undefined; host?: string | undefined; token?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
  defaults: { port: number; service: string },
): ListenOptions {
  const port = values.port === undefined ? defaults.port : /^\d+$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!(port >= 0 && port <= 65535))
    throw new UsageError(`--port must be a whole number from 0 to 65535, got '${values.port}'.`);
  const host = values.host ?? '127.0.0.1';
  const token = values.token ?? (env['AGENTCTX_TOKEN'] === '' ? undefined : env['AGENTCTX_TOKEN']);
  if (token !== undefined && token.trim() === '') throw new UsageError('--token is empty.', 'Pass a non-empty token.');
  // A bearer token travels as one word: one with spaces could never be sent.
  if (token !== undefined && /\s/.test(token))
    throw new UsageError(
      '--token contains white space, which no Authorization header can carry.',
      'Use a token without spaces (for example: openssl rand -hex 24).',
    );
  if (token === undefined && !isLoopbackHost(host)) {
    throw new UsageError(
      `--host ${host} reaches beyond this machine, so the ${defaults.service} needs a token.`,
      'Set AGENTCTX_TOKEN (or --token), or bind 127.0.0.1.',
    );
  }
  return { port, host, token };
}

/** Ports in use or refused become one-line usage errors; anything else stays as it is. */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE')
    return new UsageError(
      `Port ${port} on ${host} is already in use.`,
      'Stop what listens there, or pick another port with --port.',
    );
  if (code === 'EACCES')
    return new UsageError(
      `Not allowed to listen on port ${port} of ${host}.`,
      'Ports below 1024 need privileges; pick another with --port.',
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new UsageError(`Cannot bind ${host}: no such address on this machine.`, 'Check --host.');
  return error;
}

/** The help text of `--request-timeout` and `--headers-timeout`, the same for every command that listens. */
export const HTTP_TIMEOUT_HELP: string = `  --request-timeout <ms>
                     time a client has to send a whole request, headers and
                     body (default: ${DEFAULT_REQUEST_TIMEOUT_MS}; 408 past it)
  --headers-timeout <ms>
                     time a client has to send the headers (default: ${DEFAULT_HEADERS_TIMEOUT_MS},
                     or the request timeout if shorter; 408 past it)`;

/** `--request-timeout` and `--headers-timeout`: whole milliseconds from 1, the headers' no longer than the request's. */
export function httpTimeoutOptions(values: {
  'request-timeout'?: string | undefined;
  'headers-timeout'?: string | undefined;
}): HttpTimeouts {
  const requestTimeoutMs = milliseconds('--request-timeout', values['request-timeout'], 1);
  const headersTimeoutMs = milliseconds('--headers-timeout', values['headers-timeout'], 1);
  const timeouts = resolveHttpTimeouts({ requestTimeoutMs, headersTimeoutMs });
  if ('problem' in timeouts) {
    throw new UsageError(
      `--headers-timeout ${headersTimeoutMs} is longer than --request-timeout ${requestTimeoutMs}, which includes the headers.`,
      'Give the headers at most as long as the whole request.',
    );
  }
  return timeouts;
}

// The largest delay Node's timers take (2^31 - 1 ms, about 24.8 days).
const MAX_MS = 2_147_483_647;

/** A flag's value in whole milliseconds (`undefined` when the flag is absent), from `min` up to Node's longest timer. */
export function milliseconds(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!(ms >= min && ms <= MAX_MS))
    throw new UsageError(
      `${flag} must be a whole number of milliseconds from ${min} to ${MAX_MS}, got '${value}'.`,
      `For example ${flag} 30000 (30 seconds).`,
    );
  return ms;
}
