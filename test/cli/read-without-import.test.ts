import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { agentctx } from '../support/cli.js';

// Reading what a module recorded never runs the module (issue 46): a program that runs its turns when loaded, as the
// README's sample does, would otherwise add turns to the session being read. The app comes from the store.

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function recorded(apps: readonly string[]): Promise<{ dir: string; db: string; module: string; marker: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-read-'));
  dirs.push(dir);
  const db = join(dir, 'agentctx.db');
  const store = createSqliteSessionStore({ path: db });
  for (const appName of apps) {
    await store.createSession({ appName, userId: 'user', sessionId: 's1' });
    const request = {
      system: 'S',
      tools: [],
      messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }],
      config: {},
    };
    await store.recordModelCall({
      appName,
      userId: 'user',
      sessionId: 's1',
      call: {
        invocationId: 'i',
        agent: appName,
        timestamp: 1,
        request,
        provenance: { system: [], tools: [], messages: [[]] },
        editedByCallback: false,
        status: 'answered',
      },
    });
  }
  await store.close();
  const marker = join(dir, 'imported');
  const module = join(dir, 'agent.mjs');
  // Importing it leaves a mark: what a module that runs turns at top level would do, in small.
  await writeFile(
    module,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport const agent = { name: 'helper', kind: 'llm', subAgents: [] };\n`,
  );
  return { dir, db, module, marker };
}

describe('reading a session recorded by a module', () => {
  it('finds the app in the store and never imports the module', async () => {
    const { db, module, marker } = await recorded(['helper']);
    const listed = await agentctx('inspect', module, '--session', 's1', '--store', db);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toMatch(/^Session s1: 1 model call\n +1 +answered +helper /);
    expect((await agentctx('cost', module, '--session', 's1', '--store', db)).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('asks for --app when the session is in several apps, and says when it is in none', async () => {
    const { db, module, marker } = await recorded(['helper', 'other']);
    const several = await agentctx('inspect', module, '--session', 's1', '--store', db);
    expect([several.code, several.stderr.trim()]).toEqual([
      2,
      'error: Session s1 of user user is in several apps: helper, other. Pass --app to say which.',
    ]);
    const none = await agentctx('inspect', module, '--session', 'nope', '--store', db);
    expect([none.code, none.stderr.trim()]).toEqual([
      2,
      'error: Session nope of user user is in no app of the store. Check --session, --user and --store, or pass --app.',
    ]);
    expect((await agentctx('inspect', module, '--session', 's1', '--store', db, '--app', 'other')).code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
