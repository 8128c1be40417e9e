import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after.js';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('retryAfterSeconds', () => {
  it('prefers retry-after-ms, then reads retry-after as seconds', () => {
    expect(retryAfterSeconds(headers({ 'retry-after-ms': '250', 'retry-after': '1' }))).toBe(0.25);
    expect(retryAfterSeconds(headers({ 'retry-after': '7' }))).toBe(7);
    expect(retryAfterSeconds(headers({ 'retry-after-ms': 'soon', 'retry-after': '2' }))).toBe(2);
  });

  it('reads an HTTP date as the seconds left until it, never below zero', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterSeconds(headers({ 'retry-after': inTenSeconds }))).toBeGreaterThan(8);
    expect(retryAfterSeconds(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }))).toBe(0);
    expect(retryAfterSeconds(headers({ 'retry-after': '-5' }))).toBe(0);
  });

  it('is undefined without a readable header', () => {
    expect(retryAfterSeconds(undefined)).toBeUndefined();
    expect(retryAfterSeconds(headers({}))).toBeUndefined();
    expect(retryAfterSeconds(headers({ 'retry-after': '  ' }))).toBeUndefined();
    expect(retryAfterSeconds(headers({ 'retry-after': 'later, maybe' }))).toBeUndefined();
  });
});
