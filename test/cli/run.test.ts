import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx, agentctxWith, agentctxWithInput, expectOneLineError } from '../support/cli.js';

let dir = '';
const pipeline = [
  'examples/draft-and-review/pipeline.yaml',
  '--model',
  'scripted:examples/draft-and-review/script.yaml',
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-run-'));
  await writeFile(join(dir, 'bad-script.yaml'), 'rules:\n  - when: { agnet: x }\n    respond: { text: hi }\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx run', () => {
  it("runs seed 001's pipeline offline and keeps the session and every request in the store", async () => {
    const store = join(dir, 'pipeline.db');
    const result = await agentctx(
      'run',
      ...pipeline,
      '--store',
      store,
      '--session',
      'demo',
      '--message',
      'Write about X',
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('session demo (app draft_and_review, user user)\n');
    expect(result.stdout).toMatch(/^\[generator_agent\] Subject X was first described in 1901/m);
    expect(result.stdout).toMatch(/state: draft_text="Subject X was first described/);
    expect(result.stdout).toMatch(/^\[reviewer_agent\] Two claims need sources/m);

    const list = await agentctx(
      'inspect',
      'examples/draft-and-review/pipeline.yaml',
      '--session',
      'demo',
      '--store',
      store,
    );
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/Session demo: 2 model calls/);
    expect(list.stdout).toMatch(/1\s+answered\s+generator_agent/);
    expect(list.stdout).toMatch(/2\s+answered\s+reviewer_agent/);

    const call = await agentctx(
      'inspect',
      'examples/draft-and-review/pipeline.yaml',
      '--session',
      'demo',
      '--call',
      '2',
      '--store',
      store,
      '--json',
    );
    const request = JSON.parse(call.stdout) as { system: string };
    expect(request.system).toMatch(
      /^Please review the following draft: Subject X was first described in 1901 by a Swiss botanist, and it is now grown on every continent\.\. Check/,
    );

    const tokens = await agentctx(
      'tokens',
      'examples/draft-and-review/pipeline.yaml',
      '--session',
      'demo',
      '--store',
      store,
      '--json',
    );
    const calibration = JSON.parse(tokens.stdout) as { rows: { billed: number; estimate: number }[]; factor: number };
    expect(calibration.rows.map((row) => row.billed)).toEqual([58, 112]);
    expect(calibration.factor).toBeGreaterThan(0);
    const counted = await agentctx(
      'inspect',
      'examples/draft-and-review/pipeline.yaml',
      '--session',
      'demo',
      '--call',
      '1',
      '--store',
      store,
      '--tokens',
    );
    expect(counted.stdout).toMatch(/TOKENS · \d+ \(local estimate, o200k\)/);
    expect(counted.stdout).toMatch(/block 1 · instruction · generator_agent\.instruction · \d+ tokens/);

    const shown = await agentctx(
      'inspect',
      'examples/draft-and-review/pipeline.yaml',
      '--session',
      'demo',
      '--call',
      '2',
      '--store',
      store,
    );
    expect(shown.stdout).toMatch(/Call 2 of session demo: agent 'reviewer_agent'/);
    expect(shown.stdout).toMatch(/↳ \{draft_text\} → state 'draft_text' \(session\)/);
  });

  it('diffs two recorded calls of a session, and the same call of two sessions', async () => {
    const store = join(dir, 'diffed.db');
    for (const session of ['d1', 'd2']) {
      expect(
        (await agentctx('run', ...pipeline, '--store', store, '--session', session, '--message', 'Write about X')).code,
      ).toBe(0);
    }
    const file = 'examples/draft-and-review/pipeline.yaml';
    const calls = await agentctx('diff', file, '--session', 'd1', '--call', '1', '--call', '2', '--store', store);
    expect(calls.code).toBe(1);
    expect(calls.stdout).toMatch(/^a: session d1, call 1\nb: session d1, call 2\n/);
    expect(calls.stdout).toMatch(/system {4}differs from char 0/);
    const json = JSON.parse(
      (await agentctx('diff', file, '--session', 'd1', '--call', '1', '--call', '2', '--store', store, '--json'))
        .stdout,
    ) as { identical: boolean; system: { identical: boolean } };
    expect(json).toMatchObject({ identical: false, system: { identical: false } });

    // Two runs of the same definitions with the same message: byte-identical requests.
    const sessions = await agentctx(
      'diff',
      '--app',
      'draft_and_review',
      '--session',
      'd1',
      '--session',
      'd2',
      '--call',
      '2',
      '--store',
      store,
    );
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toContain('the requests are identical');

    expectOneLineError(
      await agentctx('diff', file, '--session', 'd1', '--call', '1', '--store', store),
      2,
      /takes two --call options, got 1/,
    );
    expectOneLineError(
      await agentctx('diff', file, '--session', 'd1', '--call', '1', '--call', '7', '--store', store),
      2,
      /Session d1 has no call 7; it has 2\./,
    );
    expectOneLineError(
      await agentctx('diff', file, '--session', 'd1', '--session', 'nope', '--call', '1', '--store', store),
      2,
      /Session nope of user user in app draft_and_review is not in the store/,
    );
  });

  it('continues a session, reading messages one per line from a pipe', async () => {
    const store = join(dir, 'notes.db');
    const args = [
      'run',
      'test/fixtures/notes-agent.mjs',
      '--model',
      'scripted:test/fixtures/notes-script.yaml',
      '--store',
      store,
      '--session',
      'n1',
    ];
    const first = await agentctxWithInput('remember this\nanything else?\n', ...args);
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n').filter((line) => line.startsWith('[notes]'))).toEqual([
      '[notes] → note({"text":"blue"})',
      '[notes] ← note: {"kept":true}',
      '[notes] done',
      '[notes] done',
    ]);
    const second = await agentctx(...args, '--message', 'and now?');
    expect(second.stdout).toMatch(/\[notes\] done/);
    const calls = await agentctx(
      'inspect',
      'test/fixtures/notes-agent.mjs',
      '--session',
      'n1',
      '--store',
      store,
      '--call',
      '2',
      '--json',
    );
    expect((JSON.parse(calls.stdout) as { system: string }).system).toMatch(/^Scratch: SCRATCH-blue\. Notes: 1\./);
    const later = await agentctx(
      'inspect',
      'test/fixtures/notes-agent.mjs',
      '--session',
      'n1',
      '--store',
      store,
      '--call',
      '4',
      '--json',
    );
    expect((JSON.parse(later.stdout) as { system: string }).system).toMatch(/^Scratch: \. Notes: 1\./);
  });

  it('never writes a temp: key or its value to the SQLite state or events; only the recorded prompt shows what the model saw', async () => {
    const store = join(dir, 'temp.db');
    await agentctx(
      'run',
      'test/fixtures/notes-agent.mjs',
      '--model',
      'scripted:test/fixtures/notes-script.yaml',
      '--store',
      store,
      '--session',
      't1',
      '--message',
      'remember',
    );
    const db = new Database(store, { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      ({ name }) => name,
    );
    const cellsOf = (table: string) =>
      db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .flatMap((row) => Object.values(row as object).map(String));
    const stored = tables
      .filter((table) => table !== 'agentctx_model_calls')
      .flatMap(cellsOf)
      .join('\n');
    const prompts = cellsOf('agentctx_model_calls').join('\n');
    db.close();
    expect(stored).toContain('notes');
    expect(stored).not.toContain('temp:');
    expect(stored).not.toContain('SCRATCH-blue');
    expect(prompts).toContain('Scratch: SCRATCH-blue.');
  });

  it('reports bad input in one line and exits 2', async () => {
    const noKeys = { GEMINI_API_KEY: '', GOOGLE_API_KEY: '' };
    expectOneLineError(
      await agentctxWith(
        noKeys,
        'run',
        'examples/draft-and-review/pipeline.yaml',
        '--message',
        'x',
        '--store',
        'memory',
      ),
      2,
      /^error: No API key for Gemini: GEMINI_API_KEY or GOOGLE_API_KEY is not set\. Export GEMINI_API_KEY/,
    );
    expectOneLineError(
      await agentctx(
        'run',
        'examples/draft-and-review/pipeline.yaml',
        '--model',
        'mystery-model',
        '--message',
        'x',
        '--store',
        'memory',
      ),
      2,
      /^error: Cannot use model 'mystery-model': no provider is known for it\. Model strings look like/,
    );
    expectOneLineError(await agentctx('run', 'nope.yaml', '--message', 'x'), 2, /^error: Cannot read nope\.yaml/);
    expectOneLineError(
      await agentctx(
        'run',
        'examples/draft-and-review/pipeline.yaml',
        '--model',
        `scripted:${join(dir, 'bad-script.yaml')}`,
        '--message',
        'x',
        '--store',
        'memory',
      ),
      2,
      /rules\[0\]\.when\.agnet: unknown field \(did you mean 'agent'\?\)/,
    );
    expectOneLineError(
      await agentctx('run', 'examples/draft-and-review/pipeline.yaml', 'extra', '--message', 'x'),
      2,
      /run takes one agent file/,
    );
    expectOneLineError(
      await agentctx('run', 'examples/draft-and-review/pipeline.yaml', '--mesage', 'x'),
      2,
      /^error: Unknown option '--mesage' \(did you mean --message\?\)\. Run 'agentctx run --help'/,
    );
    expectOneLineError(
      await agentctx('inspec', 'examples/draft-and-review/pipeline.yaml'),
      2,
      /^error: unknown command 'inspec' \(did you mean 'inspect'\?\)\./,
    );
    expectOneLineError(
      await agentctx(
        'inspect',
        'examples/draft-and-review/pipeline.yaml',
        '--session',
        'ghost',
        '--store',
        join(dir, 'pipeline.db'),
      ),
      2,
      /Session ghost of user user in app draft_and_review is not in the store/,
    );
    expectOneLineError(
      await agentctx(
        'inspect',
        'examples/draft-and-review/pipeline.yaml',
        '--session',
        'demo',
        '--call',
        '9',
        '--store',
        join(dir, 'pipeline.db'),
      ),
      2,
      /Session demo has no call 9; it has 2\./,
    );
  });

  it('runs a TypeScript agent module as it is, and inspects its calls', async () => {
    const script = join(dir, 'travel-script.yaml');
    await writeFile(
      script,
      'rules:\n  - when: { agent: travel, afterToolResponse: fare }\n    respond: { text: Lyon costs 49 euros. }\n  - when: { agent: travel }\n    respond: { functionCall: { name: fare, args: { city: Lyon } } }\n',
    );
    const store = join(dir, 'travel.db');
    const result = await agentctx(
      'run',
      'test/fixtures/travel-agent.ts',
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--session',
      'trip',
      '--message',
      'How much to Lyon?',
    );
    expect(result.stderr).toBe('session trip (app travel, user user)\n');
    expect(result.stdout).toContain('[travel] ← fare: {"euros":49}');
    expect(result.stdout).toContain('[travel] Lyon costs 49 euros.');
    const call = await agentctx(
      'inspect',
      'test/fixtures/travel-agent.ts',
      '--session',
      'trip',
      '--call',
      '1',
      '--store',
      store,
    );
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('You find fares. Cities known: .');

    await writeFile(
      join(dir, 'broken.ts'),
      "import { llmAgent } from 'agentctx';\nexport default llmAgent({ name: 'x', instruction: 'y' ;\n",
    );
    expectOneLineError(
      await agentctx('run', join(dir, 'broken.ts'), '--store', 'memory', '--message', 'x'),
      2,
      /^error: Invalid .*broken\.ts: line 2, column \d+: Expected/,
    );
  });

  it('refuses a store that is not there in the commands that only read one, and creates nothing', async () => {
    const missing = join(dir, 'typo.db');
    const file = 'examples/draft-and-review/pipeline.yaml';
    for (const args of [
      ['inspect', file, '--session', 'demo', '--store', missing],
      ['inspect', file, '--session', 'demo', '--call', '1', '--store', missing],
      ['tokens', file, '--session', 'demo', '--store', missing],
      ['compact', file, '--session', 'demo', '--dry-run', '--interval', '2', '--overlap', '0', '--store', missing],
      ['web', '--store', missing],
    ]) {
      expectOneLineError(await agentctx(...args), 2, /There is no store at .*typo\.db\./);
      expect(existsSync(missing)).toBe(false);
    }
  });

  it('exits 1 when a turn ends with an error event', async () => {
    const result = await agentctx(
      'run',
      'test/fixtures/notes-agent.mjs',
      '--model',
      `scripted:${join(dir, 'empty.yaml')}`,
      '--store',
      'memory',
      '--message',
      'hi',
    );
    expect(result.code).toBe(2);
    await writeFile(join(dir, 'empty.yaml'), '[]\n');
    const failing = await agentctx(
      'run',
      'test/fixtures/notes-agent.mjs',
      '--model',
      `scripted:${join(dir, 'empty.yaml')}`,
      '--store',
      'memory',
      '--message',
      'hi',
    );
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(
      /\[notes\] ✗ model_error: The model call failed \(call 1 of this invocation, agent 'notes'\): The script has no answer for call 1/,
    );
  });
});
