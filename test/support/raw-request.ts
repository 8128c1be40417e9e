import { connect } from 'node:net';

/**
 * Sends a request line exactly as written — no client-side resolution of dot segments or re-encoding, as
 * `curl --path-as-is` — and resolves once the connection closes: the status (0 when none came) and the body.
 */
export function rawRequest(port: number, method: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        body: text.split('\r\n\r\n').slice(1).join('\r\n\r\n'),
      }),
    );
  });
}
