import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { defineRows } from '../reliability/rows.js';
import { scratch } from '../reliability/support.js';
import { agentctx, cli, expectCliError } from '../support/cli.js';

// Part 1, CLI flags: through `main` (what bin/agentctx.js runs), every mistake is one line on stderr naming the fix,
// exit 2, no stack trace (`--debug` adds it), and nothing written.
const tmp = scratch();
const PIPELINE = 'examples/draft-and-review/pipeline.yaml';
const SCRIPTED = ['--model', 'scripted:examples/draft-and-review/script.yaml'];

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'cli.unknown-option',
      entry: 'CLI flags',
      tried: 'an unknown option, an unknown command, no command argument',
      expected:
        "`Unknown option '--nope'. Run 'agentctx check --help' …`; `unknown command 'frobnicate'`; `check needs a file`",
      run: async () => {
        expectCliError(
          await cli(['check', 'x.yaml', '--nope']),
          /^error: Unknown option '--nope'\. Run 'agentctx check --help' to see the options\./,
        );
        expectCliError(await cli(['frobnicate']), /^error: unknown command 'frobnicate'\. Run 'agentctx --help'/);
        expectCliError(await cli(['check']), /^error: check needs a file/);
      },
    },
    {
      id: 'cli.missing-value',
      entry: 'CLI flags',
      tried: '`--store` with no value',
      expected: "`Option '--store <value>' argument missing`, pointing at the command's help",
      run: async () =>
        expectCliError(
          await cli(['inspect', 'examples/coordinator.yaml', '--store']),
          /Option '--store <value>' argument missing\. Run 'agentctx inspect --help'/,
        ),
    },
    {
      id: 'cli.bad-numbers',
      entry: 'CLI flags',
      tried: '`--port abc`, `--port 99999`, `--interval x`',
      expected: "`--port must be a whole number from 0 to 65535, got '99999'`; `--interval must be a whole number`",
      run: async () => {
        expectCliError(
          await cli(['serve', PIPELINE, '--port', 'abc', '--store', 'memory', ...SCRIPTED]),
          /--port must be a whole number from 0 to 65535, got 'abc'/,
        );
        expectCliError(
          await cli(['serve', PIPELINE, '--port', '99999', '--store', 'memory', ...SCRIPTED]),
          /got '99999'/,
        );
        expectCliError(
          await cli(['compact', 'examples/compaction/long-chat.yaml', '--interval', 'x', '--dry-run']),
          /--interval must be a whole number, got 'x'/,
        );
      },
    },
    {
      id: 'cli.bad-choices',
      entry: 'CLI flags',
      tried: '`--value-format ruby`, `--summarizer magic`, `compact` of a case file without `--dry-run`',
      expected: 'each names the values it takes',
      run: async () => {
        expectCliError(
          await cli(['check', 'examples/check/welcome.yaml', '--value-format', 'ruby']),
          /--value-format must be 'default' or 'python', got 'ruby'/,
        );
        expectCliError(
          await cli([
            'compact',
            PIPELINE,
            '--session',
            's',
            '--summarizer',
            'magic',
            '--store',
            join(await tmp.dir(), 'x.db'),
          ]),
          /--summarizer must be extractive or model, got 'magic'/,
        );
        expectCliError(
          await cli(['compact', 'examples/compaction/long-chat.yaml']),
          /Case files are only planned: add --dry-run/,
        );
      },
    },
    {
      id: 'cli.extra-arguments',
      entry: 'CLI flags',
      tried: 'two agent files for `run`, one case file for `diff`, a positional for `migrate`',
      expected: '`run takes one agent file, got 2; pass the message with --message.` and the like',
      run: async () => {
        expectCliError(
          await cli(['run', PIPELINE, 'extra', '--message', 'x']),
          /run takes one agent file, got 2; pass the message with --message\./,
        );
        expectCliError(await cli(['diff', 'examples/coordinator.yaml']), /diff compares two case files, got 1/);
        expectCliError(
          await cli(['migrate', 'db']),
          /migrate takes no arguments, got "db"\. Name the store with --store\./,
        );
      },
    },
    {
      id: 'cli.model-string',
      entry: 'CLI flags',
      tried: '`--model nope:x`, `--model openai:gpt-4.1` with no key, `--model scripted:missing.yaml`',
      expected:
        'the forms model strings take; `No API key for OpenAI: OPENAI_API_KEY is not set.`; `Cannot read missing.yaml`; no store is created',
      run: async () => {
        const store = join(await tmp.dir(), 'store.db');
        expectCliError(
          await cli(['run', PIPELINE, '--model', 'nope:x', '--message', 'hi', '--store', store]),
          /Cannot use model 'nope:x': no provider is known for it\. Model strings look like gemini-2\.5-flash/,
        );
        expectCliError(
          await cli(['run', PIPELINE, '--model', 'openai:gpt-4.1', '--message', 'hi', '--store', store]),
          /No API key for OpenAI: OPENAI_API_KEY is not set\. Export OPENAI_API_KEY/,
        );
        expectCliError(
          await cli(['run', PIPELINE, '--model', 'scripted:missing.yaml', '--message', 'hi', '--store', store]),
          /Cannot read missing\.yaml: no such file/,
        );
        // Nothing was written: the store was never even created, and a reading command says so.
        const listed = await cli(['inspect', PIPELINE, '--session', 'any', '--store', store]);
        expect(listed.stderr).toMatch(/There is no store at .*store\.db\./);
      },
    },
    {
      id: 'cli.host-without-token',
      entry: 'CLI flags',
      tried: '`serve --host 0.0.0.0` without a token, and `--token " "`',
      expected:
        '`--host 0.0.0.0 reaches beyond this machine, so the server needs a token.`; `--token is empty`; nothing listens',
      run: async () => {
        expectCliError(
          await cli(['serve', PIPELINE, '--host', '0.0.0.0', '--store', 'memory', ...SCRIPTED]),
          /--host 0\.0\.0\.0 reaches beyond this machine, so the server needs a token\. Set AGENTCTX_TOKEN \(or --token\), or bind 127\.0\.0\.1\./,
        );
        expectCliError(
          await cli(['serve', PIPELINE, '--token', ' ', '--store', 'memory', ...SCRIPTED]),
          /--token is empty/,
        );
      },
    },
    {
      id: 'cli.store-unusable',
      entry: 'CLI flags',
      tried: '`--store` naming a folder, a file that is not a database, a path under a file',
      expected:
        '`Cannot open the SQLite store …: file is not a database. Check the path …`, exit 2, the file untouched; before the fix, `unexpected failure`, exit 1',
      run: async () => {
        const dir = await tmp.dir();
        const text = join(dir, 'notes.txt');
        await writeFile(text, 'not a database, just notes that are long enough to look like something');
        const args = (store: string) => ['run', PIPELINE, ...SCRIPTED, '--message', 'hi', '--store', store];
        expectCliError(
          await cli(args(dir)),
          /Cannot open the SQLite store .*: unable to open database file\. Check the path and its permissions/,
        );
        expectCliError(await cli(args(text)), /Cannot open the SQLite store .*notes\.txt: file is not a database\./);
        expectCliError(await cli(args(join(text, 'x.db'))), /Cannot open the SQLite store .*notes\.txt\/x\.db: /);
        expect(await readFile(text, 'utf8')).toBe(
          'not a database, just notes that are long enough to look like something',
        );
      },
    },
    {
      id: 'cli.store-url',
      entry: 'CLI flags',
      tried: 'a PostgreSQL URL that cannot be read, and one whose server is down, both with a password',
      expected:
        '`is not a valid PostgreSQL URL`; `Cannot open the PostgreSQL store at postgres://u@127.0.0.1:1/x: connect ECONNREFUSED`; the password never printed',
      run: async () => {
        const bad = await cli(['migrate', '--store', 'postgres://u:hunter2@[bad/x']);
        expectCliError(bad, /--store postgres:\/\/u@\[bad\/x is not a valid PostgreSQL URL\./);
        const down = await cli(['migrate', '--store', 'postgres://u:hunter2@127.0.0.1:1/x']);
        expectCliError(
          down,
          /Cannot open the PostgreSQL store at postgres:\/\/u@127\.0\.0\.1:1\/x: connect ECONNREFUSED/,
        );
        expect(bad.stderr + down.stderr).not.toContain('hunter2');
      },
    },
    {
      id: 'cli.real-binary',
      entry: 'CLI flags',
      tried: 'the built `bin/agentctx.js` with a bad option, without and with `--debug`',
      expected: 'exit 2 and one line; `--debug` adds the stack trace',
      run: async () => {
        const plain = await agentctx('inspect', 'examples/coordinator.yaml', '--agent', 'ghost');
        expect({ code: plain.code, lines: plain.stderr.trim().split('\n').length }).toEqual({ code: 2, lines: 1 });
        expect(plain.stderr).toMatch(
          /^error: No agent named 'ghost' in the tree\. The agents are: coordinator, math_agent\./,
        );
        const debug = await agentctx('inspect', 'examples/coordinator.yaml', '--agent', 'ghost', '--debug');
        expect(debug.code).toBe(2);
        expect(debug.stderr).toMatch(/\n\s+at /);
      },
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
