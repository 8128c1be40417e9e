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

export const USER_ARTIFACT_PREFIX = 'user:';

export function textArtifact(text: string, mimeType = 'text/plain'): TextArtifact {
  return { kind: 'text', mimeType, text };
}

export function binaryArtifact(data: Uint8Array, mimeType: string): BinaryArtifact {
  return { kind: 'binary', mimeType, data };
}

const TEXT_MIME = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|toml|csv)\b|[^;]*\+(json|xml)\b)/i;

/** The artifact as text: text artifacts as they are, binary ones with a textual MIME type decoded as UTF-8. */
export function artifactAsText(artifact: Artifact): string | undefined {
  if (artifact.kind === 'text') return artifact.text;
  if (TEXT_MIME.test(artifact.mimeType)) return new TextDecoder().decode(artifact.data);
  return undefined;
}
