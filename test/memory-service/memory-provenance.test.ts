import { describe, expect, it } from 'vitest';
import { formatRequest } from '../../src/cli/format-request.js';
import { createStyle } from '../../src/cli/style.js';
import { memoryCli } from './memory-cli.js';

// Issue 49: each memory preload_memory puts into a request carries its source in provenance (session, event, author,
// time), which survives the SQLite call log and `agentctx inspect --call` prints one line each.

describe('memories in inspect', () => {
  it('prints, under the preload_memory part of a recorded call, where each memory came from', async () => {
    const {
      run,
      memory: remembering,
      inspect,
    } = await memoryCli({
      tools: ['preload_memory'],
      scripts: { 'script.yaml': '- text: Noted.\n' },
    });
    expect((await run('s1', 'My favourite city is Lisbon.')).code).toBe(0);
    expect((await remembering('add', '--session', 's1')).code).toBe(0);
    const listed = await remembering('search', '--query', 'favourite city', '--json');
    const [memory] = JSON.parse(listed.stdout) as {
      author: string;
      timestamp: string;
      source: { sessionId: string; eventId: string };
    }[];
    expect(memory).toMatchObject({ author: 'user', source: { sessionId: 's1' } });
    expect((await run('s2', 'What is my favourite city?')).code).toBe(0);

    const call = await inspect('s2', 1);
    expect(call.code).toBe(0);
    const lines = call.stdout.split('\n');
    const header = lines.findIndex((line) => line.includes('content[0] · memory · assistant.preload_memory'));
    expect(lines[header]).toContain('(1 memory for "What is my favourite city?")');
    expect(lines[header + 1]).toBe(
      `│   ↳ memory from session s1, event ${memory?.source.eventId} (user, ${memory?.timestamp})`,
    );
    expect(lines[header + 2]).toBe('│   The following content is from your previous conversations with the user.');
  });

  it('prints them under a system block too (the adk profile), and a memory written directly by its id', () => {
    const text = '<PAST_CONVERSATIONS>\nuser: Lisbon.\nuser: Porto.\n</PAST_CONVERSATIONS>\n';
    const printed = formatRequest(
      { system: text, tools: [], messages: [], config: {} },
      {
        system: [
          {
            start: 0,
            end: text.length,
            source: {
              kind: 'memory',
              processor: 'preload_memory',
              agent: 'assistant',
              memories: [
                { id: 'm1', sessionId: 's1', eventId: 'e-3', author: 'user', timestamp: '2026-12-07T10:00:00' },
                { id: 'm2' },
              ],
            },
          },
        ],
        tools: [],
        messages: [],
      },
      'call 1',
      createStyle(false),
    );
    expect(printed).toContain(
      '┌ block 1 · memory · assistant\n│ ↳ memory from session s1, event e-3 (user, 2026-12-07T10:00:00)\n│ ↳ memory m2, written directly\n│ <PAST_CONVERSATIONS>\n',
    );
  });
});
