import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { ArtifactTextReader, Artifact, ArtifactKey } from '../../contracts/artifact.js';
import { TemplateError } from '../../contracts/errors/template-error.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import type { SessionKey } from '../../contracts/session.js';
import { identifierIssues } from './input-rules.js';
import { IDENTIFIER_HINT, loneSurrogateAt } from '../util/identifier.js';
import { artifactAsText, USER_ARTIFACT_PREFIX } from './artifacts.js';

// Checks and helpers every artifact store shares.

/**
 * Throws a `ValidationError` unless the key and, when given, the artifact can be stored: every field of the key a
 * non-empty identifier (well-formed Unicode, no NUL), and a text artifact's text well-formed (it is kept as UTF-8).
 */
export function checkArtifactInput(key: ArtifactKey, artifact?: Artifact, version?: number): void {
  const issues: ValidationIssue[] = identifierIssues(
    { appName: key.appName, userId: key.userId, sessionId: key.sessionId, filename: key.filename },
    { nonEmpty: ['appName', 'userId', 'sessionId', 'filename'] },
  );
  if (key.filename === USER_ARTIFACT_PREFIX)
    issues.push({ path: 'filename', message: `needs a name after '${USER_ARTIFACT_PREFIX}'` });
  // Refused when saving only, so that one saved before this rule can still be loaded and deleted.
  if (artifact !== undefined && DOT_SEGMENTS.has(key.filename)) {
    issues.push({
      path: 'filename',
      message: `is '${key.filename}', which no URL can name: HTTP clients and servers resolve it as a step in the path, so it could never be read or deleted over HTTP`,
    });
  }
  if (version !== undefined && (!Number.isInteger(version) || version < 0)) {
    issues.push({ path: 'version', message: `must be a whole number ≥ 0, got ${String(version)}` });
  }
  if (artifact !== undefined) {
    if (typeof artifact.mimeType !== 'string' || artifact.mimeType === '')
      issues.push({ path: 'artifact.mimeType', message: 'must be a non-empty string' });
    else if (!MIME_TYPE.test(artifact.mimeType)) {
      // It goes into Content-Type headers and inline data as it is: a line break in it would start a header of its own.
      issues.push({
        path: 'artifact.mimeType',
        message: `${JSON.stringify(artifact.mimeType.slice(0, 100))} is not a media type (type/subtype, such as text/plain, with optional ;parameters and no control characters)`,
      });
    }
    if (artifact.kind === 'text' && typeof artifact.text !== 'string')
      issues.push({ path: 'artifact.text', message: 'must be a string' });
    if (artifact.kind === 'text' && typeof artifact.text === 'string') {
      const lone = loneSurrogateAt(artifact.text);
      if (lone !== -1)
        issues.push({
          path: 'artifact.text',
          message: `has a lone surrogate at index ${lone}: text artifacts are kept as UTF-8, which cannot hold it (save it as binary data instead)`,
        });
    }
    if (artifact.kind === 'binary' && !(artifact.data instanceof Uint8Array))
      issues.push({ path: 'artifact.data', message: 'must be a Uint8Array' });
    if (artifact.kind !== 'text' && artifact.kind !== 'binary')
      issues.push({ path: 'artifact.kind', message: "must be 'text' or 'binary'" });
  }
  const keyProblem = issues.some((issue) => ['appName', 'userId', 'sessionId', 'filename'].includes(issue.path));
  if (issues.length > 0)
    throw new ValidationError({ subject: 'artifact', issues, ...(keyProblem ? { hint: IDENTIFIER_HINT } : {}) });
}

const DOT_SEGMENTS = new Set(['.', '..']);

// RFC 9110's media type: a token, '/', a token, then parameters; control characters (CR, LF, NUL…) nowhere.
const MIME_TYPE =
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*;[^\u0000-\u0008\u000a-\u001f\u007f]*)?$/;

/** Throws a `ValidationError` unless the session key of a listing is usable (as `checkArtifactInput` checks it). */
export function checkArtifactScope(key: SessionKey): void {
  const issues = identifierIssues(
    { appName: key.appName, userId: key.userId, sessionId: key.sessionId },
    { nonEmpty: ['appName', 'userId', 'sessionId'] },
  );
  if (issues.length > 0) throw new ValidationError({ subject: 'artifact listing', issues, hint: IDENTIFIER_HINT });
}

export function isUserArtifact(filename: string): boolean {
  return filename.startsWith(USER_ARTIFACT_PREFIX);
}

export function copyArtifact(artifact: Artifact): Artifact {
  return artifact.kind === 'text'
    ? { kind: 'text', mimeType: artifact.mimeType, text: artifact.text }
    : { kind: 'binary', mimeType: artifact.mimeType, data: new Uint8Array(artifact.data) };
}

/** Reads artifacts of one session as text for `{artifact.name}` placeholders. */
export function artifactTextReader(store: ArtifactStore, session: SessionKey): ArtifactTextReader {
  return {
    async readText(name: string): Promise<string | undefined> {
      if (name === '') return undefined;
      const artifact = await store.load({ ...session, filename: name });
      if (artifact === undefined) return undefined;
      const text = artifactAsText(artifact);
      if (text === undefined) {
        throw new TemplateError({
          code: 'artifact_not_text',
          key: name,
          message: `Artifact ${name} is binary (${artifact.mimeType}) and cannot be inserted into an instruction.`,
          hint: 'Pass it to the model as a message part instead, or save a text version.',
        });
      }
      return text;
    },
    list: () => store.list(session),
    async load(name: string): Promise<Artifact | undefined> {
      if (name === '') return undefined;
      const stored = await store.load({ ...session, filename: name });
      return stored === undefined ? undefined : copyArtifact(stored);
    },
  };
}

/** Reads artifacts from a plain name → text map, as case files give them. */
export function recordTextReader(artifacts: Readonly<Record<string, string>>): ArtifactTextReader {
  return {
    async readText(name: string): Promise<string | undefined> {
      return Object.hasOwn(artifacts, name) ? artifacts[name] : undefined;
    },
    list: async () => Object.keys(artifacts).sort(),
    async load(name: string): Promise<Artifact | undefined> {
      const text = Object.hasOwn(artifacts, name) ? artifacts[name] : undefined;
      return text === undefined ? undefined : { kind: 'text', mimeType: 'text/plain', text };
    },
  };
}
