import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { nodeOpeners, openRuntime, type Openers } from './runtime.js';

// Every command reaches stores and models through the runtime `main` opens for it, and every store it opened is
// closed by the time `main` returns: on success, on bad input found after opening, and when a server stops.

const AGENT = 'name: helper\nmodel: scripted:script.yaml\ninstruction: Answer briefly.\n';
const SCRIPT = 'rules: []\nfallback:\n  text: Noted.\n  usage: { promptTokens: 50, outputTokens: 2 }\n';

let dir = '';
let db = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-runtime-'));
  db = join(dir, 'sessions.db');
  await writeFile(join(dir, 'agent.yaml'), AGENT);
  await writeFile(join(dir, 'script.yaml'), SCRIPT);
  await writeFile(join(dir, 'case.yaml'), 'agent: agent.yaml\n');
  const first = await run(['run', 'agent.yaml', '--store', db, '--session', 's1', '--message', 'Hello']);
  expect(first.code).toBe(0);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

type Run = { code: number; stdout: string; stderr: string; log: string[] };

// `main` in this process with openers that log each store opened and closed, and each model resolved.
async function run(args: string[], during?: (output: () => string) => Promise<void>): Promise<Run> {
  const log: string[] = [];
  const shown = (value: string | undefined) => (value === db ? 'db' : (value ?? 'default'));
  const watched = <T extends { close(): Promise<void> }>(store: T, value: string | undefined, what = ''): T => {
    log.push(`open ${what}${shown(value)}`);
    return new Proxy(store, {
      get(target, property) {
        if (property === 'close') return () => (log.push(`close ${what}${shown(value)}`), target.close());
        const member: unknown = Reflect.get(target, property, target);
        return typeof member === 'function' ? member.bind(target) : member;
      },
    });
  };
  const openers: Openers = {
    store: async (value, cwd) => watched(await nodeOpeners.store(value, cwd), value),
    sqlStore: async (value, cwd) => {
      const opened = await nodeOpeners.sqlStore(value, cwd);
      return { ...opened, store: watched(opened.store, value) };
    },
    artifacts: async (value, cwd) => watched(await nodeOpeners.artifacts(value, cwd), value, 'artifacts '),
    model: (name, cwd, env) => (log.push(`model ${name}`), nodeOpeners.model(name, cwd, env)),
  };
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd: dir,
    env: {},
    isTty: false,
  };
  const done = main(args, io, (place) => openRuntime(place, openers));
  if (during !== undefined) await during(() => stdout);
  const code = await done;
  return { code, stdout, stderr, log };
}

// Waits for the line a server prints once it listens, then stops it as Ctrl-C would.
function stopOnceListening(pattern: RegExp) {
  return async (output: () => string) => {
    while (!pattern.test(output())) await new Promise((resolve) => setTimeout(resolve, 10));
    process.emit('SIGINT', 'SIGINT');
  };
}

async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('the CLI runtime', () => {
  it('run: resolves the models the agents name, then opens the stores (sessions, artifacts beside them), and closes them', async () => {
    const result = await run(['run', 'agent.yaml', '--store', db, '--session', 's1', '--message', 'Again']);
    expect(result.code).toBe(0);
    expect(result.log).toEqual([
      'model scripted:script.yaml',
      'open db',
      'open artifacts db',
      'close artifacts db',
      'close db',
    ]);
    const once = await run([
      'run',
      'agent.yaml',
      '--store',
      'memory',
      '--model',
      'scripted:script.yaml',
      '--message',
      'Hi',
    ]);
    expect(once.log).toEqual([
      'model scripted:script.yaml',
      'open memory',
      'open artifacts memory',
      'close artifacts memory',
      'close memory',
    ]);
  });

  it('compact, inspect, tokens and migrate open the store through it and close it', async () => {
    const compact = await run([
      'compact',
      'agent.yaml',
      '--session',
      's1',
      '--store',
      db,
      '--interval',
      '1',
      '--overlap',
      '0',
      '--summarizer',
      'model',
      '--json',
    ]);
    expect(compact.code).toBe(0);
    expect(compact.log).toEqual(['model scripted:script.yaml', 'open db', 'close db']);
    expect(
      (
        await run([
          'compact',
          'agent.yaml',
          '--session',
          's1',
          '--store',
          db,
          '--interval',
          '1',
          '--overlap',
          '0',
          '--dry-run',
        ])
      ).log,
    ).toEqual(['open db', 'close db']);
    expect((await run(['inspect', 'agent.yaml', '--session', 's1', '--store', db, '--call', '1'])).log).toEqual([
      'open db',
      'close db',
    ]);
    expect((await run(['tokens', 'agent.yaml', '--session', 's1', '--store', db])).log).toEqual([
      'open db',
      'close db',
    ]);
    expect((await run(['migrate', '--store', db])).log).toEqual(['open db', 'close db']);
  });

  it('closes what it opened when the command fails after opening it', async () => {
    const ghost = await run(['inspect', 'agent.yaml', '--session', 'ghost', '--store', db]);
    expect({ code: ghost.code, log: ghost.log }).toEqual({ code: 2, log: ['open db', 'close db'] });
    const { port, server } = await takenPort();
    try {
      const serve = await run(['serve', 'agent.yaml', '--store', db, '--port', String(port)]);
      expect(serve).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/is already in use/),
        log: ['model scripted:script.yaml', 'open db', 'open artifacts db', 'close artifacts db', 'close db'],
      });
      const web = await run(['web', '--store', db, '--port', String(port)]);
      expect(web).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/is already in use/),
        log: ['open db', 'close db'],
      });
    } finally {
      server.close();
    }
  });

  it('serve and web keep the store open while they listen, and close it when stopped', async () => {
    const serve = await run(['serve', 'agent.yaml', '--store', db, '--port', '0'], stopOnceListening(/^listening on /));
    expect({ code: serve.code, log: serve.log }).toEqual({
      code: 0,
      log: ['model scripted:script.yaml', 'open db', 'open artifacts db', 'close artifacts db', 'close db'],
    });
    const web = await run(['web', '--store', db, '--port', '0'], stopOnceListening(/^inspector on /));
    expect({ code: web.code, log: web.log }).toEqual({ code: 0, log: ['open db', 'close db'] });
  });

  it('opens nothing for commands that read files only, or stop before opening', async () => {
    expect((await run(['inspect', 'case.yaml'])).log).toEqual([]);
    expect((await run(['diff', 'case.yaml', 'case.yaml'])).log).toEqual([]);
    const noKey = await run(['run', 'agent.yaml', '--model', 'openai:gpt-4.1', '--store', db, '--message', 'Hi']);
    expect({ code: noKey.code, log: noKey.log }).toEqual({ code: 2, log: ['model openai:gpt-4.1'] });
  });
});
