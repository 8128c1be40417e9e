import { describe, expect, it } from 'vitest';
import type { ArtifactTextReader } from '../../contracts/artifact.js';
import { checkTemplate } from './check-template.js';
import { injectState, renderTemplate } from './inject-state.js';
import { scanTemplate } from './scan-template.js';
import { embedFormatter, formatDefault, resolveValueFormat } from './value-format.js';

// Templating rules pinned one by one, each where a mutant of it survived `npm run mutate -- templating`
// (docs/mutation.md): token boundaries, escapes, what `checkTemplate` reports and how values are written.

const artifacts = (files: Record<string, string>): ArtifactTextReader => ({ readText: async (name) => files[name] });

describe('scanTemplate', () => {
  it('splits text and placeholders at their exact boundaries, with no empty text between them', () => {
    expect(scanTemplate('{a}')).toEqual([
      {
        type: 'placeholder',
        start: 0,
        end: 3,
        text: '{a}',
        optional: false,
        target: { kind: 'state', key: 'a', scope: 'session', alias: false },
      },
    ]);
    expect(scanTemplate('x{a}{user:b?}y').map((token) => [token.type, token.start, token.end, token.text])).toEqual([
      ['text', 0, 1, 'x'],
      ['placeholder', 1, 4, '{a}'],
      ['placeholder', 4, 13, '{user:b?}'],
      ['text', 13, 14, 'y'],
    ]);
    expect(scanTemplate('{state.app:k}')).toEqual([
      {
        type: 'placeholder',
        start: 0,
        end: 13,
        text: '{state.app:k}',
        optional: false,
        target: { kind: 'state', key: 'app:k', scope: 'app', alias: true },
      },
    ]);
    expect(scanTemplate('{artifact.notes.md?}')[0]).toMatchObject({
      optional: true,
      target: { kind: 'artifact', name: 'notes.md' },
    });
  });

  it('leaves an alias of an invalid name, and an unclosed brace, as text', () => {
    expect(scanTemplate('{state.not a name}')).toEqual([
      {
        type: 'placeholder',
        start: 0,
        end: 18,
        text: '{state.not a name}',
        optional: false,
        target: { kind: 'invalid' },
      },
    ]);
    expect(scanTemplate('{state.a}', { stateAlias: false })[0]).toMatchObject({ target: { kind: 'invalid' } });
    expect(scanTemplate('a {b')).toEqual([{ type: 'text', start: 0, end: 4, text: 'a {b' }]);
  });
});

describe('escapes (opt-in)', () => {
  const state = { x: 1 };

  it('turn \\{ and \\} into literal braces, and \\\\ before a brace into one backslash', async () => {
    expect(await injectState('\\{x\\} {x}', { state, escapes: true })).toBe('{x} 1');
    expect(await injectState('\\{x} {x}', { state, escapes: true })).toBe('{x} 1');
    expect(await injectState('{x\\}', { state, escapes: true })).toBe('{x}');
    expect(await injectState('\\\\{x}', { state, escapes: true })).toBe('\\1');
  });

  it('keep every other backslash as written', async () => {
    expect(await injectState('C:\\dir\\n {x}', { state, escapes: true })).toBe('C:\\dir\\n 1');
    expect(await injectState('a\\\\b {x}\\', { state, escapes: true })).toBe('a\\\\b 1\\');
  });

  it('are off by default, as in ADK', async () => {
    expect(await injectState('\\{x}', { state })).toBe('\\1');
    expect(await injectState('\\{x\\}', { state })).toBe('\\{x\\}');
  });
});

describe('injectState and renderTemplate', () => {
  it('leave an alias of an invalid name verbatim instead of looking it up', async () => {
    expect(await injectState('{state.not a name} {x}', { state: { x: 2 } })).toBe('{state.not a name} 2');
  });

  it('report where each artifact landed and whether it was there', async () => {
    const rendered = await renderTemplate('<{artifact.a}|{artifact.b?}>', {
      state: {},
      artifacts: artifacts({ a: 'AA' }),
    });
    expect(rendered).toEqual({
      text: '<AA|>',
      substitutions: [
        {
          placeholder: '{artifact.a}',
          templateStart: 1,
          templateEnd: 13,
          start: 1,
          end: 3,
          source: { kind: 'artifact', name: 'a', present: true },
        },
        {
          placeholder: '{artifact.b?}',
          templateStart: 14,
          templateEnd: 27,
          start: 4,
          end: 4,
          source: { kind: 'artifact', name: 'b', present: false },
        },
      ],
    });
  });
});

describe('checkTemplate', () => {
  it('reports each placeholder’s kind, key, scope and status', () => {
    const report = checkTemplate('{a} {artifact.f} {b?}', { state: { a: 1 }, artifactNames: ['f'] });
    expect(report.placeholders.map(({ kind, key, scope, status }) => ({ kind, key, scope, status }))).toEqual([
      { kind: 'state', key: 'a', scope: 'session', status: 'resolves' },
      { kind: 'artifact', key: 'f', scope: 'artifact', status: 'resolves' },
      { kind: 'state', key: 'b', scope: 'session', status: 'optional-missing' },
    ]);
    expect(report.ok).toBe(true);
  });

  it('notes doubled braces only when they open and close the placeholder', () => {
    expect(checkTemplate('{{a}}', { state: { a: 1 } }).notes).toHaveLength(1);
    expect(checkTemplate('{{a}', { state: { a: 1 } }).notes).toEqual([]);
    expect(checkTemplate('{a}}', { state: { a: 1 } }).notes).toEqual([]);
    expect(checkTemplate('x{{a}}', { state: { a: 1 } }).notes).toEqual([
      { start: 1, end: 6, message: expect.any(String) },
    ]);
  });

  it('lists unmatched braces at their exact place, except escaped ones when escapes are on', () => {
    expect(checkTemplate('a } b {').literals).toEqual([
      { text: '}', start: 2, end: 3, reason: 'unmatched-brace' },
      { text: '{', start: 6, end: 7, reason: 'unmatched-brace' },
    ]);
    expect(checkTemplate('a \\} b', { escapes: true }).literals).toEqual([]);
    expect(checkTemplate('a \\} b').literals).toEqual([{ text: '}', start: 3, end: 4, reason: 'unmatched-brace' }]);
    // A doubled backslash escapes itself: the brace after it is a real, unmatched one.
    expect(checkTemplate('a \\\\} b', { escapes: true }).literals).toEqual([
      { text: '}', start: 4, end: 5, reason: 'unmatched-brace' },
    ]);
    expect(checkTemplate('} \\x', { escapes: true }).literals).toEqual([
      { text: '}', start: 0, end: 1, reason: 'unmatched-brace' },
    ]);
  });
});

describe('value formats', () => {
  it('write values in the default format: text as is, nothing for absent values, dates in ISO, big integers in JSON', () => {
    expect(formatDefault('text')).toBe('text');
    expect(formatDefault(1.5)).toBe('1.5');
    expect(formatDefault(false)).toBe('false');
    expect(formatDefault(10n)).toBe('10');
    expect(formatDefault(undefined)).toBe('');
    expect(formatDefault(null)).toBe('');
    expect(formatDefault(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(formatDefault({ n: 10n, list: [1, 'a'] })).toBe('{"n":"10","list":[1,"a"]}');
    expect(formatDefault(Symbol.for('s'))).toBe('Symbol(s)');
  });

  it('never hand null or undefined to a custom format or to Python’s', () => {
    const custom = resolveValueFormat((value) => `<${String(value)}>`);
    expect([custom(null), custom(undefined), custom(0)]).toEqual(['', '', '<0>']);
    const python = resolveValueFormat('python');
    expect([python(null), python(undefined), python(true)]).toEqual(['', '', 'True']);
    expect(resolveValueFormat(undefined)).toBe(formatDefault);
    expect(resolveValueFormat('default')).toBe(formatDefault);
  });

  it('spell null and undefined out when a value is embedded in text', () => {
    for (const format of [undefined, 'default'] as const) {
      const embed = embedFormatter(format);
      expect([embed(null), embed(undefined), embed('x'), embed({ a: null })]).toEqual([
        'null',
        'null',
        'x',
        '{"a":null}',
      ]);
    }
    const python = embedFormatter('python');
    expect([python(null), python(undefined), python({ a: true })]).toEqual(['None', 'None', "{'a': True}"]);
    const custom = (value: unknown) => `[${String(value)}]`;
    expect(embedFormatter(custom)).toBe(custom);
  });
});

describe('escapes next to backslashes that stay', () => {
  it('keep a backslash before an ordinary character even when a placeholder follows it', async () => {
    // `\n` written literally before `{x}`: only `\\` directly before a brace is an escaped backslash.
    expect(await injectState('line\\n{x}', { state: { x: 1 }, escapes: true })).toBe('line\\n1');
  });

  it('make the brace after an escaped backslash a real one, so checkTemplate sees the whole run', () => {
    // `{x\\}`: the `}` closes the run, whose name `x\` is not a name, so the run reaches the model as written.
    expect(checkTemplate('{x\\\\}', { escapes: true }).literals).toEqual([
      { text: '{x\\}', start: 0, end: 5, reason: 'not-a-name' },
    ]);
  });
});

describe('checkTemplate’s doubled-brace note', () => {
  it('looks only at the braces that open and close the placeholder, not escaped ones inside an artifact name', () => {
    const names = { escapes: true, artifactNames: ['a{{b', 'a}}b'] };
    expect(checkTemplate('{artifact.a\\{\\{b}}', names)).toMatchObject({
      placeholders: [{ text: '{artifact.a{{b}}', key: 'a{{b', status: 'resolves' }],
      notes: [],
    });
    expect(checkTemplate('{{artifact.a\\}\\}b}', names)).toMatchObject({
      placeholders: [{ text: '{{artifact.a}}b}', key: 'a}}b', status: 'resolves' }],
      notes: [],
    });
    expect(checkTemplate('{{artifact.a\\}\\}b}}', names).notes).toEqual([
      { start: 0, end: 19, message: expect.stringContaining('not an escape') },
    ]);
  });
});
