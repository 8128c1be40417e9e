// One bench:scale client: turns on its session through whichever server is alive, over HTTP with server-sent events.
import type { ServerProcess } from './scale-servers.js';

export const APP = 'scale';

export type ClientPlan = { client: number; userId: string; sessionId: string; turns: number };

/**
 * Who shares what: `independent`, every client its own user and session; `shared-user`, groups of four clients of one
 * user, each on its own session (all writing the user's `user:turns`); `shared-session`, pairs of clients on one
 * session; `mixed` (bench:scale's), groups of four of one user whose first two share a session.
 */
export type Workload = 'independent' | 'shared-user' | 'shared-session' | 'mixed';
export const WORKLOADS: readonly Workload[] = ['independent', 'shared-user', 'shared-session', 'mixed'];

/** A turn the server acknowledged: its stream ended with `done`, so every event in it was stored. */
export type AcknowledgedTurn = {
  userId: string;
  sessionId: string;
  message: string;
  eventIds: string[];
  ms: number;
  server: number;
};

export type ClientResult = {
  acknowledged: AcknowledgedTurn[];
  failed: number;
  busyRetries: number;
  unavailableRetries: number;
};

/** Which server the clients talk to: `agentctx serve` (its own API), or ADK's API server (`/run_sse`). */
export type Protocol = 'agentctx' | 'adk';

/** Each client's user and session under a workload (see `Workload`). */
export function planClients(clients: number, turns: number, workload: Workload = 'mixed'): ClientPlan[] {
  return Array.from({ length: clients }, (_, client) => {
    if (workload === 'independent') return { client, userId: `u${client}`, sessionId: `s${client}`, turns };
    if (workload === 'shared-user')
      return { client, userId: `u${Math.floor(client / 4)}`, sessionId: `s${client}`, turns };
    if (workload === 'shared-session')
      return { client, userId: `u${Math.floor(client / 2)}`, sessionId: `s${client - (client % 2)}`, turns };
    const owner = client % 4 === 1 ? client - 1 : client;
    return { client, userId: `u${Math.floor(client / 4)}`, sessionId: `s${owner}`, turns };
  });
}

/**
 * Runs a client's turns. A turn refused because its session is busy on that server is tried again; a turn whose
 * server died or answered with an error is counted as failed (never acknowledged) and the client goes on.
 */
export async function runClient(
  plan: ClientPlan,
  servers: readonly ServerProcess[],
  onTurn: () => void,
  protocol: Protocol = 'agentctx',
): Promise<ClientResult> {
  const result: ClientResult = { acknowledged: [], failed: 0, busyRetries: 0, unavailableRetries: 0 };
  for (let turn = 0; turn < plan.turns; turn++) {
    const message = `client ${plan.client} turn ${turn}`;
    for (let attempt = 0; ; attempt++) {
      const alive = servers.map((server, index) => ({ server, index })).filter((item) => item.server.alive);
      const pick = alive[(plan.client + turn + attempt) % alive.length];
      if (pick === undefined) throw new Error('no server left alive');
      const started = performance.now();
      const outcome =
        protocol === 'adk'
          ? await runAdkTurn(pick.server.url, plan, message)
          : await runTurn(pick.server.url, plan, message);
      if (outcome === 'busy' && attempt < 50) {
        result.busyRetries += 1;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
        continue;
      }
      // The database is away (the server said so before running anything): wait as Retry-After says, then again.
      if (outcome === 'unavailable' && attempt < 60) {
        result.unavailableRetries += 1;
        await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 500));
        continue;
      }
      if (Array.isArray(outcome))
        result.acknowledged.push({
          userId: plan.userId,
          sessionId: plan.sessionId,
          message,
          eventIds: outcome,
          ms: performance.now() - started,
          server: pick.index,
        });
      else result.failed += 1;
      break;
    }
    onTurn();
  }
  return result;
}

/** The stored events' ids, in stream order; `busy` for a 409; `unavailable` for a 503 (nothing ran); `failed` for anything else. */
async function runTurn(
  base: string,
  plan: ClientPlan,
  message: string,
): Promise<string[] | 'busy' | 'unavailable' | 'failed'> {
  try {
    const response = await fetch(`${base}/apps/${APP}/users/${plan.userId}/sessions/${plan.sessionId}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    if (response.status === 409 || response.status === 503) {
      await response.body?.cancel();
      return response.status === 409 ? 'busy' : 'unavailable';
    }
    if (response.status !== 200 || response.body === null) {
      await response.body?.cancel();
      return 'failed';
    }
    const ids: string[] = [];
    let done = false;
    let errored = false;
    for await (const frame of sseFrames(response.body)) {
      if (frame.event === 'event') {
        const event = JSON.parse(frame.data) as { id: string; errorCode?: string };
        if (event.errorCode !== undefined) errored = true;
        ids.push(event.id);
      } else if (frame.event === 'done') done = true;
      else if (frame.event === 'error') errored = true;
    }
    return done && !errored ? ids : 'failed';
  } catch {
    return 'failed';
  }
}

/**
 * A turn on ADK's API server: `POST /run_sse`, one `data:` line per stored event, no end marker. Acknowledged when the
 * stream ends after a 200 with no `{ error }` line and no error event (ADK has no busy answer: turns on one session
 * simply run together).
 */
async function runAdkTurn(base: string, plan: ClientPlan, message: string): Promise<string[] | 'failed'> {
  try {
    const response = await fetch(`${base}/run_sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: APP,
        userId: plan.userId,
        sessionId: plan.sessionId,
        newMessage: { role: 'user', parts: [{ text: message }] },
      }),
    });
    if (response.status !== 200 || response.body === null) {
      await response.body?.cancel();
      return 'failed';
    }
    const ids: string[] = [];
    let errored = false;
    for await (const frame of sseFrames(response.body)) {
      const data = JSON.parse(frame.data) as { id?: string; error?: string; errorCode?: string; partial?: boolean };
      if (data.error !== undefined || data.errorCode !== undefined) errored = true;
      else if (data.id !== undefined && data.partial !== true) ids.push(data.id);
    }
    return errored || ids.length === 0 ? 'failed' : ids;
  } catch {
    return 'failed';
  }
}

async function* sseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}
