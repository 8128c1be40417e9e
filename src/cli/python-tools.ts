import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import type { PythonToolDeclaration } from '../presets/python-tool.js';

// The script that reads a module's source with Python's `ast` and declares its functions as ADK does (shipped in
// assets/, beside the inspector's page).
const SCRIPT = fileURLToPath(new URL('../../assets/python/declare_tools.py', import.meta.url));
const TIME_LIMIT_MS = 20_000;

/**
 * Declares the Python function tools an agent file names, as ADK declares them, with Python's own parser and without
 * importing the module: `python3` (or `AGENTCTX_PYTHON`) runs the declaring script on the module's source. Modules
 * are looked for from the file's folder up, as ADK finds them from the folder that holds the agent's.
 */
export function declarePythonTools(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): (names: readonly string[], from: string) => Promise<Record<string, PythonToolDeclaration>> {
  const python = env['AGENTCTX_PYTHON'] ?? 'python3';
  return async (names, from) => {
    const roots: string[] = [];
    for (let dir = dirname(resolve(cwd, from)); !roots.includes(dir); dir = dirname(dir)) roots.push(dir);
    const output = await runPython(python, JSON.stringify({ roots, names }));
    return (JSON.parse(output) as { declarations: Record<string, PythonToolDeclaration> }).declarations;
  };
}

function runPython(python: string, input: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIME_LIMIT_MS);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(
        error.code === 'ENOENT'
          ? new AgentctxError({
              code: 'usage',
              message: `Declaring Python tools needs Python, and '${python}' is not there.`,
              hint: 'Install python3, or set AGENTCTX_PYTHON to the interpreter to use.',
            })
          : error,
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return done(stdout);
      const last = stderr.trim().split('\n').at(-1) ?? '';
      fail(
        new AgentctxError({
          code: 'invalid_input',
          message: `Declaring Python tools failed (${signal === null ? `exit ${code}` : `stopped after ${TIME_LIMIT_MS / 1000} s`}): ${last}`,
          hint: 'A module Python cannot parse is named in the agent file; fix its syntax.',
        }),
      );
    });
    child.stdin.end(input);
  });
}
