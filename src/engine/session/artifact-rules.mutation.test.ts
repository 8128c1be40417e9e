import { describe, expect, it } from 'vitest';
import { caught, issuePaths } from '../../../test/support/caught.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { IDENTIFIER_HINT } from '../util/identifier.js';
import { checkArtifactInput, checkArtifactScope } from './artifact-rules.js';

// The artifact stores' shared checks, pinned where mutants survived `npm run mutate -- state` (docs/mutation.md);
// store-rules.mutation.test.ts has the first of them.

const paths = issuePaths;
const key = { appName: 'a', userId: 'u', sessionId: 's', filename: 'f.txt' };

describe('checkArtifactInput', () => {
  // A text artifact without its text must be refused as input, not crash the check with a TypeError.
  it('refuses a text artifact whose text is missing or null, naming artifact.text', () => {
    for (const text of [undefined, null]) {
      const error = caught(() => checkArtifactInput(key, { kind: 'text', mimeType: 'text/plain', text } as never));
      expect(error, String(text)).toBeInstanceOf(ValidationError);
      expect(paths(error)).toEqual(['artifact.text']);
    }
  });

  it('refuses a MIME type that is not a string', () => {
    for (const mimeType of [undefined, 7]) {
      expect(
        paths(caught(() => checkArtifactInput(key, { kind: 'text', mimeType, text: 'x' } as never))),
        String(mimeType),
      ).toEqual(['artifact.mimeType']);
    }
  });

  // Only a text artifact's text is stored as UTF-8: a binary one is stored from its bytes, whatever else it carries.
  it('accepts a binary artifact that carries a stray text field, even one UTF-8 cannot hold', () => {
    const binary = { kind: 'binary', mimeType: 'image/png', data: new Uint8Array([1]), text: 'a\udc00' } as const;
    expect(() => checkArtifactInput(key, binary as never)).not.toThrow();
  });

  it('gives the identifier hint when any one key field is wrong, alone or beside an artifact problem', () => {
    for (const field of ['appName', 'userId', 'sessionId', 'filename'] as const) {
      const error = caught(() => checkArtifactInput({ ...key, [field]: '' }));
      expect(paths(error), field).toEqual([field]);
      expect((error as ValidationError).hint, field).toBe(IDENTIFIER_HINT);
    }
    const mixed = caught(() =>
      checkArtifactInput({ ...key, userId: 'u\u0000' }, { kind: 'text', mimeType: '', text: 'x' }),
    );
    expect(paths(mixed)).toEqual(['userId', 'artifact.mimeType']);
    expect((mixed as ValidationError).hint).toBe(IDENTIFIER_HINT);
    expect((caught(() => checkArtifactInput(key, undefined, -1)) as ValidationError).hint).toBeUndefined();
  });
});

describe('checkArtifactScope', () => {
  it('accepts a usable session key', () => {
    expect(() => checkArtifactScope({ appName: 'a', userId: 'u', sessionId: 's' })).not.toThrow();
  });

  it('refuses each empty or unusable field of a listing’s key, as an artifact listing', () => {
    const error = caught(() => checkArtifactScope({ appName: '', userId: '', sessionId: '' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ subject: 'artifact listing', hint: IDENTIFIER_HINT });
    expect(paths(error)).toEqual(['appName', 'userId', 'sessionId']);
    expect(paths(caught(() => checkArtifactScope({ appName: 'a', userId: 'u', sessionId: 's\ud800' })))).toEqual([
      'sessionId',
    ]);
  });
});
