import { describe, expect, it } from 'vitest';
import { cli, expectCliError, repositoryRoot } from '../../test/support/cli.js';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import { ConflictError } from '../contracts/errors/conflict-error.js';
import { ModelError } from '../contracts/errors/model-error.js';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ProcessorError } from '../contracts/errors/processor-error.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { createInMemorySessionStore } from '../engine/session/in-memory-session-store.js';
import { EXIT_STATUS_BY_CODE, exitStatusOf } from './exit-status.js';
import type { CliIo } from './io.js';
import { main } from './main.js';
import { nodeOpeners, openRuntime, type Openers } from './runtime.js';

const PIPELINE = [
  'run',
  'examples/draft-and-review/pipeline.yaml',
  '--model',
  'scripted:examples/draft-and-review/script.yaml',
  '--store',
  'memory',
  '--message',
  'Write about X',
];

// `main` in this process, its runtime opened with these openers in place of the machine's.
async function cliWith(openers: Partial<Openers>, args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd: repositoryRoot,
    env: {},
    isTty: false,
  };
  const code = await main(args, io, (place) => openRuntime(place, { ...nodeOpeners, ...openers }));
  return { code, stdout, stderr };
}

describe('exit statuses', () => {
  it('gives bad input 2 and runtime failures 1, by the error code', () => {
    expect(exitStatusOf(new UsageError('--port must be a whole number.'))).toBe(2);
    expect(
      exitStatusOf(new ValidationError({ subject: 'agent.yaml', issues: [{ path: 'name', message: 'is required' }] })),
    ).toBe(2);
    expect(
      exitStatusOf(new NotFoundError({ resource: 'session', id: 's', message: 'Session s is not in the store.' })),
    ).toBe(2);
    expect(exitStatusOf(new AgentctxError({ code: 'missing_credentials', message: 'No API key for OpenAI.' }))).toBe(2);
    expect(
      exitStatusOf(
        new ProcessorError({
          processor: 'instructions',
          agent: 'a',
          cause: new AgentctxError({ code: 'missing_state_key', message: 'Context variable not found.' }),
        }),
      ),
    ).toBe(2);
    expect(
      exitStatusOf(new ModelError({ provider: 'openai', message: 'overloaded', status: 529, retryable: true })),
    ).toBe(1);
    expect(exitStatusOf(new ConflictError({ code: 'stale_session', message: 'The session changed.' }))).toBe(1);
    expect(exitStatusOf(new AgentctxError({ code: 'extension_failed', message: "Extension 'x' failed." }))).toBe(1);
    expect(
      exitStatusOf(new ProcessorError({ processor: 'mine', agent: 'a', cause: new TypeError('x is undefined') })),
    ).toBe(1);
    expect(exitStatusOf(new TypeError('x is undefined'))).toBe(1);
    // A code from another release of agentctx that this one does not know.
    expect(exitStatusOf(new AgentctxError({ code: 'future_code' as never, message: '?' }))).toBe(1);
    expect(new Set(Object.values(EXIT_STATUS_BY_CODE))).toEqual(new Set([1, 2]));
  });

  it('exits 2 through main for bad input: one line, nothing on stdout', async () => {
    expectCliError(
      await cli(['inspect', 'examples/coordinator.yaml', '--agent', 'ghost']),
      /^error: No agent named 'ghost' in the tree\./,
    );
  });

  it('exits 1 through main when running fails: a conflicting write, or an error that is not agentctx’s', async () => {
    // Another process created the session between the lookup and the create: a conflict, not bad input.
    const racing = createInMemorySessionStore();
    const conflicted = await cliWith(
      {
        store: async () => ({
          ...racing,
          getSession: async () => undefined,
          createSession: async () =>
            Promise.reject(new ConflictError({ code: 'already_exists', message: 'Session s1 already exists.' })),
        }),
      },
      [...PIPELINE, '--session', 's1'],
    );
    expect(conflicted).toEqual({ code: 1, stdout: '', stderr: 'error: Session s1 already exists.\n' });
    const broken = await cliWith({ model: async () => Promise.reject(new TypeError('boom')) }, PIPELINE);
    expect(broken).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: unexpected failure: boom (run again with --debug for details)\n',
    });
  });
});
