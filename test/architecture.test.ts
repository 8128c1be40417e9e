import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../src', import.meta.url).pathname;

type SourceFile = { path: string; layer: string; imports: string[]; valueImports: string[]; lines: number };

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
}

const IMPORT = /(?:^|\n)\s*(import|export)\s(type\s)?[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const files: SourceFile[] = walk(src).map((path) => {
  const text = readFileSync(path, 'utf8');
  const matches = [...text.matchAll(IMPORT)];
  const imports = matches.map((match) => match[3] ?? match[4] ?? '');
  // `import type` leaves no edge at run time; cycles are checked on the edges that remain.
  const valueImports = matches.filter((match) => match[2] === undefined).map((match) => match[3] ?? match[4] ?? '');
  return { path, layer: layerOf(path), imports, valueImports, lines: text.split('\n').length };
});

function layerOf(path: string): string {
  const parts = relative(src, path).split('/');
  if (parts[0] === 'stores' || parts[0] === 'models') return `${parts[0]}/${parts[1] ?? ''}`;
  return parts.length === 1 ? 'entry' : (parts[0] ?? '');
}

// Which layers each layer may import, and which packages (node: builtins are listed explicitly).
const RULES: Record<string, { layers: string[]; packages: string[] }> = {
  core: { layers: ['core'], packages: ['yaml', 'gpt-tokenizer/encoding/o200k_base'] },
  'stores/fs': { layers: ['core', 'stores/fs'], packages: ['node:fs/promises', 'node:path'] },
  'stores/sql': { layers: ['core', 'stores/sql'], packages: [] },
  'stores/sqlite': { layers: ['core', 'stores/sql', 'stores/sqlite'], packages: ['better-sqlite3', 'node:fs', 'node:path'] },
  // pg is imported by one file, the driver: a test below checks it.
  'stores/postgres': { layers: ['core', 'stores/sql', 'stores/postgres'], packages: ['pg'] },
  'models/anthropic': { layers: ['core', 'models/anthropic'], packages: ['@anthropic-ai/sdk'] },
  'models/gemini': { layers: ['core', 'models/gemini'], packages: ['@google/genai'] },
  'models/openai': { layers: ['core', 'models/openai'], packages: ['openai'] },
  'models/scripted': { layers: ['core', 'models/scripted'], packages: [] },
  'models/registry': { layers: ['core', 'models/registry', 'models/gemini', 'models/openai', 'models/anthropic', 'models/scripted'], packages: [] },
  workspace: { layers: ['core', 'workspace'], packages: ['node:fs/promises', 'node:path'] },
  // The HTTP API: node:http and core only, no framework; the CLI composes it with a store and models.
  // Who may use a local HTTP service: shared by the API server and the inspector.
  access: { layers: ['access'], packages: ['node:crypto'] },
  server: { layers: ['core', 'access', 'server'], packages: ['node:http'] },
  // The web inspector: reads through the store contract; Hono, and its Node adapter in one file (checked below).
  web: { layers: ['core', 'access', 'web'], packages: ['hono', '@hono/node-server', 'node:fs/promises', 'node:http', 'node:path', 'node:url'] },
  testing: { layers: ['core', 'testing', 'stores/fs', 'models/scripted'], packages: ['vitest'] },
  cli: {
    layers: ['core', 'cli', 'access', 'stores/fs', 'stores/sqlite', 'stores/postgres', 'models/scripted', 'models/registry', 'workspace', 'server', 'web'],
    packages: ['node:fs', 'node:fs/promises', 'node:path', 'node:util', 'node:url', 'node:readline/promises'],
  },
  entry: { layers: ['core'], packages: [] },
};

describe('architecture', () => {
  it('has a rule for every layer', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(RULES[file.layer], `no rule for ${file.layer}`).toBeDefined();
  });

  it('keeps dependencies pointing one way', () => {
    const violations: string[] = [];
    for (const file of files) {
      const rule = RULES[file.layer] ?? { layers: [], packages: [] };
      for (const specifier of file.imports) {
        if (specifier.startsWith('.')) {
          const target = layerOf(resolve(dirname(file.path), specifier));
          if (!rule.layers.includes(target)) violations.push(`${relative(src, file.path)} → ${specifier} (${file.layer} may not import ${target})`);
        } else if (!rule.packages.includes(specifier)) {
          violations.push(`${relative(src, file.path)} → ${specifier} (package not allowed in ${file.layer})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycles at run time', () => {
    const graph = new Map(files.map((file) => [file.path, file.valueImports.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file.path), s).replace(/\.js$/, '.ts'))]));
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].map((path) => relative(src, path)).join(' → '));
        return;
      }
      state.set(node, 'visiting');
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('imports each database client in exactly one file, its driver', () => {
    const importers = (pkg: string) => files.filter((file) => file.imports.includes(pkg)).map((file) => relative(src, file.path));
    expect(importers('pg')).toEqual(['stores/postgres/pg-driver.ts']);
    expect(importers('better-sqlite3')).toEqual(['stores/sqlite/better-sqlite3-driver.ts']);
  });

  it('imports the Hono Node adapter in one file, and Hono nowhere outside the inspector', () => {
    const importers = (pkg: string) => files.filter((file) => file.imports.includes(pkg)).map((file) => relative(src, file.path));
    expect(importers('@hono/node-server')).toEqual(['web/serve-inspector.ts']);
    expect(importers('hono').every((path) => path.startsWith('web/'))).toBe(true);
  });

  it('keeps source files small', () => {
    expect(files.filter((file) => file.lines > 400).map((file) => `${relative(src, file.path)}: ${file.lines} lines`)).toEqual([]);
  });
});
