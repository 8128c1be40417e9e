import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** Bodies up to 1 MiB by default: messages and state, not uploads. */
export const DEFAULT_MAX_BODY_BYTES: number = 1024 * 1024;

// After refusing a body, the rest is read and dropped (so the client sees the 413 instead of a reset connection),
// but only up to this many times the limit; past that the connection is cut.
const DISCARD_FACTOR = 8;

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** Whether the request carries a body at all (HTTP/1.1: a length above 0, or a chunked transfer). */
export function declaresBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

/**
 * The rule for every request that may change state, checked on its headers before anything is read: a body, when
 * there is one, is JSON (415), and a method that takes one (`required`) has one (400 `missing_body`). A browser sends
 * a cross-origin request without asking first (a CORS "simple request") only without a body, or with a
 * `text/plain` or form body, so no such request can create, run or write anything here.
 */
export function checkBodyHeaders(req: IncomingMessage, required: boolean): void {
  const present = declaresBody(req);
  if (required && !present) throw missingBody(req);
  const type = req.headers['content-type'];
  if (present && (type === undefined || !JSON_TYPE.test(type))) {
    const what = type === undefined ? 'has no Content-Type' : `is ${type}`;
    throw new HttpError(415, 'unsupported_media_type', `The request body ${what}; this API reads JSON only.`, {
      hint: "Send it with Content-Type: application/json (curl: -H 'content-type: application/json').",
    });
  }
}

/**
 * Reads a JSON request body: 400 `missing_body` when there is none, 413 past `limit` bytes, 415 for a content type
 * that is not JSON, 400 for text that does not parse, 400 `incomplete_body` when the client leaves half-way. `cut`
 * stops the reading with its reason (a server shutting down).
 */
export async function readJsonBody(req: IncomingMessage, limit: number, cut?: AbortSignal): Promise<unknown> {
  checkBodyHeaders(req, true);
  const text = await readText(req, limit, cut);
  if (text.trim() === '') throw missingBody(req);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'bad_json', `The request body is not valid JSON: ${(error as Error).message}.`, {
      hint: 'Send one JSON object, e.g. {"message": "hello"}.',
    });
  }
}

function missingBody(req: IncomingMessage): HttpError {
  return new HttpError(
    400,
    'missing_body',
    `${req.method ?? 'This request'} here takes a JSON body, and the request has none.`,
    {
      hint: "Send a JSON object with Content-Type: application/json, {} for the defaults (curl: -H 'content-type: application/json' -d '{}').",
    },
  );
}

function readText(req: IncomingMessage, limit: number, cut: AbortSignal | undefined): Promise<string> {
  const tooLarge = () =>
    new HttpError(413, 'body_too_large', `The request body is larger than the server's limit of ${limit} bytes.`, {
      hint: 'Send a smaller body; the limit is set with maxBodyBytes.',
    });
  const incomplete = () =>
    new HttpError(400, 'incomplete_body', 'The connection closed before the request body was complete.');
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    if (Number.isFinite(declared) && declared > limit) {
      discard(req, limit);
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      discard(req, limit, size);
      reject(tooLarge());
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    // The client went away before sending the whole body (Node reports it as an `aborted` error, then a close): a
    // refusal, not a bug, answered if the socket can still carry it.
    const onGone = () => {
      cleanup();
      req.on('error', () => undefined);
      reject(incomplete());
    };
    const onCut = () => {
      cleanup();
      req.on('error', () => undefined);
      reject(cut?.reason);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
      cut?.removeEventListener('abort', onCut);
    };
    if (cut?.aborted === true) {
      reject(cut.reason);
      return;
    }
    // Node destroys a request whose connection closed before its body was complete, at once and for good.
    if (req.destroyed) {
      reject(incomplete());
      return;
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
    cut?.addEventListener('abort', onCut, { once: true });
  });
}

function discard(req: IncomingMessage, limit: number, alreadyRead = 0): void {
  let size = alreadyRead;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit * DISCARD_FACTOR) req.socket.destroy();
  });
  req.on('error', () => undefined);
}
