import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { PyFloat } from '../python/python-values.js';
import { parseDocument } from './parse-document.js';

describe('parseDocument', () => {
  it('reads YAML and JSON', async () => {
    expect(await parseDocument('a: 1\nb: [x, y]\n', { filename: 'f.yaml' })).toEqual({ a: 1, b: ['x', 'y'] });
    expect(await parseDocument('{"a": {"b": null}}', { filename: 'f.json' })).toEqual({ a: { b: null } });
  });

  it('keeps 1.0 a float and big integers exact when asked', async () => {
    const value = (await parseDocument('{"f": 1.0, "i": 1, "big": 12345678901234567890, "e": 1e16}', {
      filename: 'f.json',
      pythonNumbers: true,
    })) as Record<string, unknown>;
    expect(value['f']).toBeInstanceOf(PyFloat);
    expect(value['i']).toBe(1);
    expect(value['big']).toBe(12345678901234567890n);
    expect(value['e']).toBeInstanceOf(PyFloat);
  });

  it('names the line and column of a syntax error', async () => {
    const error = await parseDocument('a: 1\nb: [1, 2\n', { filename: 'bad.yaml' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^Invalid bad\.yaml: line \d+, column \d+: /);
  });

  it('refuses duplicate keys', async () => {
    await expect(parseDocument('a: 1\na: 2\n', { filename: 'dup.yaml' })).rejects.toThrow(/Invalid dup\.yaml/);
  });
});
