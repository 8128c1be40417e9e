import type { ArtifactStore } from '../contracts/artifact-store.js';
import type { Artifact, StoredArtifact } from '../contracts/artifact.js';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { JsonReader } from '../engine/util/json-reader.js';
import { HttpError } from './http-error.js';
import { readQuery } from './request-input.js';
import { sessionKey, type Handler, type RouteContext } from './route-context.js';
import { requireSession } from './session-handlers.js';

/** `GET …/sessions/{id}/artifacts` → `{ artifacts }`: the session's artifact names and the user's `user:` ones, sorted. */
export const listArtifacts: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const store = artifactStore(context);
  await requireSession(context);
  return { status: 200, body: { artifacts: await store.list(sessionKey(context)) } };
};

/**
 * `GET …/artifacts/{name}[?version=N]` → the latest version, or version N: `{ name, version, versions, kind, mimeType,
 * text }` for text, `base64` in place of `text` for bytes.
 */
export const getArtifact: Handler = async (context) => {
  const { version } = readQuery(context.url.searchParams, { version: 'count' });
  const store = artifactStore(context);
  await requireSession(context);
  const key = artifactKey(context);
  const found = await store.load({ ...key, ...(version === undefined ? {} : { version }) });
  if (found === undefined) {
    const versions = await store.listVersions(key);
    throw new NotFoundError({
      resource: 'artifact',
      id: key.filename,
      message:
        versions.length === 0
          ? `Session ${key.sessionId} has no artifact '${key.filename}'.`
          : `Artifact '${key.filename}' has no version ${version}; it has ${versions.join(', ')}.`,
      hint: 'List them with GET …/artifacts.',
    });
  }
  return { status: 200, body: { name: key.filename, versions: await store.listVersions(key), ...artifactJson(found) } };
};

/** `PUT …/artifacts/{name}` with `{ text, mimeType? }` or `{ base64, mimeType }` → 201 `{ name, version }`: a new version. */
export const putArtifact: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const store = artifactStore(context);
  const artifact = readArtifactBody(await context.body());
  await requireSession(context);
  const key = artifactKey(context);
  const version = await store.save({ ...key, artifact });
  return { status: 201, body: { name: key.filename, version } };
};

/** `DELETE …/artifacts/{name}` → 204; every version goes. */
export const deleteArtifact: Handler = async (context) => {
  readQuery(context.url.searchParams, {});
  const store = artifactStore(context);
  await requireSession(context);
  const key = artifactKey(context);
  if ((await store.listVersions(key)).length === 0)
    throw new NotFoundError({
      resource: 'artifact',
      id: key.filename,
      message: `Session ${key.sessionId} has no artifact '${key.filename}'.`,
    });
  await store.delete(key);
  return { status: 204 };
};

function artifactStore(context: RouteContext): ArtifactStore {
  const store = context.runner.artifacts;
  if (store === undefined) {
    throw new HttpError(404, 'artifacts_not_configured', 'This server keeps no artifacts.', {
      hint: 'Give its runner an artifact store (createRunner({ artifacts })); agentctx serve always does.',
    });
  }
  return store;
}

function artifactKey(context: RouteContext) {
  return { ...sessionKey(context), filename: context.params['artifact'] ?? '' };
}

function artifactJson(artifact: StoredArtifact): Record<string, unknown> {
  const base = { version: artifact.version, kind: artifact.kind, mimeType: artifact.mimeType };
  return artifact.kind === 'text'
    ? { ...base, text: artifact.text }
    : { ...base, base64: Buffer.from(artifact.data).toString('base64') };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `{ text, mimeType? }` (text/plain by default) or `{ base64, mimeType }`. */
export function readArtifactBody(value: unknown): Artifact {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a JSON object ({ text, mimeType? } or { base64, mimeType })');
  if (record === undefined) throw invalid(reader);
  reader.keys(record, '', ['text', 'base64', 'mimeType']);
  const text = reader.string(record, 'text', '', { optional: true });
  const base64 = reader.string(record, 'base64', '', { optional: true });
  const mimeType = reader.string(record, 'mimeType', '', { optional: true, nonEmpty: true });
  if ((text === undefined) === (base64 === undefined)) reader.issue('', 'give exactly one of text and base64');
  if (base64 !== undefined && (base64.length % 4 !== 0 || !BASE64.test(base64)))
    reader.issue('base64', 'is not base64 (A–Z, a–z, 0–9, + and /, padded with = to a multiple of 4)');
  if (base64 !== undefined && mimeType === undefined)
    reader.issue('mimeType', 'is required with base64, e.g. "image/png"');
  if (reader.issues.length > 0) throw invalid(reader);
  if (text !== undefined) return { kind: 'text', mimeType: mimeType ?? 'text/plain', text };
  return {
    kind: 'binary',
    mimeType: mimeType ?? 'application/octet-stream',
    data: new Uint8Array(Buffer.from(base64 ?? '', 'base64')),
  };
}

function invalid(reader: JsonReader): ValidationError {
  return new ValidationError({
    subject: 'request body',
    issues: reader.issues,
    hint: 'Send {"text": "…"} or {"base64": "…", "mimeType": "image/png"}.',
  });
}
