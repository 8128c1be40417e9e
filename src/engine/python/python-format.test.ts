import { describe, expect, it } from 'vitest';
import { pythonRepr, pythonStr, reprFloat } from './python-format.js';
import { pyFloat, pyTuple } from './python-values.js';

describe('reprFloat', () => {
  it.each([
    [1, '1.0'],
    [0.1, '0.1'],
    [0.30000000000000004, '0.30000000000000004'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [123456789.125, '123456789.125'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [1e100, '1e+100'],
    [-2.5, '-2.5'],
    [-0, '-0.0'],
    [Number.NaN, 'nan'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
  ])('%s → %s', (value, expected) => {
    expect(reprFloat(value)).toBe(expected);
  });
});

describe('pythonRepr', () => {
  it('quotes strings the way Python chooses', () => {
    expect(pythonRepr('plain')).toBe("'plain'");
    expect(pythonRepr("it's")).toBe('"it\'s"');
    expect(pythonRepr('both \' and "')).toBe("'both \\' and \"'");
    expect(pythonRepr('line\nbreak\ttab\\')).toBe("'line\\nbreak\\ttab\\\\'");
    expect(pythonRepr('\u0000\u007f\u00a0é\u2028😀')).toBe("'\\x00\\x7f\\xa0é\\u2028😀'");
  });

  it('writes containers with Python literals', () => {
    expect(pythonRepr({ k: 1, n: null, b: false, u: undefined })).toBe("{'k': 1, 'n': None, 'b': False, 'u': None}");
    expect(pythonRepr([])).toBe('[]');
    expect(pythonRepr({})).toBe('{}');
    expect(pythonRepr(pyTuple())).toBe('()');
    expect(pythonRepr(pyTuple(1, 'a'))).toBe("(1, 'a')");
    expect(pythonRepr(new Set())).toBe('set()');
    expect(pythonRepr([pyFloat(3), 2n ** 70n, 2 ** 60])).toBe('[3.0, 1180591620717411303424, 1.152921504606847e+18]');
  });

  it('leaves a top-level string as it is', () => {
    expect(pythonStr("it's\n")).toBe("it's\n");
  });
});
