import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { expect } from 'vitest';
import type { ArtifactStore } from '../../src/contracts/artifact-store.js';
import { textArtifact } from '../../src/engine/session/artifacts.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { createSqliteArtifactStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { defineRows } from '../reliability/rows.js';
import { scratch } from '../reliability/support.js';
import { expectRefused, fsArtifacts } from '../sessions/hostile-backends.js';

// Part 4: artifact names that are odd, long or look like paths, on every artifact store. Names are identifiers: a
// lone surrogate or a NUL is refused everywhere with the field named; the file store also refuses a name longer
// than one file name can be, and keeps every other name inside the folder of its owner.
const tmp = scratch();

const alice = { appName: 'app', userId: 'alice', sessionId: 's1' };
const bob = { appName: 'app', userId: 'bob', sessionId: 's1' };

// Names that look like paths, or like this store's own encoding: each must stay one artifact of alice's session.
// (`.` and `..` themselves are refused: no URL can name them.)
const PATH_LIKE = [
  '...',
  '.a',
  '../../../bob/user/user:profile.txt',
  'a/b',
  'a\\b',
  '%2e%2e',
  '%2E%2E%2Fx',
  'user:../../bob/x',
  '*',
  'CON',
  ' spaced ',
];

async function oddNames(store: ArtifactStore): Promise<void> {
  for (const [name, message] of [
    ['a\ud800.txt', /lone surrogate \(\\ud800\) at index 1/],
    ['\udfff', /lone surrogate/],
    ['a\u0000b', /NUL character/],
  ] as const) {
    await expectRefused(
      () => store.save({ ...alice, filename: name, artifact: textArtifact('x') }),
      'filename',
      message,
    );
    await expectRefused(() => store.load({ ...alice, filename: name }), 'filename', message);
    await expectRefused(() => store.listVersions({ ...alice, filename: name }), 'filename', message);
    await expectRefused(() => store.delete({ ...alice, filename: name }), 'filename', message);
  }
  await expectRefused(() => store.list({ ...alice, userId: 'al\ud800ice' }), 'userId', /lone surrogate/);
  await expectRefused(
    () => store.save({ ...alice, sessionId: 's\udc00', filename: 'a.txt', artifact: textArtifact('x') }),
    'sessionId',
    /lone surrogate/,
  );
  for (const name of ['..', '.'])
    await expectRefused(
      () => store.save({ ...alice, filename: name, artifact: textArtifact('x') }),
      'filename',
      /no URL can name/,
    );
  for (const name of PATH_LIKE)
    await store.save({ ...alice, filename: name, artifact: textArtifact(`text of ${name}`) });
  for (const name of PATH_LIKE)
    expect(await store.load({ ...alice, filename: name })).toMatchObject({ text: `text of ${name}` });
  expect(await store.list(alice)).toEqual([...PATH_LIKE].sort());
  expect(await store.list(bob)).toEqual([]);
  expect(await store.load({ ...bob, filename: 'user:profile.txt' })).toBeUndefined();
}

/** Every file under `root`, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

export const rows = defineRows(
  import.meta.url,
  'isolation',
  [
    {
      id: 'isolation.artifact-names',
      entry: 'artifact stores (files, SQLite, memory)',
      tried:
        'artifact names and keys with a lone surrogate or a NUL; names that look like paths (`...`, `../../../bob/user/user:profile.txt`, `a/b`, `%2E%2E%2Fx`, `user:../../bob/x`); a 300-character name, 30 emoji and a 300-character user id on the file store; folders in the store the store did not make',
      expected:
        'ValidationError naming `filename`, `userId` or `sessionId` on every store, for save, load, list, versions and delete (before the fix the file store threw a raw `URIError`); on files, a name longer than one file name can be is `filename: is too long for the file artifact store: 900 bytes as a file name, at most 255` (before: `ENAMETOOLONG`); `.` and `..` are refused when saved (no URL can name them); other path-like names are saved, loaded and listed back exactly, every file stays inside alice’s own folder, bob sees none; foreign folders are not listed (before: `URIError`)',
      run: async () => {
        await oddNames(createInMemoryArtifactStore());
        const sqlite = createSqliteArtifactStore({ path: join(await tmp.dir(), 'artifacts.db') });
        try {
          await oddNames(sqlite);
        } finally {
          await sqlite.close();
        }
        const files = await fsArtifacts();
        try {
          await oddNames(files.artifacts);
          const long = 'x'.repeat(300);
          const tooLong = /^is too long for the file artifact store: (900|360|300) bytes as a file name, at most 255$/;
          const refused = await expectRefused(
            () => files.artifacts.save({ ...alice, filename: '%'.repeat(300), artifact: textArtifact('x') }),
            'filename',
            tooLong,
          );
          expect(refused.hint).toMatch(/shorter name/);
          await expectRefused(
            () => files.artifacts.save({ ...alice, filename: long, artifact: textArtifact('x') }),
            'filename',
            tooLong,
          );
          await expectRefused(() => files.artifacts.load({ ...alice, filename: '😀'.repeat(30) }), 'filename', tooLong);
          await expectRefused(() => files.artifacts.list({ ...alice, userId: long }), 'userId', tooLong);
          // The longest name that fits is stored: 255 bytes as a file name.
          await files.artifacts.save({ ...alice, filename: 'y'.repeat(255), artifact: textArtifact('fits') });
          expect(await files.artifacts.load({ ...alice, filename: 'y'.repeat(255) })).toMatchObject({ text: 'fits' });
          for (const path of await filesUnder(files.root))
            expect(path.split(sep).slice(0, 2), path).toEqual(['app', 'alice']);
          // Folders someone else put there are not artifacts: listing skips them instead of failing to decode them.
          const session = join(files.root, 'app', 'alice', 'sessions', 's1');
          for (const foreign of ['not%ZZencoded', 'plain.txt', '%C0%AF'])
            await mkdir(join(session, foreign, '0'), { recursive: true });
          await writeFile(join(session, 'not%ZZencoded', '0', 'meta.json'), '{}');
          expect(await files.artifacts.list(alice)).toEqual([...PATH_LIKE, 'y'.repeat(255)].sort());
        } finally {
          await files.cleanup();
        }
      },
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
