import { expect } from 'vitest';
import type { SessionKey } from '../../src/contracts/session.js';
import type { createInspectorApp } from '../../src/web/inspector-app.js';

/** The API path of a session. */
export function sessionPath(key: SessionKey): string {
  return `/api/apps/${encodeURIComponent(key.appName)}/users/${encodeURIComponent(key.userId)}/sessions/${encodeURIComponent(key.sessionId)}`;
}

/** GETs `url` from the inspector app as a loopback client would, expects 200, and returns the JSON. */
export async function getJson(app: ReturnType<typeof createInspectorApp>, url: string): Promise<any> {
  const response = await app.request(url, { headers: { host: '127.0.0.1:8090' } });
  expect(response.status, `${url}: ${await response.clone().text()}`).toBe(200);
  return response.json() as Promise<any>;
}
