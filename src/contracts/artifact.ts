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

/** Reads an artifact's text by name for `{artifact.name}`; `undefined` when there is no such artifact. */
export type ArtifactTextReader = {
  readText(name: string): Promise<string | undefined>;
};
