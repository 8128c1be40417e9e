import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from './http-error.js';

/**
 * Checks `Authorization: Bearer <token>` in constant time: both sides are hashed first, so neither the token's
 * characters nor its length show in how long a refusal takes.
 */
export function createTokenCheck(token: string): (authorization: string | undefined) => void {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const matches = timingSafeEqual(digest(match?.[1] ?? ''), expected);
    if (match !== null && matches) return;
    throw new HttpError(401, 'unauthorized', authorization === undefined ? 'This server needs a token: the request has no Authorization header.' : 'The bearer token is wrong or malformed.', {
      hint: 'Send Authorization: Bearer <token>, with the token the server was started with (--token or AGENTCTX_TOKEN).',
      headers: { 'www-authenticate': 'Bearer' },
    });
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether binding `host` keeps the server on this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Without a token the server trusts whoever reaches it, which only loopback can; a web page that rebinds its own
 * domain name to 127.0.0.1 (DNS rebinding) still sends its domain as `Host`, and is refused here.
 */
export function checkLoopbackHost(host: string | undefined): void {
  if (host === undefined) return;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    hostname = host;
  }
  if (isLoopbackHost(hostname)) return;
  throw new HttpError(403, 'forbidden_host', `This server has no token, so it answers only requests addressed to a loopback name, not to ${host}.`, {
    hint: 'Use http://127.0.0.1:<port> or http://localhost:<port>; to serve other names, start it with a token.',
  });
}
