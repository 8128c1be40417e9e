import { expect } from 'vitest';
import { defineRows } from '../reliability/rows.js';
import { closeAdkServers, runBody as run, startAdkServer as start } from './adk-client.js';

// ADK's trace routes name a session by its id alone. Before: the server noted sessions by id alone, and before checking
// that they existed, so bob's failed /run naming s1 replaced alice's s1 and her trace came back empty.

type Span = { name: string; attributes: Record<string, unknown> };

export const rows = defineRows(
  import.meta.url,
  'isolation',
  [
    {
      id: 'isolation.adk-trace',
      entry: "ADK's trace routes",
      tried:
        "alice runs a turn in s1; bob's `/run` names s1, which he does not have; then bob gets an s1 of his own and runs a turn in it",
      expected:
        "bob's failed run changes nothing: alice's `/debug/trace/session/s1` still has her spans and her event's trace is found; once both have an s1, the route (which names no user) answers the spans of both, as ADK's exporter does",
      run: async () => {
        const call = await start();
        expect((await call('POST', '/apps/weather_agent/users/alice/sessions/s1')).status).toBe(200);
        const events = (await call('POST', '/run', run('alice', 's1'))).json as { id: string }[];
        expect((await call('POST', '/run', run('bob', 's1'))).status).toBe(404);
        const spans = (await call('GET', '/debug/trace/session/s1')).json as Span[];
        const calls = spans.filter((span) => span.name === 'call_llm');
        expect(calls.length).toBe(2);
        const answered = calls[0]!.attributes['gcp.vertex.agent.event_id'] as string;
        expect(events.map((event) => event.id)).toContain(answered);
        expect((await call('GET', `/debug/trace/${answered}`)).status).toBe(200);
        expect((await call('POST', '/apps/weather_agent/users/bob/sessions/s1')).status).toBe(200);
        expect((await call('POST', '/run', run('bob', 's1'))).status).toBe(200);
        const both = (await call('GET', '/debug/trace/session/s1')).json as Span[];
        expect(both.filter((span) => span.name === 'call_llm').length).toBe(4);
      },
    },
  ],
  { afterAll: closeAdkServers },
);
