import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { TemplateError } from '../../contracts/errors/template-error.js';
import { pyFloat } from '../../engine/python/python-values.js';
import { recordTextReader } from '../../engine/session/artifact-rules.js';
import { injectState, renderTemplate } from './inject-state.js';

const runs = propertyRuns();

const keyArbitrary = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const stateArbitrary = fc.dictionary(
  keyArbitrary,
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
);
const templateWithPlaceholders = fc
  .array(
    fc.oneof(
      fc.string().map((text) => ({ text })),
      keyArbitrary.map((key) => ({ key })),
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.map((piece) => ('key' in piece ? `{${piece.key}?}` : piece.text)).join(''));

describe('injectState', () => {
  it('returns a template without "{" unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string().filter((text) => !text.includes('{')),
        stateArbitrary,
        async (template, state) => {
          expect(await injectState(template, { state })).toBe(template);
          expect(await injectState(template, { state, escapes: true, valueFormat: 'python' })).toBe(
            template.replace(/\\}/g, '}'),
          );
        },
      ),
      runs,
    );
    // Generated strings rarely hold `\}`: with escapes on, it is unescaped whether or not the template has a `{`.
    expect(await injectState('a \\} b', { state: {}, escapes: true })).toBe('a } b');
    expect(await injectState('a \\} b {x}', { state: { x: 1 }, escapes: true })).toBe('a } b 1');
  });

  it('never scans an inserted value again', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyArbitrary.map((key) => `k_${key}`),
        fc.string(),
        fc.string(),
        async (key, before, after) => {
          const value = `${before}{y}{app:y?}${after}`;
          const state = { [key]: value, y: 'SECRET' };
          expect(await injectState(`[{${key}}]`, { state })).toBe(`[${value}]`);
        },
      ),
      runs,
    );
    expect(await injectState('{x}', { state: { x: '{user:secret}', 'user:secret': 'leak' } })).toBe('{user:secret}');
  });

  it('gives the same output for the same input', async () => {
    await fc.assert(
      fc.asyncProperty(templateWithPlaceholders, stateArbitrary, async (template, state) => {
        const first = await renderTemplate(template, { state });
        const second = await renderTemplate(template, { state: { ...state } });
        expect(second).toEqual(first);
      }),
      runs,
    );
  });

  it('records where every inserted value sits in the output', async () => {
    await fc.assert(
      fc.asyncProperty(templateWithPlaceholders, stateArbitrary, async (template, state) => {
        const rendered = await renderTemplate(template, { state });
        for (const substitution of rendered.substitutions) {
          const key = substitution.source.kind === 'state' ? substitution.source.key : '';
          const expected = Object.hasOwn(state, key) && state[key] !== null ? String(state[key]) : '';
          expect(rendered.text.slice(substitution.start, substitution.end)).toBe(expected);
          expect(template.slice(substitution.templateStart, substitution.templateEnd)).toBe(substitution.placeholder);
        }
      }),
      runs,
    );
  });

  it('reads {state.key} as {key}', async () => {
    expect(
      await injectState('{state.plan} / {state.app:tier} / {state.missing?}', {
        state: { plan: 'team', 'app:tier': 'gold' },
      }),
    ).toBe('team / gold / ');
  });

  it('leaves {state.key} verbatim when the alias is off (strict ADK)', async () => {
    expect(await injectState('{state.plan}', { state: { plan: 'team' }, stateAlias: false })).toBe('{state.plan}');
  });

  it('formats values the JavaScript way by default and the Python way on request', async () => {
    const state = { n: 1.5, i: 3, b: true, o: { a: [1, 'x'] }, none: null, f: pyFloat(2) };
    expect(await injectState('{n} {i} {b} {o} [{none}] {f}', { state })).toBe('1.5 3 true {"a":[1,"x"]} [] 2');
    expect(await injectState('{n} {i} {b} {o} [{none}] {f}', { state, valueFormat: 'python' })).toBe(
      "1.5 3 True {'a': [1, 'x']} [] 2.0",
    );
    expect(await injectState('{o}', { state, valueFormat: (value) => `<${typeof value}>` })).toBe('<object>');
  });

  it('throws a TemplateError with ADK message and a hint for a missing key', async () => {
    const error = await injectState('Hi {name}', { state: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TemplateError);
    expect(error).toMatchObject({
      code: 'missing_state_key',
      key: 'name',
      message: 'Context variable not found: `name`.',
    });
    expect((error as TemplateError).hint).toContain('{name?}');
  });

  it('inserts artifact text and refuses a missing artifact', async () => {
    const artifacts = recordTextReader({ 'meeting_notes.txt': 'NOTES' });
    expect(await injectState('{artifact.meeting_notes.txt}', { state: {}, artifacts })).toBe('NOTES');
    await expect(injectState('{artifact.other.txt}', { state: {}, artifacts })).rejects.toMatchObject({
      code: 'missing_artifact',
    });
  });

  describe('with escapes', () => {
    it('reads \\{ and \\} as literal braces', async () => {
      const state = { name: 'Ann' };
      expect(await injectState('\\{name\\} is {name}', { state, escapes: true })).toBe('{name} is Ann');
      expect(await injectState('JSON: \\{"a": {name}\\}', { state, escapes: true })).toBe('JSON: {"a": Ann}');
      expect(await injectState('path\\\\{name}', { state, escapes: true })).toBe('path\\Ann');
      expect(await injectState('C:\\dir\\file', { state, escapes: true })).toBe('C:\\dir\\file');
    });

    it('leaves ADK-compatible mode untouched', async () => {
      // ADK reads `{name\}` as one run whose name `name\` is not an identifier, so it stays as written.
      expect(await injectState('\\{name\\}', { state: { name: 'Ann' } })).toBe('\\{name\\}');
      expect(await injectState('\\{name}', { state: { name: 'Ann' } })).toBe('\\Ann');
    });
  });
});
