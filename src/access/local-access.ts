import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Who may use a local HTTP service (the API server, the inspector): with a token, whoever sends it; without one, only
 * this machine. Shared by both, so their rules cannot drift apart.
 */

/**
 * A check of `Authorization: Bearer <token>` in constant time: both sides are hashed first, so neither the token's
 * characters nor its length show in how long a refusal takes.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const matches = timingSafeEqual(digest(match?.[1] ?? ''), expected);
    return match !== null && matches;
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether `host` (a name or address, without port) stays on this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Whether a request's `Host` header names this machine. Without a token a service trusts whoever reaches it, which
 * only loopback can; a web page that rebinds its own domain name to 127.0.0.1 (DNS rebinding) still sends its
 * domain as `Host`, and fails this. A request without the header (HTTP/1.0) passes.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (host === undefined) return true;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    hostname = host;
  }
  return isLoopbackHost(hostname);
}
