import { describe, expect, it } from 'vitest';
import { checkLoopbackHostHeader, createTokenCheck } from './access.js';

// The inspector's refusals, field by field (docs/mutation.md: written from the survivors of `npm run mutate -- access`).
describe('the inspector’s access checks', () => {
  it('lets the right token through and refuses others with a 401 that asks for a bearer token', () => {
    const check = createTokenCheck('s3cret');
    expect(check('Bearer s3cret')).toBeUndefined();
    const missing = check(undefined);
    const wrong = check('Bearer wrong');
    for (const refusal of [missing, wrong])
      expect(refusal).toMatchObject({ status: 401, code: 'unauthorized', headers: { 'www-authenticate': 'Bearer' } });
    expect(missing?.message).toMatch(/no Authorization header/);
    expect(wrong?.message).not.toMatch(/no Authorization header/);
  });

  it('answers loopback names only, refusing others with a 403 that names the host', () => {
    expect(checkLoopbackHostHeader('localhost:4000')).toBeUndefined();
    expect(checkLoopbackHostHeader(undefined)).toBeUndefined();
    const refusal = checkLoopbackHostHeader('evil.example:4000');
    expect(refusal).toMatchObject({ status: 403, code: 'forbidden_host' });
    expect(refusal?.message).toContain('evil.example');
  });
});
