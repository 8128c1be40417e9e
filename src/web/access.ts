import { bearerCheck, isLoopbackHostHeader } from '../access/local-access.js';

export { isLoopbackHost } from '../access/local-access.js';

/** Why a request was refused: the status, a stable code and a sentence that says what to do. */
export type Refusal = { status: 401 | 403; code: string; message: string; headers?: Record<string, string> };

/** Checks `Authorization: Bearer <token>` (in constant time): the refusal, or `undefined` when the token matches. */
export function createTokenCheck(token: string): (authorization: string | undefined) => Refusal | undefined {
  const matches = bearerCheck(token);
  return (authorization) => {
    if (matches(authorization)) return undefined;
    return {
      status: 401,
      code: 'unauthorized',
      message:
        authorization === undefined
          ? 'This inspector needs a token: the request has no Authorization header. Enter the token the inspector was started with (--token or AGENTCTX_TOKEN).'
          : 'The bearer token is wrong or malformed.',
      headers: { 'www-authenticate': 'Bearer' },
    };
  };
}

/** Without a token, only requests addressed to a loopback name are answered (see `isLoopbackHostHeader`). */
export function checkLoopbackHostHeader(host: string | undefined): Refusal | undefined {
  if (isLoopbackHostHeader(host)) return undefined;
  return {
    status: 403,
    code: 'forbidden_host',
    message: `This inspector has no token, so it answers only requests addressed to a loopback name, not to ${host}. Use http://127.0.0.1:<port>, or start it with a token.`,
  };
}
