import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The page's files: plain HTML, CSS and JavaScript modules in `assets/web/` at the package root, shipped as they are
 * (no build step). This file sits two folders below the root both as source (`src/web/`) and compiled (`dist/web/`),
 * so the same relative path finds them from a git clone, from `dist/` and from an installed package.
 */
export const DEFAULT_ASSETS_DIR: string = fileURLToPath(new URL('../../assets/web/', import.meta.url));

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};

export type Asset = { body: Uint8Array; type: string };

export type AssetFiles = {
  /** The file of that name (no folders), `undefined` when there is none. */
  get(name: string): Promise<Asset | undefined>;
};

/**
 * Serves only the files that are in the folder, by exact name, read once and kept in memory: no path from a request
 * ever reaches the file system.
 */
export function createAssetFiles(dir: string = DEFAULT_ASSETS_DIR): AssetFiles {
  let loaded: Promise<Map<string, Asset>> | undefined;
  const load = async (): Promise<Map<string, Asset>> => {
    const files = new Map<string, Asset>();
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const type = TYPES[entry.name.split('.').pop() ?? ''];
      if (!entry.isFile() || type === undefined) continue;
      files.set(entry.name, { body: new Uint8Array(await readFile(join(dir, entry.name))), type });
    }
    return files;
  };
  return {
    async get(name) {
      loaded ??= load().catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      return (await loaded).get(name);
    },
  };
}
