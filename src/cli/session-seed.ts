import { extname } from 'node:path';
import type { ArtifactStore } from '../contracts/artifact-store.js';
import type { Artifact } from '../contracts/artifact.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { SessionKey } from '../contracts/session.js';
import { loadDocumentFile } from './load-document-file.js';
import { readInputBytes } from './read-input-file.js';

/** What `--state` and `--artifact` give a session: state values (scoped keys included) and named files. */
export type SessionSeed = {
  readonly state: Record<string, unknown> | undefined;
  readonly artifacts: readonly { readonly name: string; readonly artifact: Artifact }[];
};

// Extensions whose files are text whatever their bytes say; anything else is text only when it is valid UTF-8.
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};
const BINARY_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

/** Reads `--state <file>` (a YAML or JSON mapping) and each `--artifact <name>=<path>`; every mistake is one line. */
export async function readSessionSeed(
  options: { state?: string | undefined; artifact?: readonly string[] | undefined },
  cwd: string,
): Promise<SessionSeed> {
  const state = options.state === undefined ? undefined : await readStateFile(options.state, cwd);
  const artifacts: { name: string; artifact: Artifact }[] = [];
  for (const spec of options.artifact ?? []) {
    const split = spec.indexOf('=');
    const name = split < 0 ? '' : spec.slice(0, split).trim();
    const path = split < 0 ? '' : spec.slice(split + 1);
    if (name === '' || path === '')
      throw new UsageError(
        `--artifact takes name=path, got '${spec}'.`,
        'For example: --artifact notes.txt=./notes.txt (a user: name is shared by the user\u2019s sessions).',
      );
    if (artifacts.some((seen) => seen.name === name))
      throw new UsageError(`--artifact names '${name}' twice.`, 'Give each artifact once.');
    artifacts.push({ name, artifact: artifactOf(path, await readInputBytes(path, cwd)) });
  }
  return { state, artifacts };
}

async function readStateFile(path: string, cwd: string): Promise<Record<string, unknown>> {
  const { value } = await loadDocumentFile(path, cwd);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError({
      subject: path,
      issues: [
        {
          path: '',
          message: `must be a mapping of state keys to values, got ${Array.isArray(value) ? 'a list' : value === null ? 'nothing' : `a ${typeof value}`}`,
        },
      ],
      hint: 'Write it as, for example: { "app:company": "Acme", "user:name": "Ann", "topic": "fares" }.',
    });
  }
  return value as Record<string, unknown>;
}

function artifactOf(path: string, bytes: Uint8Array): Artifact {
  const extension = extname(path).toLowerCase();
  const binaryType = BINARY_TYPES[extension];
  if (binaryType !== undefined) return { kind: 'binary', mimeType: binaryType, data: bytes };
  const text = decodeText(bytes);
  if (text !== undefined) return { kind: 'text', mimeType: TEXT_TYPES[extension] ?? 'text/plain', text };
  return { kind: 'binary', mimeType: 'application/octet-stream', data: bytes };
}

function decodeText(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

/**
 * Saves the seed's artifacts into a session, each as a new version unless its latest version already holds the same
 * content (running the same command again does not pile up versions). Returns the names saved.
 */
export async function saveSeedArtifacts(store: ArtifactStore, key: SessionKey, seed: SessionSeed): Promise<string[]> {
  const saved: string[] = [];
  for (const { name, artifact } of seed.artifacts) {
    const latest = await store.load({ ...key, filename: name });
    if (latest !== undefined && sameArtifact(latest, artifact)) continue;
    await store.save({ ...key, filename: name, artifact });
    saved.push(name);
  }
  return saved;
}

function sameArtifact(a: Artifact, b: Artifact): boolean {
  if (a.kind !== b.kind || a.mimeType !== b.mimeType) return false;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'binary' && b.kind === 'binary')
    return a.data.length === b.data.length && a.data.every((byte, index) => byte === b.data[index]);
  return false;
}
