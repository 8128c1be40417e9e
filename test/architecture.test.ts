import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../src', import.meta.url).pathname;

type SourceFile = { path: string; layer: string; imports: string[]; lines: number };

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const files: SourceFile[] = walk(src).map((path) => {
  const text = readFileSync(path, 'utf8');
  const imports = [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? '');
  return { path, layer: layerOf(path), imports, lines: text.split('\n').length };
});

function layerOf(path: string): string {
  const parts = relative(src, path).split('/');
  if (parts[0] === 'stores' || parts[0] === 'models') return `${parts[0]}/${parts[1] ?? ''}`;
  return parts.length === 1 ? 'entry' : (parts[0] ?? '');
}

// Which layers each layer may import, and which packages (node: builtins are listed explicitly).
const RULES: Record<string, { layers: string[]; packages: string[] }> = {
  core: { layers: ['core'], packages: ['yaml'] },
  'stores/fs': { layers: ['core', 'stores/fs'], packages: ['node:fs/promises', 'node:path'] },
  'models/gemini': { layers: ['core', 'models/gemini'], packages: [] },
  testing: { layers: ['core', 'testing', 'stores/fs'], packages: ['vitest'] },
  cli: { layers: ['core', 'cli', 'stores/fs'], packages: ['node:fs', 'node:fs/promises', 'node:path', 'node:util'] },
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

  it('has no import cycles', () => {
    const graph = new Map(files.map((file) => [file.path, file.imports.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file.path), s).replace(/\.js$/, '.ts'))]));
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

  it('keeps source files small', () => {
    expect(files.filter((file) => file.lines > 400).map((file) => `${relative(src, file.path)}: ${file.lines} lines`)).toEqual([]);
  });
});
