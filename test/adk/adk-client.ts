import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { weatherRunner } from './weather-app.js';

// An ADK server over the weather app (in memory) and a client for it, for the rows of ADK's protocol.

const servers: AgentctxServer[] = [];

export type AdkCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

export async function startAdkServer(): Promise<AdkCall> {
  const server = createAdkServer({ runners: [weatherRunner(createInMemorySessionStore())], version: 'test' });
  servers.push(server);
  const { url } = await server.listen(0);
  return async (method, path, body) => {
    // A string body is sent as it is: JSON text written by hand (a `__proto__` key survives only that way).
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${url}${path}`, {
      method,
      headers: text === undefined ? {} : { 'content-type': 'application/json' },
      ...(text === undefined ? {} : { body: text }),
    });
    const answer = await response.text();
    return { status: response.status, json: answer === '' ? undefined : (JSON.parse(answer) as unknown) };
  };
}

export async function closeAdkServers(): Promise<void> {
  for (const server of servers.splice(0)) await server.close();
}

/** A `/run` body: a user's message to the weather app. */
export const runBody = (userId: string, sessionId: string, text = 'Weather in Paris?') => ({
  appName: 'weather_agent',
  userId,
  sessionId,
  newMessage: { role: 'user', parts: [{ text }] },
});
