import { describe, expect, it } from 'vitest';
import { bearerCheck, isLoopbackHost, isLoopbackHostHeader } from './local-access.js';

// Pins each rule of the access checks, so that loosening one (an anchor, a repetition, a branch) fails a test:
// written from the survivors of `npm run mutate -- access` (docs/mutation.md).
describe('bearerCheck', () => {
  const check = bearerCheck('s3cret');

  it('accepts the token after Bearer, in any case, with spaces or tabs around it', () => {
    for (const header of [
      'Bearer s3cret',
      'bearer s3cret',
      'BEARER s3cret',
      'Bearer  s3cret',
      'Bearer\ts3cret',
      'Bearer s3cret ',
      'Bearer s3cret\t',
    ]) {
      expect(check(header), JSON.stringify(header)).toBe(true);
    }
  });

  it('refuses anything before Bearer, anything after the token, another scheme, another token or none', () => {
    for (const header of [
      'xBearer s3cret',
      ' Bearer s3cret',
      'Bearer s3cret extra',
      'Bearer s3cret x',
      'Basic s3cret',
      'Bearer',
      'Bearer ',
      'Bearers3cret',
      'Bearer s3cre',
      'Bearer s3crets',
      '',
      undefined,
    ]) {
      expect(check(header), JSON.stringify(header)).toBe(false);
    }
  });

  it('never matches when configured with an empty token, even with no header at all', () => {
    const empty = bearerCheck('');
    expect(empty(undefined)).toBe(false);
    expect(empty('')).toBe(false);
    expect(empty('Bearer ')).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it('accepts localhost, 127.0.0.0/8 (with or without the IPv4-mapped prefix) and ::1 in both spellings', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.10.200.255',
      '127.1.22.3',
      '::ffff:127.0.0.1',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '[0:0:0:0:0:0:0:1]',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('refuses names that only contain or start with a loopback address', () => {
    for (const host of [
      'localhost[]',
      '[127.0.0].1',
      '[localhost]x',
      '127.0.0.1.evil.com',
      'evil127.0.0.1',
      'x.127.0.0.1',
      '127.0.0.1x',
      '127.0.0',
      '127.0.0.1234',
      '128.0.0.1',
      'localhost.evil.com',
      'evil.example',
      '::2',
      '',
      '::ffff:10.0.0.1',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('isLoopbackHostHeader', () => {
  it('passes a request without a Host header (HTTP/1.0)', () => {
    expect(isLoopbackHostHeader(undefined)).toBe(true);
  });

  it('reads the name out of a Host header with a port', () => {
    for (const host of ['localhost:8080', '127.0.0.1:3000', '[::1]:80', 'localhost'])
      expect(isLoopbackHostHeader(host), host).toBe(true);
    for (const host of ['evil.example:80', '127.0.0.1.evil.com:80', 'evil.example'])
      expect(isLoopbackHostHeader(host), host).toBe(false);
  });

  it('judges a header no URL can hold as it is, without throwing', () => {
    expect(isLoopbackHostHeader('[::1')).toBe(false);
    expect(isLoopbackHostHeader('localhost:99999')).toBe(false);
    expect(isLoopbackHostHeader('local host')).toBe(false);
  });
});
