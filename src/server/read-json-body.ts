import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** Bodies up to 1 MiB by default: messages and state, not uploads. */
export const DEFAULT_MAX_BODY_BYTES: number = 1024 * 1024;

// After refusing a body, the rest is read and dropped (so the client sees the 413 instead of a reset connection),
// but only up to this many times the limit; past that the connection is cut.
const DISCARD_FACTOR = 8;

/**
 * Reads a JSON request body: `undefined` when there is none, 413 past `limit` bytes, 415 for a content type that
 * is not JSON, 400 for text that does not parse.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await readText(req, limit);
  if (text.trim() === '') return undefined;
  // Only JSON: a browser cannot send it to another site without asking first (CORS), so a web page cannot make a
  // local server run a turn (text/plain and form bodies need no such question).
  const type = req.headers['content-type'];
  if (type === undefined || !/^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i.test(type)) {
    const what = type === undefined ? 'has no Content-Type' : `is ${type}`;
    throw new HttpError(415, 'unsupported_media_type', `The request body ${what}; this API reads JSON only.`, {
      hint: "Send it with Content-Type: application/json (curl: -H 'content-type: application/json').",
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'bad_json', `The request body is not valid JSON: ${(error as Error).message}.`, { hint: 'Send one JSON object, e.g. {"message": "hello"}.' });
  }
}

function readText(req: IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () =>
    new HttpError(413, 'body_too_large', `The request body is larger than the server's limit of ${limit} bytes.`, { hint: 'Send a smaller body; the limit is set with maxBodyBytes.' });
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
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // The client went away before sending the whole body: nobody is left to answer.
    const onClose = () => {
      cleanup();
      if (!req.complete) reject(new HttpError(400, 'incomplete_body', 'The connection closed before the request body was complete.'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
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
