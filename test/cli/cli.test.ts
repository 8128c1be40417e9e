import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx, expectOneLineError } from '../support/cli.js';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-cli-'));
  await writeFile(join(dir, 'bad.yaml'), 'templates:\n  a: [unclosed\n');
  await writeFile(join(dir, 'missing.yaml'), 'template: "Hello {name}, your plan is {plan}"\nstate:\n  name: Ada\n');
  await writeFile(join(dir, 'wrong-shape.yaml'), 'templates: [a, b]\nstat: {}\n');
  await writeFile(join(dir, 'prompt.md'), 'Review {draft_text} for {user:name?}.\n');
  await writeFile(join(dir, 'state.json'), '{"draft_text": "the draft"}');
  await writeFile(
    join(dir, 'python.yaml'),
    'valueFormat: python\ntemplate: "{f} {flags}"\nstate:\n  f: 1.0\n  flags: {a: true, b: null}\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx CLI', () => {
  it('prints help that lists the commands', async () => {
    const result = await agentctx('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Usage: agentctx <command>/);
    expect(result.stdout).toMatch(/check\s+show what the \{placeholders\}/);
  });

  it('prints the version from package.json', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
    const result = await agentctx('--version');
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('explains the check file format in check --help', async () => {
    const result = await agentctx('check', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/templates:\s+name → template text/);
    expect(result.stdout).toMatch(/Exit status/);
  });

  it('checks the bundled example: every placeholder resolves and the renders are shown', async () => {
    const result = await agentctx('check', 'examples/check/welcome.yaml');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/3 templates, 6 placeholders/);
    expect(result.stdout).toMatch(/\{state\.plan\}\s+session\s+resolves \(written as state\.key\)/);
    expect(result.stdout).toMatch(/\{"status": "ok"\}\s+not a state name or artifact/);
    expect(result.stdout).toMatch(/│ You help Ada with agentctx \(team plan\)\./);
    expect(result.stdout).toMatch(/✓ every required placeholder resolves/);
  });

  it('prints the report as JSON with --json', async () => {
    const result = await agentctx('check', 'examples/check/welcome.yaml', '--json');
    const report = JSON.parse(result.stdout) as { ok: boolean; templates: { name: string; rendered: string }[] };
    expect(report.ok).toBe(true);
    expect(report.templates.map((template) => template.name)).toEqual([
      'reviewer_agent',
      'summarizer_agent',
      'support_agent',
    ]);
    expect(report.templates[1]?.rendered).toContain('Decisions: ship templating checks first');
  });

  it('exits 1 and names the placeholders that would fail at run time', async () => {
    const result = await agentctx('check', join(dir, 'missing.yaml'));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\{plan\}\s+session\s+missing: not in state/);
    expect(result.stdout).toMatch(/✗ 1 required placeholder would fail at run time: \{plan\} in template/);
  });

  it('checks a plain template file against a --state file', async () => {
    const result = await agentctx('check', join(dir, 'prompt.md'), '--state', join(dir, 'state.json'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/│ Review the draft for \./);
  });

  it("renders values with Python's str() when the file asks for it", async () => {
    const result = await agentctx('check', join(dir, 'python.yaml'), '--json');
    expect((JSON.parse(result.stdout) as { templates: { rendered: string }[] }).templates[0]?.rendered).toBe(
      "1.0 {'a': True, 'b': None}",
    );
  });

  it('reports a missing file in one line and exits 2', async () => {
    expectOneLineError(
      await agentctx('check', 'nope.yaml'),
      2,
      /^error: Cannot read nope\.yaml: no such file\. Check the path\.$/m,
    );
  });

  it('reports malformed YAML with its line and column', async () => {
    expectOneLineError(
      await agentctx('check', join(dir, 'bad.yaml')),
      2,
      /^error: Invalid .*bad\.yaml: line \d+, column \d+: /,
    );
  });

  it('reports fields of the wrong shape by path, with a suggestion for a typo', async () => {
    expectOneLineError(
      await agentctx('check', join(dir, 'wrong-shape.yaml')),
      2,
      /stat: unknown field \(did you mean 'state'\?\).*templates: expected a mapping/,
    );
  });

  it('reports an unknown option or command in one line and exits 2', async () => {
    expectOneLineError(
      await agentctx('check', 'x.yaml', '--nope'),
      2,
      /^error: Unknown option '--nope'\. Run 'agentctx check --help'/,
    );
    expectOneLineError(await agentctx('frobnicate'), 2, /^error: unknown command 'frobnicate'/);
    expectOneLineError(await agentctx('check'), 2, /^error: check needs a file/);
  });

  it('prints a stack trace only with --debug', async () => {
    const result = await agentctx('check', 'nope.yaml', '--debug');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: Cannot read nope\.yaml/);
    expect(result.stderr).toMatch(/\n\s+at /);
  });
});
