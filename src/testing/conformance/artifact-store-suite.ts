import { describe, expect, it } from 'vitest';
import type { ArtifactStore } from '../../contracts/artifact-store.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { binaryArtifact, textArtifact } from '../../engine/session/artifacts.js';

export type ArtifactStoreSuiteOptions = {
  name: string;
  /** A new, empty, isolated store. */
  create: () => ArtifactStore | Promise<ArtifactStore>;
};

/** The behaviour every `ArtifactStore` must have; run it against your implementation with vitest. */
export function testArtifactStore(options: ArtifactStoreSuiteOptions): void {
  describe(`ArtifactStore contract: ${options.name}`, () => {
    const session = { appName: 'contract_app', userId: 'u1', sessionId: 's1' };

    it('numbers versions from 0 and loads the latest or a given one', async () => {
      const store = await options.create();
      expect(await store.save({ ...session, filename: 'notes.txt', artifact: textArtifact('one') })).toBe(0);
      expect(await store.save({ ...session, filename: 'notes.txt', artifact: textArtifact('two') })).toBe(1);
      expect(await store.load({ ...session, filename: 'notes.txt' })).toEqual({
        kind: 'text',
        mimeType: 'text/plain',
        text: 'two',
        version: 1,
      });
      expect(await store.load({ ...session, filename: 'notes.txt', version: 0 })).toMatchObject({
        text: 'one',
        version: 0,
      });
      expect(await store.load({ ...session, filename: 'notes.txt', version: 7 })).toBeUndefined();
      expect(await store.load({ ...session, filename: 'absent.txt' })).toBeUndefined();
      expect(await store.listVersions({ ...session, filename: 'notes.txt' })).toEqual([0, 1]);
    });

    it('keeps text and bytes exactly, with their MIME type', async () => {
      const store = await options.create();
      const bytes = new Uint8Array([0, 1, 2, 250, 255]);
      await store.save({ ...session, filename: 'pic.png', artifact: binaryArtifact(bytes, 'image/png') });
      await store.save({
        ...session,
        filename: 'doc.md',
        artifact: textArtifact('# héllo こんにちは\n', 'text/markdown'),
      });
      const pic = await store.load({ ...session, filename: 'pic.png' });
      expect(pic).toMatchObject({ kind: 'binary', mimeType: 'image/png', version: 0 });
      expect(pic?.kind === 'binary' ? [...pic.data] : []).toEqual([...bytes]);
      expect(await store.load({ ...session, filename: 'doc.md' })).toEqual({
        kind: 'text',
        mimeType: 'text/markdown',
        text: '# héllo こんにちは\n',
        version: 0,
      });
    });

    it("lists the session's artifacts and the user's user: artifacts, sorted", async () => {
      const store = await options.create();
      await store.save({ ...session, filename: 'b.txt', artifact: textArtifact('b') });
      await store.save({ ...session, filename: 'a.txt', artifact: textArtifact('a') });
      await store.save({ ...session, filename: 'user:profile', artifact: textArtifact('p') });
      await store.save({ ...session, sessionId: 's2', filename: 'other.txt', artifact: textArtifact('o') });
      await store.save({ ...session, userId: 'u2', filename: 'user:theirs', artifact: textArtifact('t') });
      expect(await store.list(session)).toEqual(['a.txt', 'b.txt', 'user:profile']);
      expect(await store.list({ ...session, sessionId: 's2' })).toEqual(['other.txt', 'user:profile']);
      expect(await store.load({ ...session, sessionId: 's2', filename: 'user:profile' })).toMatchObject({ text: 'p' });
      expect(await store.load({ ...session, userId: 'u2', filename: 'user:profile' })).toBeUndefined();
      expect(await store.load({ ...session, sessionId: 's2', filename: 'a.txt' })).toBeUndefined();
    });

    it('keeps names that look like paths as plain names', async () => {
      const store = await options.create();
      const names = ['../escape', 'a/b/c.txt', '...', '.a', 'meeting_notes.txt', 'ümlaut ✓.md', '%2E'];
      for (const filename of names) await store.save({ ...session, filename, artifact: textArtifact(filename) });
      expect(await store.list(session)).toEqual([...names].sort());
      for (const filename of names)
        expect(await store.load({ ...session, filename })).toMatchObject({ text: filename });
    });

    it('refuses a mimeType that is not a media type, such as one holding a line break', async () => {
      const store = await options.create();
      for (const mimeType of ['not a mime\r\nX-Injected: 1', 'text/plain\nX: 1', 'plain', 'text/', '/plain']) {
        await expect(
          store.save({ ...session, filename: 'm.txt', artifact: { kind: 'text', mimeType, text: 'x' } }),
        ).rejects.toMatchObject({ name: 'ValidationError', issues: [{ path: 'artifact.mimeType' }] });
      }
      await store.save({
        ...session,
        filename: 'm.txt',
        artifact: { kind: 'text', mimeType: 'text/markdown; charset=utf-8', text: 'x' },
      });
      expect(await store.load({ ...session, filename: 'm.txt' })).toMatchObject({
        mimeType: 'text/markdown; charset=utf-8',
      });
    });

    it("refuses to save '.' and '..', which no URL can name", async () => {
      const store = await options.create();
      for (const filename of ['.', '..']) {
        await expect(store.save({ ...session, filename, artifact: textArtifact('x') })).rejects.toMatchObject({
          name: 'ValidationError',
          issues: [{ path: 'filename' }],
        });
      }
      expect(await store.list(session)).toEqual([]);
    });

    it('deletes every version, and deleting what is absent is not an error', async () => {
      const store = await options.create();
      await store.save({ ...session, filename: 'x', artifact: textArtifact('1') });
      await store.save({ ...session, filename: 'x', artifact: textArtifact('2') });
      await store.delete({ ...session, filename: 'x' });
      await store.delete({ ...session, filename: 'x' });
      expect(await store.load({ ...session, filename: 'x' })).toBeUndefined();
      expect(await store.listVersions({ ...session, filename: 'x' })).toEqual([]);
      expect(await store.list(session)).toEqual([]);
    });

    it('deletes one version, keeping the others and their numbers; the name goes with its last version', async () => {
      const store = await options.create();
      for (const text of ['0', '1', '2'])
        await store.save({ ...session, filename: 'v.txt', artifact: textArtifact(text) });
      await store.delete({ ...session, filename: 'v.txt', version: 1 });
      expect(await store.listVersions({ ...session, filename: 'v.txt' })).toEqual([0, 2]);
      expect(await store.load({ ...session, filename: 'v.txt', version: 1 })).toBeUndefined();
      expect(await store.load({ ...session, filename: 'v.txt' })).toMatchObject({ text: '2', version: 2 });
      await store.delete({ ...session, filename: 'v.txt', version: 2 });
      expect(await store.load({ ...session, filename: 'v.txt' })).toMatchObject({ text: '0', version: 0 });
      expect(await store.save({ ...session, filename: 'v.txt', artifact: textArtifact('3') })).toBeGreaterThan(0);
      await store.delete({ ...session, filename: 'v.txt', version: 7 });
      for (const version of await store.listVersions({ ...session, filename: 'v.txt' }))
        await store.delete({ ...session, filename: 'v.txt', version });
      expect(await store.listVersions({ ...session, filename: 'v.txt' })).toEqual([]);
      expect(await store.list(session)).toEqual([]);
    });

    it('hands out copies of bytes', async () => {
      const store = await options.create();
      const bytes = new Uint8Array([1, 2, 3]);
      await store.save({ ...session, filename: 'b.bin', artifact: binaryArtifact(bytes, 'application/octet-stream') });
      bytes[0] = 9;
      const loaded = await store.load({ ...session, filename: 'b.bin' });
      if (loaded?.kind === 'binary') loaded.data[1] = 9;
      const again = await store.load({ ...session, filename: 'b.bin' });
      expect(again?.kind === 'binary' ? [...again.data] : []).toEqual([1, 2, 3]);
    });

    it('refuses an empty name, a bad version or a malformed artifact with a ValidationError', async () => {
      const store = await options.create();
      const codes = await Promise.all([
        store.save({ ...session, filename: '', artifact: textArtifact('x') }).catch((error: unknown) => error),
        store.load({ ...session, filename: 'x', version: -1 }).catch((error: unknown) => error),
        store
          .save({ ...session, filename: 'x', artifact: { kind: 'text', mimeType: '', text: 'x' } })
          .catch((error: unknown) => error),
        store
          .save({
            ...session,
            filename: 'x',
            artifact: { kind: 'binary', mimeType: 'a/b', data: 'nope' as unknown as Uint8Array },
          })
          .catch((error: unknown) => error),
      ]);
      for (const error of codes) {
        expect(AgentctxError.isInstance(error)).toBe(true);
        expect((error as AgentctxError).code).toBe('invalid_input');
      }
      expect(await store.list(session)).toEqual([]);
    });
  });
}
