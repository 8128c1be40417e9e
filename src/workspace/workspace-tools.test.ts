import { mkdtemp, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../contracts/contexts.js';
import { workspaceTools } from './workspace-tools.js';

let dir = '';
let root = '';
const context = {} as ToolContext;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-workspace-'));
  root = join(dir, 'docs');
  await mkdir(root);
  await writeFile(join(root, 'page.md'), 'See [a](a.md) and [a](a.md) and [b](b.md).\n');
  await writeFile(join(dir, 'secret.txt'), 'outside');
  await symlink(join(dir, 'secret.txt'), join(root, 'link.txt'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('workspaceTools', () => {
  const run = (index: 0 | 1, args: Record<string, unknown>) => workspaceTools({ root })[index].execute?.(args, context);

  it('reads a file of the workspace', async () => {
    expect(await run(0, { path: 'page.md' })).toEqual({
      path: 'page.md',
      content: 'See [a](a.md) and [a](a.md) and [b](b.md).\n',
    });
  });

  it('refuses paths outside the root, through .. or a symbolic link', async () => {
    for (const path of ['../secret.txt', '/etc/passwd', 'link.txt']) {
      expect(await run(0, { path })).toEqual({ error: expect.stringContaining('is outside the workspace') });
    }
    expect(await run(1, { path: '../secret.txt', old_text: 'outside', new_text: 'changed' })).toEqual({
      error: expect.stringContaining('outside the workspace'),
    });
    expect(await readFile(join(dir, 'secret.txt'), 'utf8')).toBe('outside');
  });

  it('edits one exact occurrence, and refuses a missing or repeated one', async () => {
    expect(await run(1, { path: 'page.md', old_text: '[a](a.md)', new_text: '[A](A.md)' })).toEqual({
      error: expect.stringContaining('occurs more than once'),
    });
    expect(await run(1, { path: 'page.md', old_text: 'nope', new_text: 'x' })).toEqual({
      error: expect.stringContaining('does not occur'),
    });
    expect(await run(1, { path: 'page.md', old_text: '[b](b.md)', new_text: '[c](c.md)' })).toEqual({
      path: 'page.md',
      replaced: true,
    });
    expect(await readFile(join(root, 'page.md'), 'utf8')).toBe('See [a](a.md) and [a](a.md) and [c](c.md).\n');
    expect(await run(0, { path: 'missing.md' })).toEqual({ error: 'missing.md does not exist.' });
  });
});
