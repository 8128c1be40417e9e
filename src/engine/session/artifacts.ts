import type { Artifact, BinaryArtifact, TextArtifact } from '../../contracts/artifact.js';

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
