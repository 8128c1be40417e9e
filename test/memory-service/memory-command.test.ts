import { describe, expect, it } from 'vitest';
import { cli, expectCliError } from '../support/cli.js';
import { memoryCli } from './memory-cli.js';

// `agentctx memory` (issue 49): a session run by `agentctx run` is added to the app's memory, found by a search, and
// deleted for good; a later session's requests carry it through preload_memory in between.

const setUp = () => memoryCli({ tools: ['preload_memory'], scripts: { 'script.yaml': '- text: Noted.\n' } });

describe('agentctx memory', () => {
  it('adds a session, finds it, gives it to a later session, and deletes it for good', async () => {
    const { run, memory, inspect } = await setUp();
    expect((await run('s1', 'My favourite city is Lisbon.')).code).toBe(0);
    expect((await memory('add', '--session', 's1')).stdout).toBe('remembered 2 events of session s1\n');
    const found = await memory('search', '--query', 'which city is my favourite?', '--json');
    const memories = JSON.parse(found.stdout) as {
      id: string;
      author: string;
      content: { parts: { text: string }[] };
    }[];
    expect(memories.map((entry) => [entry.author, entry.content.parts[0]?.text])).toEqual([
      ['user', 'My favourite city is Lisbon.'],
    ]);

    expect((await run('s2', 'What is my favourite city?')).code).toBe(0);
    const call = await inspect('s2', 1, '--json');
    expect(call.stdout).toContain('user: My favourite city is Lisbon.');

    // The later session's recorded request carried the memory: a copy, listed before and after the delete.
    const dry = await memory('delete', '--session', 's1', '--dry-run');
    expect(dry.stdout).toMatch(
      /^would delete 2 memories\ncopies made of them before, which stay:\n {2}session s2, recorded call 1 sent memory [\w-]+\n$/,
    );
    expect((await memory('list')).stdout).not.toBe('no memories\n');
    const deleted = await memory('delete', '--session', 's1');
    expect(deleted.stdout).toMatch(
      /^deleted 2 memories\ncopies made of them before, which stay:\n {2}session s2, recorded call 1 sent memory /,
    );
    expect((await memory('list')).stdout).toBe('no memories\n');
  });

  it('refuses what it cannot do, in one line', async () => {
    const { memory, agent } = await setUp();
    expectCliError(
      await cli(['memory', 'forget', agent]),
      /memory has no action 'forget'\. Use one of add, list, search, delete/,
    );
    expectCliError(await memory('search'), /memory search needs --query/);
    expectCliError(await memory('delete', '--id', 'x', '--all'), /exactly one of --id <id>, --session <id> or --all/);
  });
});
