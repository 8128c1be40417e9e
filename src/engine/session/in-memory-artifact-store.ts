import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { Artifact, ArtifactKey, StoredArtifact } from '../../contracts/artifact.js';
import type { SessionKey } from '../../contracts/session.js';
import { checkArtifactInput, checkArtifactScope, copyArtifact, isUserArtifact } from './artifact-rules.js';

/** Artifacts held in this process's memory; the reference implementation of the artifact store contract. */
export function createInMemoryArtifactStore(): ArtifactStore {
  // By version number; a deleted version leaves a hole, so the numbers of the others stay.
  const versions = new Map<string, (Artifact | undefined)[]>();
  const scopeOf = (key: { appName: string; userId: string; sessionId: string }, filename: string) =>
    JSON.stringify([key.appName, key.userId, isUserArtifact(filename) ? null : key.sessionId]);
  const mapKey = (key: ArtifactKey) => JSON.stringify([scopeOf(key, key.filename), key.filename]);

  return {
    name: 'memory',

    async save(input: ArtifactKey & { artifact: Artifact }): Promise<number> {
      checkArtifactInput(input, input.artifact);
      const key = mapKey(input);
      const list = versions.get(key) ?? [];
      list.push(copyArtifact(input.artifact));
      versions.set(key, list);
      return list.length - 1;
    },

    async load(input: ArtifactKey & { version?: number | undefined }): Promise<StoredArtifact | undefined> {
      checkArtifactInput(input, undefined, input.version);
      const list = versions.get(mapKey(input));
      if (list === undefined || list.length === 0) return undefined;
      const version = input.version ?? list.length - 1;
      const artifact = list[version];
      return artifact === undefined ? undefined : { ...copyArtifact(artifact), version };
    },

    async list(input: SessionKey): Promise<string[]> {
      checkArtifactScope(input);
      const names: string[] = [];
      for (const key of versions.keys()) {
        const [scope, filename] = JSON.parse(key) as [string, string];
        if (scope === scopeOf(input, filename)) names.push(filename);
      }
      return names.sort();
    },

    async listVersions(input: ArtifactKey): Promise<number[]> {
      checkArtifactInput(input);
      return (versions.get(mapKey(input)) ?? []).flatMap((artifact, index) => (artifact === undefined ? [] : [index]));
    },

    async delete(input: ArtifactKey & { version?: number | undefined }): Promise<void> {
      checkArtifactInput(input, undefined, input.version);
      const key = mapKey(input);
      const list = versions.get(key);
      if (input.version === undefined || list === undefined) {
        versions.delete(key);
        return;
      }
      list[input.version] = undefined;
      // Trailing holes go, so the latest is the last entry; none left, no artifact.
      while (list.length > 0 && list[list.length - 1] === undefined) list.pop();
      if (list.length === 0) versions.delete(key);
    },
  };
}
