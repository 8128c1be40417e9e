import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../providers/fake-server.js';
import { repositoryRoot } from '../support/cli.js';
import { readmeCommands, shellWords, type ReadmeCommand } from './readme-commands.js';
import { printedInspectArgs, readmeInspectLines, readmeProgram } from './readme-program.js';

// Every command the README shows is run here, as written (a store URL, a port or a host the README cannot know is
// the only thing replaced), and every line of output it shows must be in what the command printed. Commands run in
// a fresh folder holding the repository's examples, as a user's clone would, except `npm start`, which runs where the
// README runs it. A provider the README points at is a local server speaking its protocol.

const README = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
const commands = readmeCommands(README);
const bin = join(repositoryRoot, 'bin', 'agentctx.js');
const POSTGRES = process.env['TEST_POSTGRES_URL'];
const README_POSTGRES = 'postgres://agentctx@db.internal/agentctx';

let dir = '';
let openai: FakeServer;
const children: ChildProcessWithoutNullStreams[] = [];
/** Servers the README starts, by the URL it writes for them (`http://host:8080`). */
const servers = new Map<string, string>();
/** `export NAME=value` lines, for the commands after them. */
const exported: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-readme-'));
  await symlink(join(repositoryRoot, 'examples'), join(dir, 'examples'));
  openai = await startFakeServer(() => ({
    json: {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4.1-mini',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'A fine draft.' } }],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    },
  }));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await openai.close();
  await rm(dir, { recursive: true, force: true });
});

type Output = { code: number | null; stdout: string; stderr: string };

function start(
  program: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): { child: ChildProcessWithoutNullStreams; output: () => Output; done: Promise<Output> } {
  const child = spawn(program, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...exported, ...env } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Output>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, output: () => ({ code: child.exitCode, stdout, stderr }), done };
}

/** The README's words for this machine: the test's PostgreSQL for the example URL, a free port for a fixed one. */
function localized(words: string[]): string[] {
  return words.map((word, index) => {
    if (word === README_POSTGRES) return POSTGRES ?? word;
    if (words[index - 1] === '--port') return '0';
    return word;
  });
}

async function runAgentctx(command: ReadmeCommand): Promise<Output> {
  const long = command.words[2] === 'serve' || command.words[2] === 'web';
  // A server the README starts on its default port gets a free one here, so the test never collides.
  const args = localized([
    ...command.words.slice(2),
    ...(long && !command.words.includes('--port') ? ['--port', '0'] : []),
  ]);
  const started = start(process.execPath, [bin, ...args], dir, command.env);
  if (!long) return started.done;
  const ready = args[0] === 'serve' ? /listening on (http:\/\/[^\s]+)/ : /inspector on (http:\/\/[^\s]+)/;
  await expect.poll(() => ready.test(started.output().stdout), { timeout: 15_000 }).toBe(true);
  const url = (ready.exec(started.output().stdout)?.[1] ?? '').replace(/\/$/, '').replace('0.0.0.0', '127.0.0.1');
  servers.set(args[0] === 'serve' ? 'http://host:8080' : 'http://127.0.0.1:8090', url);
  const token = command.env['AGENTCTX_TOKEN'];
  // Each protocol's simplest route: agentctx's /healthz, ADK's /list-apps.
  const probe = args.includes('adk') ? '/list-apps' : '/healthz';
  const page = await fetch(
    args[0] === 'serve' ? `${url}${probe}` : url,
    token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
  );
  expect(page.status).toBe(200);
  // The test database outlives one run of this file: the sessions the README creates start from nothing, as in a new database.
  if (args[0] === 'serve') {
    for (const created of commands.filter((each) => each.words[0] === 'curl' && each.text.includes('"sessionId"'))) {
      const path = created.words.find((word) => word.startsWith('http://host:8080'))?.slice('http://host:8080'.length);
      const body = JSON.parse(created.words[created.words.indexOf('-d') + 1] ?? '{}') as { sessionId?: string };
      await fetch(`${url}${path}/${body.sessionId}`, {
        method: 'DELETE',
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
    }
  }
  return { ...started.output(), code: 0 };
}

/** `curl [-N] [-X METHOD] URL [-H 'name: value']… [-d body]`, against the server the README started. */
async function runCurl(command: ReadmeCommand): Promise<Output> {
  let method: string | undefined;
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  const words = command.words.slice(1);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '-N') continue;
    if (word === '-X') method = words[++i];
    else if (word === '-H') {
      const [name, ...value] = (words[++i] as string).split(':');
      headers[(name as string).trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') body = words[++i];
    else url = word;
  }
  for (const [written, actual] of servers) if (url.startsWith(written)) url = actual + url.slice(written.length);
  const response = await fetch(url, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { code: response.ok ? 0 : 22, stdout: text, stderr: response.ok ? '' : `HTTP ${response.status}` };
}

async function runNpm(command: ReadmeCommand): Promise<Output> {
  // npm start writes the report analyst's sessions where the README says: .agentctx/ in the clone (ignored by git).
  return start('npm', command.words.slice(1), repositoryRoot, command.env).done;
}

// A command's exit status, as the README means it: diff exits 1 when requests differ, --find 1 when nothing is found.
function expectedCode(command: ReadmeCommand): number {
  const words = command.words;
  if (words[1] === 'agentctx' && words[2] === 'diff')
    return command.output.some((line) => line.includes('the requests are identical')) ? 0 : 1;
  if (words.includes('--find') && command.output.some((line) => line.startsWith('not found:'))) return 1;
  return 0;
}

describe('README', () => {
  it('has exactly two Quick start commands: one installs and runs, one tests', () => {
    const quick = README.slice(
      README.indexOf('## Quick start'),
      README.indexOf('\n## ', README.indexOf('## Quick start') + 3),
    );
    expect(readmeCommands(quick).map((command) => command.text)).toEqual(['npm install && npm start', 'npm test']);
    const scripts = (
      JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['start']).toBeDefined();
    expect(scripts['test']).toBeDefined();
  });

  it('names only npm scripts that exist, and so does the benchmarks page', () => {
    const scripts = (
      JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const text = README + readFileSync(join(repositoryRoot, 'docs', 'benchmarks.md'), 'utf8');
    // `npm run -s bench:<name>` names a family; the table below it names each one.
    const named = [...text.matchAll(/npm run(?: -s)? ([\w:]+)/g)]
      .map((match) => match[1] as string)
      .filter((name) => !name.endsWith(':'));
    expect(named.length).toBeGreaterThan(3);
    for (const name of named) expect(scripts, `npm run ${name}`).toHaveProperty([name]);
  });

  it('splits words as a shell does', () => {
    expect(shellWords(`curl -H 'a: b' -d '{"x": "y z"}' "q\\"r" s\\ t`)).toEqual([
      'curl',
      '-H',
      'a: b',
      '-d',
      '{"x": "y z"}',
      'q"r',
      's t',
    ]);
  });

  it('runs the first program as written, twice (each run its own session), and its printed command shows the request the README shows', async () => {
    // Inside the package, so `import … from 'agentctx'` finds it as a user's install would; run from the fresh folder.
    const file = join(repositoryRoot, 'test-results', `readme-program-${process.pid}.ts`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, readmeProgram());
    try {
      const loader = pathToFileURL(join(repositoryRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
      const sessions = new Set<string>();
      for (const run of [1, 2]) {
        const result = await start(process.execPath, ['--import', loader, file], dir, {}).done;
        expect({ run, code: result.code, stderr: result.stderr }).toEqual({ run, code: 0, stderr: '' });
        expect(result.stdout).toContain('weather: Cloudy in Oslo, 18 °C.');
        const args = printedInspectArgs(result.stdout);
        sessions.add(args[args.indexOf('--session') + 1] ?? '');
        const shown = await start(process.execPath, [bin, ...args], dir, {}).done;
        expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 0, stderr: '' });
        const printed = shown.stdout.split('\n').map((line) => line.trimEnd());
        for (const line of readmeInspectLines())
          expect(printed, `the README shows "${line}"`).toContain(line.trimEnd());
      }
      expect(sessions.size).toBe(2);
    } finally {
      await rm(file, { force: true });
    }
  });

  // `npm install agentctx zod` is proven by test/package/packed-install.test.ts, which installs the packed package
  // into an empty project (from npm's cache) and runs the program there; it is not run in the clone.
  const runnable = commands.filter(
    (command) =>
      !(
        command.text === 'npm install && npm start' ||
        command.text === 'npm test' ||
        command.text === 'npm install agentctx zod'
      ),
  );
  // A curl to the README's server needs what the server started before it needed.
  let serverNeedsPostgres = false;
  for (const command of runnable) {
    if (command.words[2] === 'serve') serverNeedsPostgres = command.words.includes(README_POSTGRES);
    const needsPostgres =
      command.words.includes(README_POSTGRES) ||
      (serverNeedsPostgres && command.words.some((word) => word.startsWith('http://host:8080')));
    it.skipIf(needsPostgres && POSTGRES === undefined)(
      `line ${command.line}: ${command.text}`,
      { timeout: 120_000 },
      async () => {
        const [program] = command.words;
        if (program === 'export') {
          const [name, ...value] = (command.words[1] as string).split('=');
          // `…` stands for the reader's own key; a key must be header-safe text.
          exported[name as string] = value.join('=').replace('…', 'sk-readme-test');
          // The provider the README points at is a local server that speaks its protocol.
          if (name === 'OPENAI_API_KEY') exported['OPENAI_BASE_URL'] = `${openai.url}/v1`;
          return;
        }
        let result: Output;
        if (program === 'npx' && command.words[1] === 'agentctx') result = await runAgentctx(command);
        else if (program === 'curl') result = await runCurl(command);
        else if (program === 'npm') result = await runNpm(command);
        else throw new Error(`the README test does not know how to run '${program}' (line ${command.line}); teach it`);
        expect({ code: result.code, stderr: result.code === expectedCode(command) ? '' : result.stderr }).toEqual({
          code: expectedCode(command),
          stderr: '',
        });
        const printed = `${result.stdout}\n${result.stderr}`.split('\n').map((line) => line.trimEnd());
        for (const line of command.output) {
          if (line.trim() === '' || line.includes('…')) continue;
          expect(printed, `README line ${command.line} shows "${line}"`).toContain(line.trimEnd());
        }
      },
    );
  }
});
