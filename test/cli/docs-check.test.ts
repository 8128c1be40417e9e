import { describe, expect, it } from 'vitest';
import { agentctx } from '../support/cli.js';

const URL = 'https://preview-cedar.example';

describe('agentctx inspect --find and diff on the docs-check cases', () => {
  it('finds the preview URL where seed 002 says it is, or nowhere', async () => {
    const both = await agentctx('inspect', 'examples/docs-check/loaded-memory-on.yaml', '--find', URL);
    expect(both.code).toBe(0);
    expect(both.stdout).toMatch(
      /^messages\[0\]\.content\[1\]\s+@\d+\s+memory · docs_assistant\.memory\.MEMORY\.md \(examples\/docs-check\/MEMORY\.md\)$/m,
    );
    const memoryOnly = await agentctx('inspect', 'examples/docs-check/listed-memory-on.yaml', '--find', URL);
    expect(memoryOnly.stdout).toMatch(/^messages\[0\]\.content\[0\]\s/m);
    const off = await agentctx('inspect', 'examples/docs-check/loaded-memory-off.yaml', '--find', URL);
    expect(off.code).toBe(1);
    expect(off.stdout).toMatch(/not found/);
    const json = await agentctx('inspect', 'examples/docs-check/loaded-memory-on.yaml', '--find', URL, '--json');
    expect(
      (JSON.parse(json.stdout) as { path: string; source: { kind: string } }[]).map((found) => [
        found.path,
        found.source.kind,
      ]),
    ).toEqual([['messages[0].content[1]', 'memory']]);
  });

  it('says toggling memory leaves system and tools byte-identical', async () => {
    const result = await agentctx(
      'diff',
      'examples/docs-check/loaded-memory-off.yaml',
      'examples/docs-check/loaded-memory-on.yaml',
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^system\s+byte-identical/m);
    expect(result.stdout).toMatch(/^tools\s+byte-identical \(2 tools\)/m);
    expect(result.stdout).toMatch(/^messages\s+differ from messages\[0\]\.content\[1\]/m);
    const same = await agentctx(
      'diff',
      'examples/docs-check/listed-memory-off.yaml',
      'examples/docs-check/listed-memory-off.yaml',
      '--json',
    );
    expect(same.code).toBe(0);
    expect((JSON.parse(same.stdout) as { identical: boolean }).identical).toBe(true);
  });

  it('counts tokens per section, skill and memory file', async () => {
    const result = await agentctx('inspect', 'examples/docs-check/loaded-memory-on.yaml', '--tokens');
    expect(result.stdout).toMatch(/block 5 · skill-listing · docs_assistant\.skills: docs-check · \d+ tokens/);
    const json = await agentctx('inspect', 'examples/docs-check/loaded-memory-on.yaml', '--tokens', '--json');
    const tokens = (
      JSON.parse(json.stdout) as { tokens: { system: { blocks: number[] }; messages: { each: { parts: number[] }[] } } }
    ).tokens;
    expect(tokens.system.blocks).toHaveLength(5);
    expect(tokens.messages.each[0]?.parts).toHaveLength(3);
  });
});
