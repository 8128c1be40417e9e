import { describe, expect, it } from 'vitest';
import { memoryCli } from './memory-cli.js';

// Issue 49's acceptance, through `agentctx run` on SQLite: a fact stated in session 1 (remembered after the turn,
// `--remember turn`) reaches session 2's requests through preload_memory and through load_memory; the memory's
// provenance names session 1's event; the memory block leaves the prefix of session 2's first call as it was in the
// second (the block stays where it was, the tool's call and result come after it); deleting the user's memories
// removes it from every later request, and --redact erases the copies session 2 holds.

type Call = { request: { system?: string; messages: { role: string; parts: object[] }[] }; provenance: unknown };

async function setUp() {
  const { run, memory, inspect } = await memoryCli({
    tools: ['preload_memory', 'load_memory'],
    scripts: {
      'noted.yaml': '- text: Noted.\n',
      'recall.yaml':
        '- functionCall:\n    name: load_memory\n    args: { query: favourite city }\n- text: Your favourite city is Lisbon.\n',
    },
    runArgs: ['--remember', 'turn'],
  });
  const turn = async (session: string, script: string, message: string) => {
    const result = await run(session, message, script);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
  };
  const call = async (session: string, index: number): Promise<Call> => {
    const result = await inspect(session, index, '--json', '--provenance');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as Call;
  };
  return { run: turn, call, memory };
}

describe('memory across two sessions, through agentctx run on SQLite', () => {
  it('reaches the next session by both tools, traceably, cache-safely, and is gone once deleted', async () => {
    const { run, call, memory } = await setUp();
    await run('s1', 'noted.yaml', 'My favourite city is Lisbon.');
    const remembered = JSON.parse((await memory('list', '--json')).stdout) as {
      content: { parts: { text: string }[] };
      source: { sessionId: string; eventId: string };
    }[];
    const fact = remembered.find((entry) => entry.content.parts[0]?.text === 'My favourite city is Lisbon.');
    expect(fact?.source.sessionId).toBe('s1');

    await run('s2', 'recall.yaml', 'What is my favourite city?');
    const first = await call('s2', 1);
    const second = await call('s2', 2);
    const firstText = JSON.stringify(first.request.messages);
    // preload_memory: the block, a turn of its own before the message, naming session 1's event as its source.
    expect(firstText).toContain('<PAST_CONVERSATIONS>');
    expect(firstText).toContain('user: My favourite city is Lisbon.');
    expect(first.request.system).not.toContain('PAST_CONVERSATIONS');
    expect(JSON.stringify(first.provenance)).toContain(fact?.source.eventId as string);
    expect(JSON.stringify(first.provenance)).toContain('"sessionId":"s1"');
    // load_memory: the tool's result in the second call carries the fact.
    const result = JSON.stringify(second.request.messages.at(-1));
    expect(result).toContain('functionResponse');
    expect(result).toContain('My favourite city is Lisbon.');
    // The second call starts with the first one's request, memory block included, unchanged.
    expect(second.request.system).toBe(first.request.system);
    expect(second.request.messages.slice(0, first.request.messages.length)).toEqual(first.request.messages);

    // Deleted with --redact: the copies session 2 holds (the preload block in its requests, the load_memory result in
    // its events and the second request) become tombstones.
    const deleted = (await memory('delete', '--all', '--redact')).stdout;
    expect(deleted).toMatch(
      /^deleted \d+ memories\ncopies erased, each replaced by a tombstone:\n {2}session s2: 1 event and 2 recorded calls rewritten\n$/,
    );
    for (const index of [1, 2]) {
      const erased = JSON.stringify((await call('s2', index)).request);
      expect(erased).not.toContain('My favourite city is Lisbon.');
      expect(erased).toMatch(/\[erased [\dT:-]+Z: memory [\w-]+, deleted from memory\]/);
    }
    await run('s3', 'recall.yaml', 'What is my favourite city?');
    for (const index of [1, 2]) expect(JSON.stringify((await call('s3', index)).request)).not.toContain('Lisbon');
  });
});
