export type TextArtifact = { kind: 'text'; mimeType: string; text: string };
export type BinaryArtifact = { kind: 'binary'; mimeType: string; data: Uint8Array };

/** A named file kept beside a session: text, or bytes with a MIME type. */
export type Artifact = TextArtifact | BinaryArtifact;

/** An artifact as a store returns it, with the version it was saved as (0, 1, 2, …). */
export type StoredArtifact = Artifact & { version: number };

/**
 * Where an artifact lives. A filename starting with `user:` belongs to the user (every session of theirs sees it);
 * any other belongs to the session.
 */
export type ArtifactKey = {
  appName: string;
  userId: string;
  sessionId: string;
  filename: string;
};

/**
 * The session's artifacts as a request sees them: `readText` for `{artifact.name}` (`undefined` when there is no such
 * artifact); `list` and `load` for what reads them whole (ADK's `load_artifacts`), where the reader has them.
 */
export type ArtifactTextReader = {
  readText(name: string): Promise<string | undefined>;
  /** The names of the session's artifacts and of the user's `user:` ones, sorted. */
  list?(): Promise<string[]>;
  /** An artifact's latest version; `undefined` when there is none. */
  load?(name: string): Promise<Artifact | undefined>;
};
