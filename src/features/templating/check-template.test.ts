import { describe, expect, it } from 'vitest';
import { checkTemplate } from './check-template.js';

describe('checkTemplate', () => {
  it('lists placeholders with scope and status against a state', () => {
    const report = checkTemplate('{a} {app:b?} {user:c} {temp:d?} {state.e} {artifact.f}', {
      state: { a: 1, 'user:c': 'x', e: 2 },
      artifactNames: [],
    });
    expect(report.placeholders.map((p) => [p.text, p.scope, p.key, p.status, p.alias])).toEqual([
      ['{a}', 'session', 'a', 'resolves', false],
      ['{app:b?}', 'app', 'app:b', 'optional-missing', false],
      ['{user:c}', 'user', 'user:c', 'resolves', false],
      ['{temp:d?}', 'temp', 'temp:d', 'optional-missing', false],
      ['{state.e}', 'session', 'e', 'resolves', true],
      ['{artifact.f}', 'artifact', 'f', 'missing', false],
    ]);
    expect(report.ok).toBe(false);
  });

  it('lists brace text that reaches the model as written', () => {
    const report = checkTemplate('Return {"ok": true} or {not a name}, {a{b}} and a lone }', { state: { b: 1 } });
    expect(report.literals.map((l) => [l.text, l.reason])).toEqual([
      ['{"ok": true}', 'not-a-name'],
      ['{not a name}', 'not-a-name'],
      ['{', 'unmatched-brace'],
      ['}', 'unmatched-brace'],
    ]);
    expect(report.placeholders.map((p) => p.text)).toEqual(['{b}}']);
    expect(report.ok).toBe(true);
  });

  it('warns that doubled braces are replaced, not escaped', () => {
    const report = checkTemplate('{{name}}', { state: { name: 'x' } });
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]?.message).toContain('not an escape');
  });

  it('marks artifacts as failing when there is no artifact store, and leaves state unchecked without a state', () => {
    const report = checkTemplate('{x} {artifact.y?}');
    expect(report.placeholders.map((p) => p.status)).toEqual(['unchecked', 'no-artifact-store']);
    expect(report.ok).toBe(false);
  });

  it('does not count escaped braces when escapes are on', () => {
    const report = checkTemplate('\\{literal\\} {x}', { state: { x: 1 }, escapes: true });
    expect(report.literals).toEqual([]);
    expect(report.placeholders.map((p) => p.text)).toEqual(['{x}']);
  });
});
