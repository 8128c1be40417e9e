import type { Artifact, ArtifactKey, StoredArtifact } from './artifact.js';
import type { SessionKey } from './session.js';

/**
 * Where artifacts live. Every implementation must pass the shared contract suite (`agentctx/testing`).
 *
 * Implementations must: number versions 0, 1, 2, … per artifact; never change a saved version; make a save
 * visible completely or not at all; keep `user:` artifacts per user and the others per session; hand out copies.
 */
export type ArtifactStore = {
  readonly name: string;

  /** Saves a new version and returns its number. */
  save(input: ArtifactKey & { artifact: Artifact }): Promise<number>;

  /** The latest version, or the one asked for; `undefined` if there is none. */
  load(input: ArtifactKey & { version?: number | undefined }): Promise<StoredArtifact | undefined>;

  /** Names of the session's artifacts and of the user's `user:` artifacts, sorted. */
  list(input: SessionKey): Promise<string[]>;

  /** Saved versions of one artifact, ascending; empty if it does not exist. */
  listVersions(input: ArtifactKey): Promise<number[]>;

  /**
   * Removes every version, or only `version` when it is given: the others keep their numbers, and a later save takes
   * a number above all of them (a deleted latest number may be taken again). No error if absent.
   */
  delete(input: ArtifactKey & { version?: number | undefined }): Promise<void>;
};
