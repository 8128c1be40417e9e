import { expect, vi } from 'vitest';
import { SessionNotes } from '../../src/server/adk/session-notes.js';
import { defineRows } from '../reliability/rows.js';
import { closeAdkServers, runBody as run, startAdkServer as start } from './adk-client.js';

// ADK's trace routes name a session by its id alone, so the ADK server notes the sessions it answers for. Before:
// it noted every id a /run named before checking the session existed, by id alone, and never forgot one — 150 /run
// requests with 1 MB ids took a server from 72 MB to 417 MB, and bob's failed /run naming s1 replaced alice's s1, so
// her trace came back empty.

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'http.adk-session-notes',
      entry: 'HTTP API body',
      tried:
        "ADK's `/run` and `/run_sse` naming 200 sessions that do not exist; a `sessionId` (and a path id) of 1,025 characters; more sessions than the server keeps notes of",
      expected:
        'each missing session a 404 that notes nothing; an id over 1,024 characters a 400 naming the field and its length; the notes keep the 1,000 most recently used sessions and forget the rest',
      run: async () => {
        const note = vi.spyOn(SessionNotes.prototype, 'note');
        try {
          const call = await start();
          for (let index = 0; index < 200; index++) {
            const reply = await call(
              'POST',
              index % 2 === 0 ? '/run' : '/run_sse',
              run('mallory', `ghost-${index}-${'x'.repeat(500)}`),
            );
            expect(reply.status).toBe(404);
          }
          expect(note).not.toHaveBeenCalled();
          const long = await call('POST', '/run', run('mallory', 'y'.repeat(1_025)));
          expect(long.status).toBe(400);
          expect(JSON.stringify(long.json)).toContain('sessionId: is 1,025 characters long; ids are at most 1,024');
          const path = await call('GET', `/apps/weather_agent/users/u/sessions/${'z'.repeat(1_025)}`);
          expect(path.status).toBe(400);
          expect(JSON.stringify(path.json)).toContain('is 1,025 characters long');
          expect(note).not.toHaveBeenCalled();
        } finally {
          note.mockRestore();
        }
        const notes = new SessionNotes(3);
        const key = (sessionId: string) => ({ appName: 'a', userId: 'u', sessionId });
        for (const id of ['s1', 's2', 's3']) notes.note(key(id));
        notes.note(key('s1'));
        notes.note(key('s4'));
        expect(notes.size).toBe(3);
        expect(notes.all().map((each) => each.sessionId)).toEqual(['s4', 's1', 's3']);
      },
    },
  ],
  { afterAll: closeAdkServers },
);
