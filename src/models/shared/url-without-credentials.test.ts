import { describe, expect, it } from 'vitest';
import { urlWithoutCredentials } from './url-without-credentials.js';

describe('urlWithoutCredentials', () => {
  it('leaves a URL without credentials exactly as it is', () => {
    for (const url of [
      'http://127.0.0.1:8080/v1/chat/completions',
      'https://x.test/v1beta/models/m:streamGenerateContent?alt=sse',
      'https://x.test/a?q=%20b&c#frag',
    ]) {
      expect(urlWithoutCredentials(url)).toBe(url);
    }
  });

  it('drops key query parameters, keeping the others as written', () => {
    expect(urlWithoutCredentials('https://x.test/m:generateContent?key=AIzaSecret')).toBe(
      'https://x.test/m:generateContent',
    );
    expect(urlWithoutCredentials('https://x.test/m?alt=sse&key=AIzaSecret&q=a%2Fb#f')).toBe(
      'https://x.test/m?alt=sse&q=a%2Fb#f',
    );
    expect(urlWithoutCredentials('https://x.test/m?API_KEY=1&access_token=2&api-version=2024')).toBe(
      'https://x.test/m?api-version=2024',
    );
  });

  it('drops user and password', () => {
    expect(urlWithoutCredentials('https://user:secret@x.test/v1?alt=sse')).toBe('https://x.test/v1?alt=sse');
  });
});
