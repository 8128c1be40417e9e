import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedInspectArgs, readmeInspectLines, readmeProgram } from '../docs/readme-program.js';
import { repositoryRoot } from '../support/cli.js';
import { projectLockfile, type Lockfile } from './project-lockfile.js';

// `npm install agentctx`, as a user does it, without the registry: the built package is packed (`npm pack
// --ignore-scripts`), and an empty project that depends on the tarball — and on zod, which the README's program
// imports — is installed with `npm ci --offline --ignore-scripts` from a lockfile made from the repository's own
// (project-lockfile.ts), so every package comes from npm's cache at the version the repository was tested with. No
// optional peer is installed. Nothing compiles: the SQLite addon the repository's install built is copied in (same
// better-sqlite3 version, same Node). Then the README's program is type-checked with `tsc --strict` and run, and the
// command it prints is run with the installed CLI.

const MAX_PACKAGES = 45;
const MAX_BYTES = 65 * 1024 * 1024;
const OPTIONAL_PEERS = [
  '@ai-sdk/deepseek',
  '@ai-sdk/groq',
  '@ai-sdk/mistral',
  '@ai-sdk/provider',
  '@anthropic-ai/sdk',
  '@google/genai',
  'openai',
  'pg',
  '@modelcontextprotocol/sdk',
  'hono',
  '@hono/node-server',
  'tsx',
];
// The project's own packages, which agentctx does not bring: the program's schema library and Node's types for tsc.
const USERS_OWN = { dependencies: ['zod'], devDependencies: ['@types/node'] };

const work = mkdtempSync(join(tmpdir(), 'agentctx-packed-'));
const project = join(work, 'try-agentctx');
const sh = (program: string, args: string[], cwd: string, timeout = 120_000) =>
  execFileSync(program, args, { cwd, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
const cli = (args: string[]) =>
  spawnSync(process.execPath, [join(project, 'node_modules', 'agentctx', 'bin', 'agentctx.js'), ...args], {
    cwd: project,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NO_COLOR: '1' },
  });

type Installed = { name: string; path: string; bytes: number };
let installed: Installed[] = [];

beforeAll(() => {
  if (!existsSync(join(repositoryRoot, 'dist', 'index.js')))
    throw new Error('dist/ is not built: run `npm run build` (npm test builds first)');
  const packed = JSON.parse(
    sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], repositoryRoot),
  ) as { filename: string }[];
  const tarball = packed[0]?.filename ?? '';
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as Parameters<
    typeof projectLockfile
  >[0]['agentctx']['manifest'] & { devDependencies: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8')) as Lockfile;
  const versionOf = (name: string) => lock.packages[`node_modules/${name}`]?.version ?? '';
  const dependencies = Object.fromEntries(USERS_OWN.dependencies.map((name) => [name, versionOf(name)]));
  const devDependencies = Object.fromEntries(USERS_OWN.devDependencies.map((name) => [name, versionOf(name)]));
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'try-agentctx', private: true, type: 'module', dependencies: { agentctx: `file:../${tarball}`, ...dependencies }, devDependencies }, null, 2)}\n`,
  );
  const integrity = `sha512-${createHash('sha512')
    .update(readFileSync(join(work, tarball)))
    .digest('base64')}`;
  const lockfile = projectLockfile({
    lock,
    name: 'try-agentctx',
    agentctx: { manifest, tarball: `../${tarball}`, integrity },
    dependencies,
    devDependencies,
  });
  writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);
  sh('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], project);
  const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(project, addon, '..'), { recursive: true });
  copyFileSync(join(repositoryRoot, addon), join(project, addon));
  installed = packagesIn(join(project, 'node_modules'));
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every installed package (top-level, scoped and nested), with the bytes of its files (nested packages not counted twice). */
function packagesIn(modules: string, found: Installed[] = []): Installed[] {
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@')
      ? readdirSync(join(modules, entry.name), { withFileTypes: true })
          .filter((inner) => inner.isDirectory())
          .map((inner) => `${entry.name}/${inner.name}`)
      : [entry.name];
    for (const name of dirs) {
      const path = join(modules, name);
      found.push({ name, path, bytes: bytesIn(path) });
      if (existsSync(join(path, 'node_modules'))) packagesIn(join(path, 'node_modules'), found);
    }
  }
  return found;
}

function bytesIn(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += entry.name === 'node_modules' ? 0 : bytesIn(full);
    else total += lstatSync(full).size;
  }
  return total;
}

describe('npm install agentctx, packed and installed into an empty project', () => {
  it(`brings at most ${MAX_PACKAGES} packages and ${MAX_BYTES / 1024 / 1024} MB, and no optional peer`, () => {
    const own = new Set([...USERS_OWN.dependencies, ...USERS_OWN.devDependencies, 'undici-types']);
    const brought = installed.filter((each) => each.name !== 'agentctx' && !own.has(each.name));
    const bytes = installed.filter((each) => !own.has(each.name)).reduce((sum, each) => sum + each.bytes, 0);
    console.log(
      `npm install agentctx: ${brought.length} packages besides agentctx, ${(bytes / 1024 / 1024).toFixed(1)} MB with agentctx (largest: ${[
        ...installed,
      ]
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 3)
        .map((each) => `${each.name} ${(each.bytes / 1024 / 1024).toFixed(1)} MB`)
        .join(', ')})`,
    );
    expect(brought.length).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
    for (const peer of OPTIONAL_PEERS)
      expect(
        installed.map((each) => each.name),
        peer,
      ).not.toContain(peer);
    expect(installed.map((each) => each.name)).toEqual(
      expect.arrayContaining(['agentctx', 'better-sqlite3', 'yaml', 'gpt-tokenizer']),
    );
  });

  it("type-checks the README's program with tsc --strict against the installed declarations", () => {
    writeFileSync(join(project, 'weather.ts'), readmeProgram());
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          outDir: 'out',
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['weather.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project],
      { cwd: project, encoding: 'utf8', timeout: 120_000 },
    );
    expect({ status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` }).toEqual({ status: 0, output: '' });
  });

  it('runs the compiled program on the scripted model and SQLite, and the command it prints shows what the README shows', () => {
    const program = spawnSync(process.execPath, [join(project, 'out', 'weather.js')], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: program.status, stderr: program.stderr }).toEqual({ status: 0, stderr: '' });
    expect(program.stdout).toContain('weather: Sunny in Paris, 18 °C.');
    expect(program.stdout).toContain('weather: Cloudy in Oslo, 18 °C.');
    expect(existsSync(join(project, '.agentctx', 'agentctx.db'))).toBe(true);
    const shown = cli(printedInspectArgs(program.stdout));
    expect({ status: shown.status, stderr: shown.stderr }).toEqual({ status: 0, stderr: '' });
    const lines = shown.stdout.split('\n').map((line) => line.trimEnd());
    for (const line of readmeInspectLines()) expect(lines, `the README shows "${line}"`).toContain(line.trimEnd());
  });

  it('says in one line what to install when a PostgreSQL URL is used without pg (exit 2)', () => {
    const result = cli(['migrate', '--store', 'postgres://agentctx@127.0.0.1:9/agentctx']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error: A PostgreSQL store needs the package 'pg', which is not installed\..*Install it: npm install pg/,
    );
  });

  it('says what to install for the web inspector, and runs every other command without the optional packages', () => {
    const web = cli(['web', '--port', '0']);
    expect(web.status).toBe(2);
    expect(web.stderr).toContain('npm install hono @hono/node-server');
    const version = cli(['--version']);
    expect({ status: version.status, stdout: version.stdout.trim() }).toEqual({ status: 0, stdout: '0.1.0' });
  });
});
