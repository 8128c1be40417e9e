import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { optionalPackage } from '../engine/util/optional-package.js';

const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);
// An optional package: JavaScript modules and agent files need no compiler.
const loadTsx = optionalPackage(
  { packages: ['tsx'], purpose: 'Running a TypeScript module' },
  () => import('tsx/esm/api'),
);

/** Whether a path names a module to import (JavaScript or TypeScript) rather than a YAML or JSON file to read. */
export function isAgentModulePath(path: string): boolean {
  const extension = extname(path).toLowerCase();
  return JAVASCRIPT.has(extension) || TYPESCRIPT.has(extension);
}

/**
 * Imports an agent module. TypeScript is compiled on the way in by tsx, scoped to this one import (nothing is
 * registered for the rest of the process), so `agentctx run agent.ts` works on every supported Node version with
 * no build step; tsx loads only when a TypeScript module is asked for.
 */
export async function importAgentModule(path: string, cwd: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(resolve(cwd, path)).href;
  if (!TYPESCRIPT.has(extname(path).toLowerCase())) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await loadTsx();
  try {
    return (await tsImport(url, { parentURL: import.meta.url })) as Record<string, unknown>;
  } catch (error) {
    throw compileError(path, error);
  }
}

// esbuild reports a syntax error over several lines ("Transform failed with 1 error:\n<file>:<line>:<column>: ERROR:
// <text>"); the first error's place and text are the news. Anything else (a module that throws as it loads) passes.
function compileError(path: string, error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  const first = /^Transform failed[^\n]*\n[^\n]*?:(\d+):(\d+): ERROR: ([^\n]+)/.exec(message);
  if (first === null) return error;
  return new ValidationError({
    subject: path,
    issues: [{ path: `line ${first[1]}, column ${first[2]}`, message: first[3] ?? '' }],
    hint: 'Fix the TypeScript syntax: agentctx compiles the module as it loads it (types are not checked).',
  });
}
