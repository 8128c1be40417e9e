import { describe, expect, it } from 'vitest';
import { checkLoopbackHost, createTokenCheck } from './auth.js';
import { HttpError } from './http-error.js';

function thrown(run: () => void): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError, but nothing was thrown');
}

// The API server's refusals, field by field (docs/mutation.md: written from the survivors of `npm run mutate -- access`).
describe('the API server’s access checks', () => {
  it('lets the right token through and refuses others with a 401 that asks for a bearer token', () => {
    const check = createTokenCheck('s3cret');
    expect(() => check('Bearer s3cret')).not.toThrow();
    for (const header of [undefined, 'Bearer wrong']) {
      const refusal = thrown(() => check(header));
      expect(refusal).toMatchObject({ status: 401, code: 'unauthorized', headers: { 'www-authenticate': 'Bearer' } });
      expect(refusal.hint).toMatch(/Authorization: Bearer/);
    }
    expect(thrown(() => check(undefined)).message).toMatch(/no Authorization header/);
    expect(thrown(() => check('Bearer wrong')).message).not.toMatch(/no Authorization header/);
  });

  it('answers loopback names only, refusing others with a 403 that says which names work', () => {
    expect(() => checkLoopbackHost('127.0.0.1:8080')).not.toThrow();
    expect(() => checkLoopbackHost(undefined)).not.toThrow();
    const refusal = thrown(() => checkLoopbackHost('evil.example'));
    expect(refusal).toMatchObject({ status: 403, code: 'forbidden_host' });
    expect(refusal.message).toContain('evil.example');
    expect(refusal.hint).toMatch(/127\.0\.0\.1/);
  });
});
