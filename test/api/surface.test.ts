import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadSurface, renderSurface, SURFACE_PATH, type EntrySurface } from './surface.js';

// The public surface cannot change by accident: the committed page lists every name of every entry, and the
// built entries export exactly the values their files list.
describe('the public API', () => {
  let surfaces: EntrySurface[] = [];

  it('matches docs/api-surface.md (regenerate with npm run api:surface after a deliberate change)', async () => {
    surfaces = await loadSurface();
    const committed = await readFile(new URL(`../../${SURFACE_PATH}`, import.meta.url), 'utf8').catch(() => '');
    expect(committed, `${SURFACE_PATH} is out of date: run \`npm run api:surface\` and commit the result`).toBe(
      renderSurface(surfaces),
    );
  });

  it('keeps the root entry small: at most 80 names', () => {
    const root = surfaces.find((surface) => surface.entry === 'agentctx');
    expect(root).toBeDefined();
    expect((root?.values.length ?? 0) + (root?.types.length ?? 0)).toBeLessThanOrEqual(80);
  });

  it('keeps the stable surface at most 450 names, and agentctx/unstable at most 150', () => {
    const count = (surface: EntrySurface) => surface.values.length + surface.types.length;
    const unstable = surfaces.filter((surface) => surface.entry === 'agentctx/unstable');
    expect(unstable).toHaveLength(1);
    expect(
      surfaces
        .filter((surface) => surface.entry !== 'agentctx/unstable')
        .reduce((sum, surface) => sum + count(surface), 0),
    ).toBeLessThanOrEqual(450);
    expect(count(unstable[0] as EntrySurface)).toBeLessThanOrEqual(150);
  });

  it('exports at run time exactly the values each entry lists', async () => {
    for (const surface of surfaces) {
      const module = (await import(
        new URL(`../../${surface.source.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js')}`, import.meta.url).href
      )) as Record<string, unknown>;
      expect(Object.keys(module).sort(), surface.entry).toEqual([...surface.values].sort());
    }
  });

  it('exports no internal helper (names the review found in the old root) from any entry', () => {
    const all = surfaces.flatMap((surface) => [...surface.values, ...surface.types]);
    for (const internal of [
      'reprFloat',
      'buildContents',
      'ContentsCache',
      'SUMMARY_HEADING',
      'findAgentToRun',
      'firstResult',
      'insertInstructionMessages',
      'isOtherAgentReply',
    ]) {
      expect(all, internal).not.toContain(internal);
    }
  });
});
