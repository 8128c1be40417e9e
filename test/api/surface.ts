import { readFile } from 'node:fs/promises';

// The public surface of the package: every name each entry of package.json's `exports` offers, read from the entry
// files (explicit re-export lists, so the names are all in sight) and checked against what the built entry exports.

export const SURFACE_PATH = 'docs/api-surface.md';

const root = new URL('../../', import.meta.url);

export type EntrySurface = { entry: string; source: string; values: string[]; types: string[] };

const EXPORT = /export\s+(type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]+['"]/g;

/** The names an entry file re-exports, values and types apart, sorted. */
export function namesOf(text: string): { values: string[]; types: string[] } {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const match of text.matchAll(EXPORT)) {
    const typeOnly = match[1] !== undefined;
    for (const raw of (match[2] ?? '').split(',')) {
      const item = raw.trim();
      if (item === '') continue;
      const isType = typeOnly || item.startsWith('type ');
      const name =
        item
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .at(-1)
          ?.trim() ?? '';
      (isType ? types : values).add(name);
    }
  }
  const sort = (set: Set<string>) => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { values: sort(values), types: sort(types) };
}

/** Every entry of the package, in the order package.json lists them. */
export async function loadSurface(): Promise<EntrySurface[]> {
  const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const surfaces: EntrySurface[] = [];
  for (const [entry, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    const source = target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    const names = namesOf(await readFile(new URL(source, root), 'utf8'));
    surfaces.push({ entry: entry === '.' ? 'agentctx' : `agentctx/${entry.slice(2)}`, source, ...names });
  }
  return surfaces;
}

/** `docs/api-surface.md`: the page the test compares with what the entries export. */
export function renderSurface(surfaces: readonly EntrySurface[]): string {
  const count = (surface: EntrySurface) => surface.values.length + surface.types.length;
  const unstable = surfaces
    .filter((surface) => surface.entry === 'agentctx/unstable')
    .reduce((sum, surface) => sum + count(surface), 0);
  const stable = surfaces.reduce((sum, surface) => sum + count(surface), 0) - unstable;
  const lines = [
    '# Public API surface',
    '',
    'Every name the package offers, per entry point of `package.json`. Generated from the entry files by',
    '`npm run api:surface`; `test/api/surface.test.ts` fails when an entry changes and this page was not regenerated,',
    'so a change to the public surface is always a deliberate, reviewed one.',
    '',
    `The stable entries offer ${stable} names in all (at most 450); \`agentctx/unstable\` offers ${unstable} (at most 150), which`,
    "may change in any release: the providers' wire converters and wire types, the built-in processors one by one,",
    'compaction planning and other lower-level helpers.',
    '',
  ];
  for (const surface of surfaces) {
    lines.push(
      `## \`${surface.entry}\``,
      '',
      `${surface.values.length} values, ${surface.types.length} types (\`${surface.source}\`).`,
      '',
    );
    if (surface.values.length > 0) lines.push(`- values: ${surface.values.map((name) => `\`${name}\``).join(', ')}`);
    if (surface.types.length > 0) lines.push(`- types: ${surface.types.map((name) => `\`${name}\``).join(', ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
