import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { Artifact, ArtifactKey, StoredArtifact } from '../../contracts/artifact.js';
import type { SessionKey } from '../../contracts/session.js';
import { checkArtifactInput, checkArtifactScope, copyArtifact, isUserArtifact } from './artifact-rules.js';

/** Artifacts held in this process's memory; the reference implementation of the artifact store contract. */
export function createInMemoryArtifactStore(): ArtifactStore {
  const versions = new Map<string, Artifact[]>();
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
      return (versions.get(mapKey(input)) ?? []).map((_, index) => index);
    },

    async delete(input: ArtifactKey): Promise<void> {
      checkArtifactInput(input);
      versions.delete(mapKey(input));
    },
  };
}
