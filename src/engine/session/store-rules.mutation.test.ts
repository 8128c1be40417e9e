import { describe, expect, it } from 'vitest';
import { caught, issuePaths } from '../../../test/support/caught.js';
import { TemplateError } from '../../contracts/errors/template-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Artifact } from '../../contracts/artifact.js';
import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { Session } from '../../contracts/session.js';
import { artifactTextReader, checkArtifactInput, copyArtifact, recordTextReader } from './artifact-rules.js';
import { createEvent } from './create-event.js';
import { JSON_VALUE_HINT } from '../state/state-rules.js';
import {
  checkCreateInput,
  checkSessionKey,
  loadedVersion,
  prepareStoredEvent,
  sessionNotFound,
  sharedKeysOf,
  sortSessionsForList,
} from './store-rules.js';

// The rules every store shares, pinned where mutants survived `npm run mutate -- state` (docs/mutation.md).

const paths = issuePaths;
const session = (id: string, lastUpdateTime: number, sharedStateVersions?: Record<string, number>): Session => ({
  appName: 'a',
  userId: 'u',
  id,
  state: {},
  events: [],
  lastUpdateTime,
  revision: 0,
  ...(sharedStateVersions === undefined ? {} : { sharedStateVersions }),
});

describe('store rules', () => {
  it('lists sessions most recently updated first, ties by id', () => {
    const sorted = sortSessionsForList([session('b', 1), session('c', 2), session('a', 1), session('d', 1)]);
    expect(sorted.map((s) => s.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(sortSessionsForList([session('b', 1), session('a', 1)]).map((s) => s.id)).toEqual(['a', 'b']);
  });

  // Listing across users (no userId) can meet one session id under two users: a full tie keeps the store's order.
  it('keeps the order of sessions that tie on both update time and id', () => {
    const listed = [
      { ...session('same', 1), userId: 'u1' },
      { ...session('same', 1), userId: 'u2' },
      { ...session('same', 1), userId: 'u3' },
    ];
    expect(sortSessionsForList(listed).map((s) => s.userId)).toEqual(['u1', 'u2', 'u3']);
  });

  it('takes locks on the shared keys of a delta only, in code-unit order', () => {
    expect(sharedKeysOf({ 'user:b': 1, a: 2, 'app:z': 3, 'temp:t': 4, 'app:a': 5, 'user:B': 6 })).toEqual([
      'app:a',
      'app:z',
      'user:B',
      'user:b',
    ]);
  });

  it('reads the version a copy saw, 0 for a key it never saw', () => {
    expect(loadedVersion(session('s', 0, { 'user:a': 3 }), 'user:a')).toBe(3);
    expect(loadedVersion(session('s', 0, { 'user:a': 3 }), 'user:b')).toBe(0);
    expect(loadedVersion(session('s', 0), 'user:a')).toBe(0);
  });

  it('names the missing resource', () => {
    expect(sessionNotFound('s1')).toMatchObject({ resource: 'session', id: 's1' });
  });

  it('refuses a new session’s key fields and a state that is not an object, naming each', () => {
    expect(() => checkCreateInput({ appName: 'a', userId: 'u', sessionId: '  ' }, {})).not.toThrow();
    expect(() => checkCreateInput({ appName: 'a', userId: 'u' }, { k: 1 })).not.toThrow();
    const error = caught(() => checkCreateInput({ appName: '', userId: '' }, {}));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ subject: 'session' });
    expect(paths(error)).toEqual(['appName', 'userId']);
    expect(paths(caught(() => checkCreateInput({ appName: 'a', userId: 'u', sessionId: 's\u0000' }, {})))).toEqual([
      'sessionId',
    ]);
    for (const state of [[], null, 'text']) {
      expect(
        paths(caught(() => checkCreateInput({ appName: 'a', userId: 'u' }, state as never))),
        JSON.stringify(state),
      ).toEqual(['state']);
    }
  });

  it('refuses an event whose state keys no store can keep, as an event', () => {
    const event = createEvent({ author: 'a', actions: { stateDelta: { 'k\ud800': 1 } } });
    expect(caught(() => prepareStoredEvent(event))).toMatchObject({ subject: 'event' });
  });

  it('refuses an event whose values are not JSON, as an event, naming the value', () => {
    const event = createEvent({ author: 'a', actions: { stateDelta: { k: Number.NaN } } });
    const error = caught(() => prepareStoredEvent(event));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ subject: 'event', hint: JSON_VALUE_HINT });
    expect(paths(error)).toEqual(['event.actions.stateDelta.k']);
  });

  it('refuses an unusable session key as a session key, checking only the fields asked for', () => {
    const error = caught(() => checkSessionKey({ appName: 'a', userId: 'u\u0000', sessionId: 's' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ subject: 'session key' });
    expect(paths(error)).toEqual(['userId']);
    expect(paths(caught(() => checkSessionKey({ appName: 'a' })))).toEqual(['userId', 'sessionId']);
    expect(() => checkSessionKey({ appName: 'a' }, ['appName'])).not.toThrow();
    expect(() => checkSessionKey({ appName: 'a', userId: 'u', sessionId: 's' })).not.toThrow();
  });
});

describe('artifact rules', () => {
  const key = { appName: 'a', userId: 'u', sessionId: 's', filename: 'f.txt' };
  const text: Artifact = { kind: 'text', mimeType: 'text/plain', text: 'hi' };

  it('accepts a usable key, version and artifact', () => {
    expect(() => checkArtifactInput(key, text, 0)).not.toThrow();
    expect(() =>
      checkArtifactInput(key, { kind: 'binary', mimeType: 'image/png', data: new Uint8Array([1]) }),
    ).not.toThrow();
  });

  it('names every field it refuses, with the identifier hint only for key fields', () => {
    const keyError = caught(() => checkArtifactInput({ appName: '', userId: '', sessionId: '', filename: '' }));
    expect(keyError).toMatchObject({ subject: 'artifact' });
    expect(paths(keyError)).toEqual(['appName', 'userId', 'sessionId', 'filename']);
    expect((keyError as ValidationError).hint).toMatch(/Ids, state keys and artifact names/);
    expect(paths(caught(() => checkArtifactInput({ ...key, filename: 'user:' })))).toEqual(['filename']);
    for (const version of [-1, 1.5])
      expect(paths(caught(() => checkArtifactInput(key, undefined, version)))).toEqual(['version']);
    const artifactError = caught(() => checkArtifactInput(key, { kind: 'text', mimeType: '', text: 'x' }));
    expect(paths(artifactError)).toEqual(['artifact.mimeType']);
    expect((artifactError as ValidationError).hint).toBeUndefined();
    expect(
      paths(caught(() => checkArtifactInput(key, { kind: 'text', mimeType: 'text/plain', text: 1 } as never))),
    ).toEqual(['artifact.text']);
    expect(
      paths(caught(() => checkArtifactInput(key, { kind: 'text', mimeType: 'text/plain', text: 'a\udc00' }))),
    ).toEqual(['artifact.text']);
    expect(
      paths(caught(() => checkArtifactInput(key, { kind: 'binary', mimeType: 'image/png', data: [1] } as never))),
    ).toEqual(['artifact.data']);
    expect(paths(caught(() => checkArtifactInput(key, { kind: 'other', mimeType: 'x/y' } as never)))).toEqual([
      'artifact.kind',
    ]);
  });

  it('copies an artifact so that changing the copy leaves the original', () => {
    const bytes = new Uint8Array([1, 2]);
    const copied = copyArtifact({ kind: 'binary', mimeType: 'image/png', data: bytes });
    expect(copied).toEqual({ kind: 'binary', mimeType: 'image/png', data: new Uint8Array([1, 2]) });
    if (copied.kind === 'binary') copied.data[0] = 9;
    expect(bytes[0]).toBe(1);
    expect(copyArtifact(text)).toEqual(text);
  });

  it('reads artifacts as text for templates: nothing for no name or no artifact, and a typed error for binary data', async () => {
    const stored: Record<string, Artifact> = {
      notes: text,
      image: { kind: 'binary', mimeType: 'image/png', data: new Uint8Array([1]) },
    };
    const asked: string[] = [];
    const store = {
      load: async ({ filename }: { filename: string }) => {
        asked.push(filename);
        return stored[filename];
      },
    } as unknown as ArtifactStore;
    const reader = artifactTextReader(store, { appName: 'a', userId: 'u', sessionId: 's' });
    expect(await reader.readText('notes')).toBe('hi');
    expect(await reader.readText('missing')).toBeUndefined();
    expect(await reader.readText('')).toBeUndefined();
    expect(asked).toEqual(['notes', 'missing']);
    const error = await reader.readText('image').catch((caughtError: unknown) => caughtError);
    expect(error).toBeInstanceOf(TemplateError);
    expect(error).toMatchObject({ code: 'artifact_not_text', key: 'image' });
    const fromRecord = recordTextReader({ a: 'A' });
    expect([await fromRecord.readText('a'), await fromRecord.readText('toString')]).toEqual(['A', undefined]);
  });
});
