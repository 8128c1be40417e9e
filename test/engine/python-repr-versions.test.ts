import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pythonRepr, pythonStr, type PythonVersion } from '../../src/engine/python/python-format.js';
import { deriveProfile } from '../../src/engine/profile/profiles.js';
import { injectState } from '../../src/features/templating/inject-state.js';

// Which characters repr() escapes follows the Unicode database of the Python that runs: a character added to Unicode
// after a Python's version is written `\U…` by it. The expected values below are what Python 3.10.13, 3.11.7, 3.12.1
// and 3.13.0 printed for the same string; the last test asks this machine's python3 about every code point.

const TEXT = '\u{1FAE8} \u{1FA7B} \u{31350} \u0CF3 \u{1F6DC} \u{2B739} \u{1FAF7} \u2FFC \u{11F00}';

const PRINTED: Readonly<Record<PythonVersion, string>> = {
  '3.10': "'\\U0001fae8 \\U0001fa7b \\U00031350 \\u0cf3 \\U0001f6dc \\U0002b739 \\U0001faf7 \\u2ffc \\U00011f00'",
  '3.11': "'\\U0001fae8 \u{1FA7B} \\U00031350 \\u0cf3 \\U0001f6dc \\U0002b739 \\U0001faf7 \\u2ffc \\U00011f00'",
  '3.12': "'\u{1FAE8} \u{1FA7B} \u{31350} \u0CF3 \u{1F6DC} \u{2B739} \u{1FAF7} \\u2ffc \u{11F00}'",
  '3.13': "'\u{1FAE8} \u{1FA7B} \u{31350} \u0CF3 \u{1F6DC} \u{2B739} \u{1FAF7} \u2FFC \u{11F00}'",
};

describe("repr() of strings as each Python's Unicode database has it", () => {
  for (const [python, printed] of Object.entries(PRINTED) as [PythonVersion, string][]) {
    it(`Python ${python}`, () => {
      expect(pythonRepr(TEXT, python)).toBe(printed);
      expect(pythonStr({ k: [TEXT.slice(0, 2)] }, python)).toBe(
        `{'k': [${python === '3.10' || python === '3.11' ? "'\\U0001fae8'" : "'\u{1FAE8}'"}]}`,
      );
    });
  }

  it('3.11 when no Python is named, as the profile has it', () => {
    expect(pythonRepr(TEXT)).toBe(PRINTED['3.11']);
  });

  it("the adk profile's python reaches state values in instructions", async () => {
    const state = { mood: { face: '\u{1FAE8}' } };
    const fill = (python: PythonVersion) =>
      injectState('Mood: {mood}', { state, valueFormat: 'python', python: deriveProfile('adk', { python }).python });
    expect(await fill('3.11')).toBe("Mood: {'face': '\\U0001fae8'}");
    expect(await fill('3.13')).toBe("Mood: {'face': '\u{1FAE8}'}");
  });

  it("agrees with this machine's python3 on every code point", () => {
    const script =
      'import sys\nsys.stdout.write("%d.%d\\n" % sys.version_info[:2])\n' +
      'sys.stdout.write("".join("1" if chr(c).isprintable() else "0" for c in range(0x110000)))';
    const ran = spawnSync(process.env['AGENTCTX_PYTHON'] ?? 'python3', ['-c', script], {
      encoding: 'utf8',
      maxBuffer: 4 * 1024 * 1024,
      timeout: 60_000,
    });
    expect(ran.status, ran.stderr).toBe(0);
    const [version = '', flags = ''] = ran.stdout.split('\n');
    expect(Object.keys(PRINTED)).toContain(version);
    const wrong: string[] = [];
    for (let code = 0; code < 0x110000 && wrong.length < 5; code++) {
      // Lone surrogates are never printable, and a JavaScript string cannot hold one as a whole character.
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      const special = "\\\n\r\t'".includes(char);
      const escaped = pythonRepr(char, version as PythonVersion).slice(1, -1) !== char;
      if (!special && escaped === (flags[code] === '1')) wrong.push(code.toString(16));
    }
    expect(wrong, `code points where agentctx's repr and Python ${version}'s differ`).toEqual([]);
  }, 120_000);
});
