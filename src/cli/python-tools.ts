import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import type { Tool } from '../contracts/tool.js';
import type { PythonObject, PythonSchema, PythonToolDeclaration } from '../presets/python-tool.js';

// The scripts, shipped in assets/ beside the inspector's page: one reads a module's source with Python's `ast` and
// declares its functions as ADK does; the other imports the module and runs one function.
const DECLARE = fileURLToPath(new URL('../../assets/python/declare_tools.py', import.meta.url));
const RUN = fileURLToPath(new URL('../../assets/python/run_tool.py', import.meta.url));
const TIME_LIMIT_MS = 20_000;

/** The folders a module is looked for in: the named file's folder, then each one above it (ADK imports from above). */
function rootsOf(cwd: string, from: string): string[] {
  const roots: string[] = [];
  for (let dir = dirname(resolve(cwd, from)); !roots.includes(dir); dir = dirname(dir)) roots.push(dir);
  return roots;
}

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
    const output = await runPython(
      python,
      DECLARE,
      JSON.stringify({ roots: rootsOf(cwd, from), names }),
      undefined,
      TIME_LIMIT_MS,
    );
    return (JSON.parse(output) as { declarations: Record<string, PythonToolDeclaration> }).declarations;
  };
}

/** Reads module-level objects (an agent a `code:` reference names) from their source with `ast`, running nothing. */
export function readPythonObjects(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): (names: readonly string[], from: string) => Promise<Record<string, PythonObject>> {
  const python = env['AGENTCTX_PYTHON'] ?? 'python3';
  return async (names, from) => {
    const input = JSON.stringify({ roots: rootsOf(cwd, from), objects: names });
    return (
      JSON.parse(await runPython(python, DECLARE, input, undefined, TIME_LIMIT_MS)) as {
        objects: Record<string, PythonObject>;
      }
    ).objects;
  };
}

/**
 * Reads the pydantic classes agent files name as `output_schema`, from their source with `ast`, running nothing: each
 * class's JSON Schema and the parameters ADK declares `set_model_response` with for it, or why it has none.
 */
export function readPythonSchemas(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): (names: readonly string[], from: string) => Promise<Record<string, PythonSchema>> {
  const python = env['AGENTCTX_PYTHON'] ?? 'python3';
  return async (names, from) => {
    const input = JSON.stringify({ roots: rootsOf(cwd, from), schemas: names });
    return (
      JSON.parse(await runPython(python, DECLARE, input, undefined, TIME_LIMIT_MS)) as {
        schemas: Record<string, PythonSchema>;
      }
    ).schemas;
  };
}

type Ran = {
  result?: unknown;
  error?: string;
  stateDelta?: Record<string, unknown>;
  actions?: { escalate?: boolean; transferToAgent?: string; skipSummarization?: boolean };
  standIns?: string[];
};

/**
 * Runs a Python function tool an agent file names, in a Python process of its own per call (`python3` or
 * `AGENTCTX_PYTHON`): the module is imported from the folder ADK would import it from, the function called with the
 * model's arguments and a tool context (the session's state, whose writes come back as state changes, and ADK's
 * actions: escalate, transfer, skip summarization). Its result is the tool's; what it raises goes back to the model.
 */
export function runPythonTool(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  warn?: (message: string) => void,
): (name: string, from: string) => NonNullable<Tool['execute']> {
  const python = env['AGENTCTX_PYTHON'] ?? 'python3';
  return (name, from) => {
    const cut = name.lastIndexOf('.');
    const request = { roots: rootsOf(cwd, from), module: name.slice(0, cut), function: name.slice(cut + 1) };
    return async (args, context) => {
      const input = {
        ...request,
        args,
        state: context.state.toRecord(),
        context: {
          functionCallId: context.functionCallId,
          agentName: context.agentName,
          invocationId: context.invocationId,
        },
      };
      const ran = JSON.parse(await runPython(python, RUN, JSON.stringify(input), context.signal)) as Ran;
      // The google packages the tool's module imports were not installed: it ran with the bridge's stand-ins.
      if (ran.standIns !== undefined && ran.standIns.length > 0)
        warn?.(
          `Python tools run with agentctx's stand-ins for ${ran.standIns.join(' and ')}, which ${python} does not have: ToolContext's state and actions as ADK's; install google-adk to run them with ADK's own`,
        );
      if (ran.error !== undefined) throw new Error(ran.error);
      for (const [key, value] of Object.entries(ran.stateDelta ?? {})) context.state.set(key, value);
      if (ran.actions?.escalate === true) context.actions.escalate = true;
      if (ran.actions?.skipSummarization === true) context.actions.skipSummarization = true;
      if (ran.actions?.transferToAgent !== undefined) context.actions.transferToAgent = ran.actions.transferToAgent;
      return ran.result;
    };
  };
}

function runPython(
  python: string,
  script: string,
  input: string,
  signal?: AbortSignal,
  limitMs?: number,
): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(python, [script], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(signal === undefined ? {} : { signal }),
    });
    let stdout = '';
    let stderr = '';
    // Declaring has a time limit of its own; a tool's run is limited by the runner (--tool-timeout), through `signal`.
    const timer = limitMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(
        error.code === 'ENOENT'
          ? new AgentctxError({
              code: 'usage',
              message: `Python tools need Python, and '${python}' is not there.`,
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
          message: `Python stopped (${signal === null ? `exit ${code}` : `by ${signal}`}): ${last}`,
          hint: 'A module Python cannot read is named in the agent file; its error is above.',
        }),
      );
    });
    child.stdin.end(input);
  });
}
