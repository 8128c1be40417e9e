import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { api, gate, parseSse, pipelineRunner, resources, sseReader, waitingAgent } from './helpers.js';

const res = resources();

/** The store, recording every append it refuses (a stale copy, say). */
function countingConflicts(store: SessionStore, refused: unknown[]): SessionStore {
  return Object.assign(Object.create(store) as SessionStore, {
    appendEvent: (input: Parameters<SessionStore['appendEvent']>[0]) =>
      store.appendEvent(input).catch((error: unknown) => {
        refused.push(error);
        throw error;
      }),
  });
}
afterEach(() => res.cleanup());

const app = '/apps/waiter/users/u/sessions';
const key = { appName: 'waiter', userId: 'u', sessionId: 's' };

async function waitingServer(options: { heartbeatMs?: number } = {}) {
  const release = gate();
  const toolStarted = gate();
  const { agents, model } = waitingAgent(release.opened, toolStarted.open);
  const sessions = res.sqlite(join(await res.dir(), 'agentctx.db'));
  const runner = createRunner({ agents, sessions, model });
  const served = await res.serve({ runner, ...options });
  await api(served.url).post(app, { sessionId: 's' });
  return { ...served, runner, release, toolStarted };
}

describe('server lifecycle', () => {
  it('shuts down gracefully: new requests get 503, the running turn finishes and is stored, then the port closes', async () => {
    const { server, url, runner, release, toolStarted } = await waitingServer();
    const response = await api(url).run(`${app}/s`, { message: 'go' });
    const stream = sseReader(response);
    expect((await stream.next())?.data).toMatchObject({ author: 'user' });
    await toolStarted.opened;

    let closed = false;
    const closing = server.close().then(() => (closed = true));
    const refused = await api(url).get('/healthz');
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe('shutting_down');
    expect(refused.headers.get('retry-after')).toBe('5');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);

    release.open();
    const rest = await stream.rest();
    expect(rest.map((frame) => frame.event)).toEqual(['event', 'event', 'event', 'done']);
    expect(rest.at(-2)?.data).toMatchObject({ author: 'waiter', content: { parts: [{ text: 'finished' }] } });
    await closing;
    expect(server.activeRequests).toBe(0);
    const session = await runner.sessions.getSession(key);
    expect(session?.events).toHaveLength(4);
    expect(session?.events[2]?.content?.parts[0]).toMatchObject({
      functionResponse: { response: { outcome: 'released' } },
    });
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('aborts the turn when the client goes away, and a graceful close waits until the aborted turn is stored', async () => {
    const { server, url, runner, toolStarted } = await waitingServer();
    const controller = new AbortController();
    const response = await fetch(`${url}${app}/s/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"go"}',
      signal: controller.signal,
    });
    await sseReader(response).next();
    await toolStarted.opened;
    controller.abort();
    await server.close();
    // The tool saw the abort through its context's signal; the model was not asked again.
    const events = (await runner.sessions.getSession(key))?.events ?? [];
    expect(events.map((event) => event.errorCode ?? event.content?.parts[0])).toEqual([
      { text: 'go' },
      expect.objectContaining({ functionCall: expect.objectContaining({ name: 'wait' }) }),
      expect.objectContaining({ functionResponse: expect.objectContaining({ response: { outcome: 'aborted' } }) }),
      'aborted',
    ]);
  });

  it('runs one turn per session at a time (409), and sends heartbeats while a turn is quiet', async () => {
    const { url, toolStarted, release } = await waitingServer({ heartbeatMs: 20 });
    const response = await api(url).run(`${app}/s`, { message: 'go' });
    const reader = response.body?.getReader();
    await toolStarted.opened;
    const busy = await api(url).run(`${app}/s`, { message: 'me too' });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('session_busy');
    await new Promise((resolve) => setTimeout(resolve, 80));
    release.open();
    let text = '';
    const decoder = new TextDecoder();
    for (let chunk = await reader?.read(); chunk !== undefined && !chunk.done; chunk = await reader?.read())
      text += decoder.decode(chunk.value, { stream: true });
    expect(text).toContain(': ping\n\n');
    expect(parseSse(text).map((frame) => frame.event)).toEqual(['event', 'event', 'event', 'event', 'done']);
  });

  it('sends streamed text as partial events that are not stored', async () => {
    const { createScriptedModel } = await import('../../src/models/scripted/scripted-model.js');
    const { llmAgent } = await import('../../src/engine/agent/define-agent.js');
    const sessions = res.sqlite(join(await res.dir(), 'agentctx.db'));
    const runner = createRunner({
      agents: llmAgent({ name: 'waiter' }),
      sessions,
      model: createScriptedModel([{ text: 'one two three' }]),
      streaming: true,
    });
    const { url } = await res.serve({ runner });
    await api(url).post(app, { sessionId: 's' });
    const frames = parseSse(await (await api(url).run(`${app}/s`, { message: 'count' })).text());
    expect(frames.map((frame) => frame.event)).toEqual(['event', 'partial', 'partial', 'partial', 'event', 'done']);
    expect(frames.at(-1)?.data).toEqual({ events: 2 });
    expect((await sessions.getSession(key))?.events).toHaveLength(2);
  });
});

describe('several servers on one database', () => {
  it('keeps nothing between requests: two servers on one SQLite file take turns on one session and see each other’s events', async () => {
    const path = join(await res.dir(), 'shared.db');
    const conflicts: unknown[] = [];
    const first = await res.serve({ runner: await pipelineRunner(countingConflicts(res.sqlite(path), conflicts)) });
    const second = await res.serve({ runner: await pipelineRunner(countingConflicts(res.sqlite(path), conflicts)) });
    const sessions = '/apps/draft_and_review/users/ann/sessions';
    expect((await api(first.url).post(sessions, { sessionId: 'shared' })).status).toBe(201);

    const turns = [
      [first.url, 'Write about X'],
      [second.url, 'Now about Y'],
      [first.url, 'And Z'],
      [second.url, 'Last one'],
    ] as const;
    for (const [index, [url, message]] of turns.entries()) {
      const frames = parseSse(await (await api(url).run(`${sessions}/shared`, { message })).text());
      expect(frames.at(-1)).toEqual({ event: 'done', data: { events: 3 } });
      const [fromFirst, fromSecond] = await Promise.all([
        api(first.url).get(`${sessions}/shared/events`),
        api(second.url).get(`${sessions}/shared/events`),
      ]);
      expect(fromFirst.json.events).toHaveLength(3 * (index + 1));
      expect(fromSecond.json.events).toEqual(fromFirst.json.events);
    }
    // The first server's third turn was built on the second server's turn: its request holds that message.
    const calls = (await api(second.url).get(`${sessions}/shared/calls`)).json.calls as { index: number }[];
    expect(calls.map((call) => call.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const fifth = (await api(second.url).get(`${sessions}/shared/calls/5`)).json;
    const texts = JSON.stringify(fifth.request.messages);
    expect(texts).toContain('Now about Y');
    expect(texts).toContain('And Z');
    const revisions = await Promise.all(
      [first.url, second.url].map(async (url) => (await api(url).get(`${sessions}/shared?limit=0`)).json.revision),
    );
    expect(revisions).toEqual([12, 12]);
    // No append was refused as stale: each runner saw the other's turns by reloading before its own, not by retrying.
    expect(conflicts).toEqual([]);
  });

  // A session deleted and created again elsewhere may reach the revision of the copy a runner holds; the runner's
  // SessionCache also compares update times, so the next turn is built on the new history.
  it('builds a turn on a session deleted and created again by another server on the new history', async () => {
    const path = join(await res.dir(), 'shared.db');
    const first = await res.serve({ runner: await pipelineRunner(res.sqlite(path)) });
    const second = await res.serve({ runner: await pipelineRunner(res.sqlite(path)) });
    const sessions = '/apps/draft_and_review/users/ann/sessions';
    await api(first.url).post(sessions, { sessionId: 'again' });
    await (await api(first.url).run(`${sessions}/again`, { message: 'the old topic' })).text();
    await api(second.url).delete(`${sessions}/again`);
    await api(second.url).post(sessions, { sessionId: 'again' });
    await (await api(second.url).run(`${sessions}/again`, { message: 'the new topic' })).text();
    await (await api(first.url).run(`${sessions}/again`, { message: 'next' })).text();
    const third = (await api(first.url).get(`${sessions}/again/calls/3`)).json;
    expect(JSON.stringify(third.request.messages)).not.toContain('the old topic');
  });
});
