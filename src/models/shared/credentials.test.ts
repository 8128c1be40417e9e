import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { requireApiKey, usableKey } from './credentials.js';

describe('API keys', () => {
  it('takes the settings’ key, else the first variable set, without the white space around it', () => {
    expect(requireApiKey('X', { apiKey: ' sk-own\n', env: { X_KEY: 'sk-env' } }, ['X_KEY'])).toBe('sk-own');
    expect(requireApiKey('X', { env: { X_KEY: '', Y_KEY: 'sk-env\n' } }, ['X_KEY', 'Y_KEY'])).toBe('sk-env');
  });

  it('refuses a key an HTTP header cannot carry, naming where it came from, the character and its place, never the key', () => {
    const refused = (key: string, source = 'OPENAI_API_KEY') => {
      try {
        usableKey(key, source);
      } catch (error) {
        expect(AgentctxError.isInstance(error)).toBe(true);
        return error as AgentctxError;
      }
      throw new Error(`accepted ${key}`);
    };
    const placeholder = refused('sk-…');
    expect(placeholder.code).toBe('invalid_input');
    expect(placeholder.message).toBe(
      "The API key in OPENAI_API_KEY holds '…' (U+2026) at character 4, which an API key never holds and an HTTP header cannot carry.",
    );
    expect(placeholder.hint).toContain('Set OPENAI_API_KEY to the key itself');
    expect(refused('“sk-abc”', 'apiKey').message).toContain("in apiKey holds '“' (U+201C) at character 1");
    expect(refused('sk-abc def').message).toContain('holds U+0020 at character 7');
    expect(refused('sk-abc\u0000').message).toContain('holds U+0000 at character 7');
    // An astral character counts as one.
    expect(refused('😀x').message).toContain("holds '😀' (U+1F600) at character 1");
    expect(refused('sk-secretpart…').message).not.toContain('secretpart');
  });

  it('fails before any request when the key comes from a variable or the settings', () => {
    expect(() => requireApiKey('Anthropic', { env: { ANTHROPIC_API_KEY: 'sk-ant-…' } }, ['ANTHROPIC_API_KEY'])).toThrow(
      'The API key in ANTHROPIC_API_KEY holds',
    );
    expect(() => requireApiKey('Anthropic', { apiKey: 'sk-ant-…' }, ['ANTHROPIC_API_KEY'])).toThrow(
      'The API key in apiKey holds',
    );
  });
});
