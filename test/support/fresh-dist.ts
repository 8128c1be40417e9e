import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Vitest's global setup. Some tests run the built code, not src/: the fault children (test/fixtures/*.mjs import
// dist/), the CLI through bin/agentctx.js. `npm test` builds first; a bare `npx vitest run` after an edit of src/
// would test the code as it was. So before any test runs, every src/ module is compared with its dist/ counterpart,
// and when one is missing or older, dist/ is rebuilt (tsc -p tsconfig.build.json), loudly; if it is still stale
// after that, the run stops with the files named.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The src/ modules whose built file in dist/ is missing or older than they are. */
export function staleModules(): string[] {
  const stale: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        const built = join(ROOT, 'dist', relative(SRC, path)).replace(/\.ts$/, '.js');
        const builtTime = modified(built);
        if (builtTime === undefined || builtTime < (modified(path) ?? 0)) stale.push(relative(ROOT, path));
      }
    }
  };
  walk(SRC);
  return stale;
}

function modified(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

const listed = (files: readonly string[]) =>
  `${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`;

export default function setup(): void {
  const stale = staleModules();
  if (stale.length === 0) return;
  console.warn(
    `dist/ is older than src/ (${listed(stale)}): rebuilding it with tsc -p tsconfig.build.json, so tests that run dist/ test the code as it is now`,
  );
  let output = '';
  try {
    execFileSync(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', timeout: 300_000 });
  } catch (error) {
    // tsc reports type errors with a non-zero exit and still writes dist/; only a build that wrote nothing is fatal.
    output = String((error as { stdout?: Buffer }).stdout ?? error);
  }
  const still = staleModules();
  if (still.length > 0)
    throw new Error(
      `dist/ is still older than src/ after tsc -p tsconfig.build.json (${listed(still)}); tests that run dist/ would test stale code.\n${output.slice(0, 2000)}`,
    );
  if (output !== '')
    console.warn(`tsc -p tsconfig.build.json reported errors (dist/ was written anyway):\n${output.slice(0, 2000)}`);
}
