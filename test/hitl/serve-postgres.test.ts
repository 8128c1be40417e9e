import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnListening, type Listening } from '../support/listening.js';
import { createTestDatabase, skipWithoutPostgres, TEST_POSTGRES_URL } from '../support/postgres.js';

// A confirmation across `agentctx serve` processes on one PostgreSQL database (issue 48): the run pauses in the first,
// which is then killed; two others get the person's answer at the same moment: one runs the tool and finishes the
// run, the other answers 409, and the tool ran exactly once. Over ADK's protocol, as ADK's dev UI speaks it.

type AdkEvent = { author: string; content?: { parts: Record<string, unknown>[] } };

const serverUrl = TEST_POSTGRES_URL;
if (serverUrl === undefined) skipWithoutPostgres('confirmations across serve processes on PostgreSQL');
else
  describe('a confirmation across serve processes on PostgreSQL', () => {
    const servers: Listening[] = [];
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let dir: string;

    beforeAll(async () => {
      database = await createTestDatabase(serverUrl, 'hitl');
      dir = await mkdtemp(join(tmpdir(), 'agentctx-hitl-pg-'));
      await writeFile(
        join(dir, 'first.yaml'),
        '- functionCall: { name: transfer, args: { amount: 500, to: ACC123 } }\n',
      );
      await writeFile(join(dir, 'second.yaml'), '- text: Moved 500 to ACC123.\n');
    });

    afterAll(async () => {
      for (const server of servers) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
      await database?.drop();
    });

    const serve = async (script: string) => {
      const server = spawnListening([
        'serve',
        'test/fixtures/hitl/bank-agent.ts',
        '--protocol',
        'adk',
        '--model',
        `scripted:${join(dir, script)}`,
        '--store',
        database.url,
        '--port',
        '0',
      ]);
      servers.push(server);
      return { server, url: await server.url };
    };
    const run = async (url: string, newMessage: unknown) => {
      const response = await fetch(`${url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appName: 'bank', userId: 'u1', sessionId: 's1', newMessage }),
      });
      const text = await response.text();
      return { status: response.status, text };
    };

    it('pauses in one process, survives its death, and is answered once of two answers at once', async () => {
      const first = await serve('first.yaml');
      await fetch(`${first.url}/apps/bank/users/u1/sessions/s1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const paused = await run(first.url, { role: 'user', parts: [{ text: 'Move 500 to ACC123' }] });
      expect(paused.status).toBe(200);
      const events = JSON.parse(paused.text) as AdkEvent[];
      const request = events
        .flatMap((event) => event.content?.parts ?? [])
        .map((part) => part['functionCall'] as { id: string; name: string } | undefined)
        .find((call) => call?.name === 'adk_request_confirmation');
      expect(request).toBeDefined();
      // Killed while paused: nothing it held is needed to resume.
      first.server.child.kill('SIGKILL');
      await first.server.exited;

      const [b, c] = await Promise.all([serve('second.yaml'), serve('second.yaml')]);
      const answer = {
        role: 'user',
        parts: [
          { functionResponse: { id: request?.id, name: 'adk_request_confirmation', response: { confirmed: true } } },
        ],
      };
      const results = await Promise.all([run(b.url, answer), run(c.url, answer)]);
      expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
      const won = results.find((result) => result.status === 200);
      expect(won?.text).toContain('"moved":500');
      expect(won?.text).toContain('Moved 500 to ACC123.');
      expect(results.find((result) => result.status === 409)?.text).toContain('was answered already');

      const session = (await (await fetch(`${b.url}/apps/bank/users/u1/sessions/s1`)).json()) as { events: AdkEvent[] };
      const ran = session.events.filter((event) =>
        (event.content?.parts ?? []).some((part) =>
          JSON.stringify(part['functionResponse'] ?? {}).includes('"moved":500'),
        ),
      );
      expect(ran).toHaveLength(1);
    }, 60_000);
  });
