import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textArtifact } from '../../src/engine/session/artifacts.js';
import { createFsArtifactStore } from '../../src/stores/fs/fs-artifact-store.js';
import { testArtifactStore } from '../../src/testing/conformance/index.js';

const roots: string[] = [];
async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agentctx-artifacts-'));
  roots.push(root);
  return root;
}
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

testArtifactStore({ name: 'fs', create: async () => createFsArtifactStore({ root: await newRoot() }) });

describe('createFsArtifactStore', () => {
  const key = { appName: 'app', userId: 'u1', sessionId: 's1', filename: 'notes.txt' };

  it('ignores a version whose write never finished, and numbers the next save after it', async () => {
    const root = await newRoot();
    const store = createFsArtifactStore({ root });
    await store.save({ ...key, artifact: textArtifact('complete') });
    // A crash between claiming version 1 and renaming its meta.json leaves this behind.
    const dir = join(root, 'app', 'u1', 'sessions', 's1', 'notes%2Etxt', '1');
    await mkdir(dir);
    await writeFile(join(dir, 'content'), 'half-writ');
    expect(await store.load(key)).toMatchObject({ text: 'complete', version: 0 });
    expect(await store.listVersions(key)).toEqual([0]);
    expect(await store.save({ ...key, artifact: textArtifact('next') })).toBe(2);
    expect(await store.listVersions(key)).toEqual([0, 2]);
  });

  it('gives concurrent saves distinct versions', async () => {
    const store = createFsArtifactStore({ root: await newRoot() });
    const versions = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.save({ ...key, artifact: textArtifact(`v${i}`) })),
    );
    expect([...versions].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const texts = await Promise.all(versions.map((version) => store.load({ ...key, version })));
    expect(texts.map((artifact) => (artifact?.kind === 'text' ? artifact.text : '')).sort()).toEqual([
      'v0',
      'v1',
      'v2',
      'v3',
      'v4',
      'v5',
      'v6',
      'v7',
    ]);
  });

  it('never writes outside its root, whatever the names', async () => {
    const parent = await newRoot();
    const root = join(parent, 'root');
    const store = createFsArtifactStore({ root });
    await store.save({
      appName: '..',
      userId: '../..',
      sessionId: '/etc',
      filename: '../../../escape',
      artifact: textArtifact('x'),
    });
    expect(await readdir(parent)).toEqual(['root']);
  });
});
