import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadSurface } from './surface.js';

// The README, the docs and the examples use the public surface only: every name a code block or an example imports
// from `agentctx…` is one that entry exports, and no example reaches into `src/`.

const root = new URL('../../', import.meta.url);
const IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"](agentctx[^'"]*)['"]/g;

async function files(dir: string, suffix: string): Promise<string[]> {
  const entries = await readdir(new URL(dir, root), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => `${entry.parentPath.slice(new URL(root).pathname.length)}/${entry.name}`.replace(/^\/+/, ''));
}

describe('the docs and examples', () => {
  it('import only names the public entries export', async () => {
    const surfaces = new Map(
      (await loadSurface()).map((surface) => [surface.entry, new Set([...surface.values, ...surface.types])]),
    );
    const sources = ['README.md', ...(await files('docs', '.md')), ...(await files('examples', '.ts'))];
    const problems: string[] = [];
    let checked = 0;
    for (const path of sources) {
      const text = await readFile(new URL(path, root), 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const entry = match[3] ?? '';
        const names = surfaces.get(entry);
        if (names === undefined) {
          problems.push(`${path}: imports from ${entry}, which is no entry of package.json`);
          continue;
        }
        for (const raw of (match[2] ?? '').split(',')) {
          const name =
            raw
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]
              ?.trim() ?? '';
          if (name === '') continue;
          checked++;
          if (!names.has(name)) problems.push(`${path}: ${entry} has no export '${name}'`);
        }
      }
      if (path.startsWith('examples/') && /from\s+['"](\.\.\/)+src\//.test(text))
        problems.push(`${path}: imports from src/ instead of the package`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
