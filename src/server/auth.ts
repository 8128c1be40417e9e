import { bearerCheck, isLoopbackHostHeader } from '../access/local-access.js';
import { HttpError } from './http-error.js';

export { isLoopbackHost } from '../access/local-access.js';

/** Checks `Authorization: Bearer <token>` (in constant time), throwing a 401 that says what to send. */
export function createTokenCheck(token: string): (authorization: string | undefined) => void {
  const matches = bearerCheck(token);
  return (authorization) => {
    if (matches(authorization)) return;
    throw new HttpError(
      401,
      'unauthorized',
      authorization === undefined
        ? 'This server needs a token: the request has no Authorization header.'
        : 'The bearer token is wrong or malformed.',
      {
        hint: 'Send Authorization: Bearer <token>, with the token the server was started with (--token or AGENTCTX_TOKEN).',
        headers: { 'www-authenticate': 'Bearer' },
      },
    );
  };
}

/** Without a token, only requests addressed to a loopback name are answered (see `isLoopbackHostHeader`). */
export function checkLoopbackHost(host: string | undefined): void {
  if (isLoopbackHostHeader(host)) return;
  throw new HttpError(
    403,
    'forbidden_host',
    `This server has no token, so it answers only requests addressed to a loopback name, not to ${host}.`,
    {
      hint: 'Use http://127.0.0.1:<port> or http://localhost:<port>; to serve other names, start it with a token.',
    },
  );
}
