import type { ServerResponse } from 'node:http';

/** A comment line every 15 s keeps proxies from closing a stream while a model or a tool takes its time. */
export const DEFAULT_HEARTBEAT_MS: number = 15_000;

/**
 * A `text/event-stream` response: `event: <name>` and one `data:` line of JSON per message. Writes wait for the
 * socket to drain, so a slow reader slows the turn instead of filling memory; after the client is gone, writes
 * are dropped.
 */
export class SseStream {
  readonly #res: ServerResponse;
  readonly #heartbeat: ReturnType<typeof setInterval>;

  constructor(res: ServerResponse, heartbeatMs: number) {
    this.#res = res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // Tells nginx-style proxies not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    // No flushHeaders(): callers open the stream with its first message ready, and the head goes out with it in one
    // write (each socket write is a large part of a turn's cost).
    this.#heartbeat = setInterval(() => this.#write(': ping\n\n'), heartbeatMs);
    this.#heartbeat.unref();
  }

  /** False once the client has gone away. */
  get open(): boolean {
    return !this.#res.destroyed && !this.#res.writableEnded;
  }

  /** Sends one message; JSON text has no line breaks, so `data` is one line. */
  send(event: string, data: unknown): Promise<void> {
    return this.sendText(event, JSON.stringify(data));
  }

  /** Sends one message whose data is JSON text already (a stored event's, made once). */
  sendText(event: string, json: string): Promise<void> {
    return this.#write(`event: ${event}\ndata: ${json}\n\n`);
  }

  /** Sends one unnamed message (`data:` alone), the form ADK's API server uses. */
  data(data: unknown): Promise<void> {
    return this.#write(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends a last message and ends the stream with it, in one write. */
  finish(event: string, data: unknown): void {
    clearInterval(this.#heartbeat);
    if (this.open) this.#res.end(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.#heartbeat);
    if (this.open) this.#res.end();
  }

  #write(text: string): Promise<void> {
    if (!this.open) return Promise.resolve();
    if (this.#res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#res.off('drain', done);
        this.#res.off('close', done);
        resolve();
      };
      this.#res.on('drain', done);
      this.#res.on('close', done);
    });
  }
}
