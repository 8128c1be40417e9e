import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/**
 * Refuses a request that may change state (anything but GET, HEAD and OPTIONS) when a browser sent it for a page of
 * another origin: an `Origin` header that is not this server's own (`http(s)://<Host>`), or `Sec-Fetch-Site` saying
 * `cross-site` or `same-site` (a page on another port of the same host). A page can send a bodyless POST without
 * asking first (a CORS "simple request"), and ADK's protocol creates a session from one, so the body rules alone
 * do not stop it. Clients that are not browsers send neither header and pass; `allowedOrigins` lets the pages of
 * the origins it names through (`*`: every origin).
 */
export function checkCrossSite(req: IncomingMessage, allowedOrigins: readonly string[]): void {
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
  if (allowedOrigins.includes('*')) return;
  const origin = header(req, 'origin');
  const site = header(req, 'sec-fetch-site');
  if (origin !== undefined && allowedOrigins.includes(origin)) return;
  const foreignOrigin = origin !== undefined && !sameOrigin(origin, header(req, 'host'));
  const foreignSite = site === 'cross-site' || site === 'same-site';
  if (!foreignOrigin && !foreignSite) return;
  const from = origin === undefined ? `a page of another site (Sec-Fetch-Site: ${site ?? ''})` : `a page of ${origin}`;
  throw new HttpError(
    403,
    'cross_site_request',
    `${method} ${cutPath(req.url)} came from ${from}, and this server takes no request that changes anything from another origin's pages.`,
    {
      hint: "To let a web app of your own call it, name its origin: createServer({ allowedOrigins: ['https://app.example'] }) or agentctx serve --allow-origin https://app.example.",
    },
  );
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether an `Origin` header names this server, as its `Host` header does: scheme and host, the port included. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file), or garbage.
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  try {
    return url.host === new URL(`${url.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

const cutPath = (path: string | undefined): string => {
  const text = (path ?? '/').split('?')[0] ?? '/';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};
