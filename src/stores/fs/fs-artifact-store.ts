import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { Artifact, ArtifactKey, StoredArtifact } from '../../contracts/artifact.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { SessionKey } from '../../contracts/session.js';
import { checkArtifactInput, checkArtifactScope, isUserArtifact } from '../../engine/session/artifact-rules.js';

export type FsArtifactStoreOptions = {
  /** Folder that holds every app's artifacts; created when needed. */
  root: string;
};

type Meta = { schemaVersion: 1; kind: Artifact['kind']; mimeType: string };

const META_FILE = 'meta.json';
const CONTENT_FILE = 'content';

/**
 * Artifacts as files: `<root>/<app>/<user>/(sessions/<session>|user)/<filename>/<version>/`, each version a folder
 * holding the bytes and a `meta.json` written last by rename, so a version is visible complete or not at all,
 * also after a crash. Versions are claimed with an exclusive `mkdir`, so concurrent writers never share one.
 */
export function createFsArtifactStore(options: FsArtifactStoreOptions): ArtifactStore {
  const userDir = (key: SessionKey) =>
    join(options.root, encodeSegment(key.appName, 'appName'), encodeSegment(key.userId, 'userId'), 'user');
  const sessionDir = (key: SessionKey) =>
    join(
      options.root,
      encodeSegment(key.appName, 'appName'),
      encodeSegment(key.userId, 'userId'),
      'sessions',
      encodeSegment(key.sessionId, 'sessionId'),
    );
  const scopeDir = (key: SessionKey, filename: string) => (isUserArtifact(filename) ? userDir(key) : sessionDir(key));
  const artifactDir = (key: ArtifactKey) => join(scopeDir(key, key.filename), encodeSegment(key.filename, 'filename'));

  const completeVersions = async (dir: string): Promise<number[]> => {
    const entries = await readdirOrEmpty(dir);
    const found: number[] = [];
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue;
      if ((await readdirOrEmpty(join(dir, entry))).includes(META_FILE)) found.push(Number(entry));
    }
    return found.sort((a, b) => a - b);
  };

  return {
    name: 'fs',

    async save(input: ArtifactKey & { artifact: Artifact }): Promise<number> {
      checkArtifactInput(input, input.artifact);
      const dir = artifactDir(input);
      await mkdir(dir, { recursive: true });
      const entries = (await readdirOrEmpty(dir)).filter((entry) => /^\d+$/.test(entry)).map(Number);
      let version = entries.length === 0 ? 0 : Math.max(...entries) + 1;
      for (;;) {
        try {
          await mkdir(join(dir, String(version)));
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          version += 1;
        }
      }
      const versionDir = join(dir, String(version));
      const { artifact } = input;
      await writeFile(join(versionDir, CONTENT_FILE), artifact.kind === 'text' ? artifact.text : artifact.data);
      const meta: Meta = { schemaVersion: 1, kind: artifact.kind, mimeType: artifact.mimeType };
      await writeFile(join(versionDir, `${META_FILE}.tmp`), JSON.stringify(meta));
      await rename(join(versionDir, `${META_FILE}.tmp`), join(versionDir, META_FILE));
      return version;
    },

    async load(input: ArtifactKey & { version?: number | undefined }): Promise<StoredArtifact | undefined> {
      checkArtifactInput(input, undefined, input.version);
      const dir = artifactDir(input);
      const version = input.version ?? (await completeVersions(dir)).at(-1);
      if (version === undefined) return undefined;
      const versionDir = join(dir, String(version));
      let meta: Meta;
      try {
        meta = JSON.parse(await readFile(join(versionDir, META_FILE), 'utf8')) as Meta;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      const bytes = await readFile(join(versionDir, CONTENT_FILE));
      return meta.kind === 'text'
        ? { kind: 'text', mimeType: meta.mimeType, text: bytes.toString('utf8'), version }
        : { kind: 'binary', mimeType: meta.mimeType, data: new Uint8Array(bytes), version };
    },

    async list(input: SessionKey): Promise<string[]> {
      checkArtifactScope(input);
      const names: string[] = [];
      for (const dir of [sessionDir(input), userDir(input)]) {
        for (const entry of await readdirOrEmpty(dir)) {
          // An entry this store did not make (its name is not one of its encodings) is not an artifact.
          const name = decodeSegment(entry);
          if (name !== undefined && (await completeVersions(join(dir, entry))).length > 0) names.push(name);
        }
      }
      return names.sort();
    },

    async listVersions(input: ArtifactKey): Promise<number[]> {
      checkArtifactInput(input);
      return completeVersions(artifactDir(input));
    },

    async delete(input: ArtifactKey & { version?: number | undefined }): Promise<void> {
      checkArtifactInput(input, undefined, input.version);
      const dir = artifactDir(input);
      if (input.version === undefined) {
        await rm(dir, { recursive: true, force: true });
        return;
      }
      // Its metadata first, so a reader never finds a version whose content is half gone.
      await rm(join(dir, String(input.version), META_FILE), { force: true });
      await rm(join(dir, String(input.version)), { recursive: true, force: true });
      if ((await completeVersions(dir)).length === 0) await rm(dir, { recursive: true, force: true });
    },
  };
}

// Most file systems allow 255 bytes in one name (Linux, macOS, Windows: 255 characters).
const MAX_SEGMENT_BYTES = 255;

// Every name becomes one safe path segment; dots are encoded too, so `.` and `..` cannot walk the tree. The names
// were checked first (`checkArtifactInput`): well-formed Unicode, so encoding cannot throw.
function encodeSegment(name: string, field: string): string {
  const segment = encodeURIComponent(name).replace(/\./g, '%2E').replace(/\*/g, '%2A');
  if (segment.length > MAX_SEGMENT_BYTES) {
    throw new ValidationError({
      subject: 'artifact',
      issues: [
        {
          path: field,
          message: `is too long for the file artifact store: ${segment.length} bytes as a file name, at most ${MAX_SEGMENT_BYTES}`,
        },
      ],
      hint: "Use a shorter name: characters other than letters, digits and - _ ! ~ ' ( ) take 3 bytes for each of their UTF-8 bytes.",
    });
  }
  return segment;
}

function decodeSegment(segment: string): string | undefined {
  try {
    const name = decodeURIComponent(segment);
    return encodeURIComponent(name).replace(/\./g, '%2E').replace(/\*/g, '%2A') === segment ? name : undefined;
  } catch {
    return undefined;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
