import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repositoryRoot } from '../support/cli.js';

/** google/adk-python's Agent Config samples, with what ADK 2.5.0 built from them (test/fixtures/adk-samples). */
export const FIXTURES = join(repositoryRoot, 'test', 'fixtures', 'adk-samples');

/** The samples of samples.tsv: id, root agent file, and what it shows. */
export const samples = (await readFile(join(FIXTURES, 'samples.tsv'), 'utf8'))
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [id = '', root = '', note = ''] = line.split('\t');
    return { id, root: join(FIXTURES, root), note };
  });

/**
 * A folder holding an `npx` that starts the recorded MCP server (test/fixtures/adk-samples/mcp): put first on the
 * PATH, the MCP samples' `npx -y @notionhq/notion-mcp-server` starts it, and nothing is downloaded.
 */
export async function npxShim(dir: string): Promise<string> {
  const shim = join(dir, 'bin');
  await mkdir(shim, { recursive: true });
  const server = join(FIXTURES, 'mcp', 'recorded-server.mjs');
  const listing = join(FIXTURES, 'mcp', 'notion-tools-list.json');
  await writeFile(join(shim, 'npx'), `#!/bin/sh\nexec "${process.execPath}" "${server}" "${listing}"\n`, {
    mode: 0o755,
  });
  return shim;
}
