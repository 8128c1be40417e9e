import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Runs code that may hang — a catastrophic regular expression, a deadlock, an endless loop — in a child process that
// is killed when it takes too long. vitest's `testTimeout` works through the event loop, so it cannot stop
// synchronous code: a test that calls such code directly freezes the whole suite. Through `inChild` the test gets
// `{ kind: 'timed-out' }` after `timeoutMs` and fails like any other.

/** What became of code run by `inChild`. */
export type ChildOutcome<T> =
  | { kind: 'returned'; value: T; ms: number }
  | { kind: 'threw'; error: { name: string; message: string; stack?: string; code?: unknown }; ms: number }
  /** The code did not finish within `timeoutMs`; the child (and any process it started) was killed. */
  | { kind: 'timed-out'; timeoutMs: number }
  /** The child ended before the code finished: `process.exit`, a crash, a signal. */
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stderr: string; ms: number };

export type InChildOptions = {
  /** Killed after this many milliseconds (default 5,000). */
  timeoutMs?: number;
  /** Arguments for the function, copied into the child by structured clone. */
  args?: readonly unknown[];
};

/** What the child runs: a module (TypeScript or JavaScript) and the name of its exported function. */
export type ChildModule = { module: string | URL; exportName: string };

const RUNNER = fileURLToPath(new URL('./in-child-runner.ts', import.meta.url));

/**
 * Runs `code` in a child Node.js process with a kill timeout and tells what became of it. `code` is either a module
 * and one of its exported functions, or a self-contained function (it is sent as source text, so it may use its
 * arguments and `await import(...)` of absolute URLs, but no variable from around it). A value returned (or
 * resolved) must survive structured clone.
 */
export function inChild<T = unknown>(
  code: ChildModule | ((...args: never[]) => T | Promise<T>),
  options: InChildOptions = {},
): Promise<ChildOutcome<Awaited<T>>> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const job =
    typeof code === 'function'
      ? { source: code.toString(), args: options.args ?? [] }
      : { module: moduleUrl(code.module), exportName: code.exportName, args: options.args ?? [] };
  const started = performance.now();
  // Its own process group, so that a timeout kills whatever the code started as well.
  const child = spawn(process.execPath, ['--import', 'tsx', RUNNER], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
    detached: true,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
  return new Promise((resolve, reject) => {
    let outcome: ChildOutcome<Awaited<T>> | undefined;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      outcome ??= { kind: 'timed-out', timeoutMs };
      killGroup();
    }, timeoutMs);
    child.on(
      'message',
      (
        message:
          | { kind: 'returned'; value: Awaited<T> }
          | { kind: 'threw'; error: { name: string; message: string; stack?: string; code?: unknown } },
      ) => {
        const ms = performance.now() - started;
        outcome ??=
          message.kind === 'returned'
            ? { kind: 'returned', value: message.value, ms }
            : { kind: 'threw', error: message.error, ms };
        killGroup();
      },
    );
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // Resolved only once the child is gone, so no test goes on with it still running.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve(outcome ?? { kind: 'exited', code, signal, stderr, ms: performance.now() - started });
    });
    child.send(job);
  });
}

const moduleUrl = (module: string | URL): string =>
  module instanceof URL ? module.href : module.startsWith('file:') ? module : new URL(module, 'file://').href;
