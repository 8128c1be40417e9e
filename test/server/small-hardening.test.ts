import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { Model } from '../../src/contracts/model.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { State } from '../../src/engine/state/state.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import { createServer, type AgentctxServer } from '../../src/server/index.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { closeAdkServers, runBody, startAdkServer } from '../adk/adk-client.js';
import { weatherRunner } from '../adk/weather-app.js';
import { defineRows } from '../reliability/rows.js';
import { expectCliError, repositoryRoot } from '../support/cli.js';

// The smaller findings of the second outside attack: each a refusal that names its problem once and the fix.

const servers: AgentctxServer[] = [];
const run = promisify(execFile);

/** The built CLI, killed after 10 s: a file that is read without end must fail the row, not hang it. */
async function agentctxWithin(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repositoryRoot, 'bin', 'agentctx.js'), ...args], {
      cwd: repositoryRoot,
      timeout: 10_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string; killed?: boolean };
    return { code: failed.killed === true ? -1 : failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'http.adk-run-message',
      entry: 'HTTP API body',
      tried:
        "ADK's `/run` with `newMessage.role: \"model\"` and with empty `parts`; agentctx's run with empty `parts`; ADK's PATCH with `state_delta` and `stateDelta` both",
      expected:
        "400 naming `newMessage.role` (a message sent to the agent is the user's) and `newMessage.parts` (at least one part), each once in ADK's error text; the same for `message.parts` on agentctx's API; the twice-given field named by both its spellings",
      run: async () => {
        const call = await startAdkServer();
        expect((await call('POST', '/apps/weather_agent/users/u/sessions/s1')).status).toBe(200);
        const model = await call('POST', '/run', { ...runBody('u', 's1'), newMessage: { role: 'model', parts: [] } });
        expect(model.status).toBe(400);
        const text = (model.json as { error: string }).error;
        expect(text).toContain(
          "newMessage.role: a message sent to the agent is the user's; expected 'user', got 'model'",
        );
        expect(text).toContain('newMessage.parts: is empty');
        // Each problem once (before: the message named them, then the list of issues named them again).
        expect(text.split('newMessage.role').length).toBe(2);
        const twice = await call('PATCH', '/apps/weather_agent/users/u/sessions/s1', {
          state_delta: { a: 1 },
          stateDelta: { a: 2 },
        });
        expect((twice.json as { error: string }).error).toContain(
          'stateDelta: given twice, as state_delta and as stateDelta',
        );
        const runner = weatherRunner(createInMemorySessionStore());
        const server = createServer({ runner });
        servers.push(server);
        const { url } = await server.listen(0);
        await runner.createSession({ userId: 'u', sessionId: 's1' });
        const empty = await fetch(`${url}/apps/weather_agent/users/u/sessions/s1/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: { role: 'user', parts: [] } }),
        });
        expect(empty.status).toBe(400);
        expect(await empty.text()).toContain('message.parts: is empty');
      },
    },
    {
      id: 'http.adk-disconnect',
      entry: 'HTTP API body',
      tried: "a client of ADK's `/run_sse` that goes away while the model is still answering",
      expected:
        "the turn is aborted: the recorded call `aborted` and the turn's error event `aborted` (before: `model_error`, as if the model had failed)",
      run: async () => {
        // A model that answers only when its call is aborted, with the abort's reason.
        const waiting = (signal: AbortSignal | undefined) =>
          new Promise<never>((_resolve, reject) =>
            signal?.addEventListener('abort', () => reject(signal.reason as Error)),
          );
        const model: Model = {
          specificationVersion: 'v1',
          provider: 'waiting',
          modelId: 'waiting',
          generate: (_request, options) => waiting(options?.signal),
          async *stream(_request, options) {
            yield await waiting(options?.signal);
          },
        };
        const sessions = createInMemorySessionStore();
        const runner = createRunner({ agents: llmAgent({ name: 'waiter', instruction: 'Wait.' }), model, sessions });
        const server = createAdkServer({ runners: [runner], version: 'test' });
        servers.push(server);
        const { url } = await server.listen(0);
        await runner.createSession({ userId: 'u', sessionId: 's' });
        const client = new AbortController();
        const body = JSON.stringify({
          appName: 'waiter',
          userId: 'u',
          sessionId: 's',
          newMessage: { role: 'user', parts: [{ text: 'hi' }] },
          streaming: true,
        });
        const answered = fetch(`${url}/run_sse`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: client.signal,
        }).catch(() => undefined);
        const key = { appName: 'waiter', userId: 'u', sessionId: 's' };
        await expect.poll(async () => (await sessions.listModelCalls(key)).length).toBe(1);
        client.abort();
        await answered;
        await expect.poll(async () => (await sessions.getSession(key))?.events.at(-1)?.errorCode).toBe('aborted');
        expect((await sessions.listModelCalls(key)).map((call) => call.status)).toEqual(['aborted']);
      },
    },
    {
      id: 'state.empty-keys',
      entry: 'state',
      tried:
        "`state.add('', 1)`, `state.append('user:', …)` and `state.add('temp:', 1)` in a tool; ADK's PATCH with `{ \"stateDelta\": { \"\": 1 } }`",
      expected:
        'ValidationError naming the key as empty, or as a bare scope with the form to write instead; 400 for the PATCH; nothing written',
      run: async () => {
        const state = new State({});
        expect(() => state.add('', 1)).toThrow(ValidationError);
        expect(() => state.add('', 1)).toThrow(/it is empty/);
        expect(() => state.append('user:', 'x')).toThrow(
          /names the scope 'user:' and no key in it \(write 'user:name'\)/,
        );
        expect(() => state.add('temp:', 1)).toThrow(/names the scope 'temp:'/);
        expect(state.hasDelta()).toBe(false);
        const call = await startAdkServer();
        expect((await call('POST', '/apps/weather_agent/users/u/sessions/s2')).status).toBe(200);
        const patched = await call('PATCH', '/apps/weather_agent/users/u/sessions/s2', { stateDelta: { '': 1 } });
        expect(patched.status).toBe(400);
        expect((await call('GET', '/apps/weather_agent/users/u/sessions/s2')).json).toMatchObject({
          state: {},
          events: [],
        });
      },
    },
    {
      id: 'cli.device-files',
      entry: 'CLI flags',
      tried:
        '`inspect /dev/zero`, `inspect` of a named pipe nobody writes to; agent files whose `config_path` is /etc/passwd, /dev/zero, or a named pipe called `pipe.yaml`',
      expected:
        'each one line and exit 2 at once: the files named as not regular files; a `config_path` that is not a .yaml, .yml or .json file refused unread (before, the parse error quoted the first line of /etc/passwd, and /dev/zero was read for seconds); each named where it is, in the file\u2019s spelling (`sub_agents[0].config_path`)',
      run: async () => {
        const dir = await mkdtemp(join(tmpdir(), 'agentctx-devices-'));
        try {
          const pipe = join(dir, 'pipe');
          await run('mkfifo', [pipe]);
          await run('mkfifo', [join(dir, 'pipe.yaml')]);
          expectCliError(await agentctxWithin('inspect', '/dev/zero'), /\/dev\/zero: is not a regular file/);
          expectCliError(await agentctxWithin('inspect', pipe), /pipe: is not a regular file/);
          for (const [reference, said] of [
            [
              '/etc/passwd',
              /sub_agents\[0\]\.config_path: "\/etc\/passwd" is not an agent file: name a \.yaml, \.yml or \.json file/,
            ],
            ['/dev/zero', /sub_agents\[0\]\.config_path: "\/dev\/zero" is not an agent file/],
            ['pipe.yaml', /sub_agents\[0\]\.config_path: cannot read pipe\.yaml: is not a regular file/],
          ] as const) {
            await writeFile(join(dir, 'agent.yaml'), `name: a\nsub_agents:\n  - config_path: ${reference}\n`);
            const result = await agentctxWithin('inspect', join(dir, 'agent.yaml'));
            expectCliError(result, said);
            expect(result.stderr).not.toContain('root:');
          }
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    },
  ],
  {
    afterAll: async () => {
      await closeAdkServers();
      for (const server of servers.splice(0)) await server.close();
    },
  },
);
