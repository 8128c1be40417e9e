import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { mcpToolset } from '../../src/mcp/index.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import {
  filesystemServer,
  finalText,
  isRunning,
  originsOf,
  responsesById,
  scratch,
  serverPid,
  turn,
  warningsKept,
} from './helpers.js';

// @modelcontextprotocol/server-filesystem over stdio, allowed one temporary folder: a scripted model lists it and
// reads a file through the runner, and is refused a file outside it; the results are stored in a SQLite session.

const KEY = { appName: 'librarian', userId: 'u1', sessionId: 's1' };
const folders = scratch();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  await folders.cleanup();
});

describe('MCP: server-filesystem over stdio, through the runner', () => {
  it('lists a folder and reads a file in it; a path outside the allowed folder gets an { error } and the turn goes on', async () => {
    const allowed = await folders.folder();
    const elsewhere = await folders.folder();
    await mkdir(join(allowed, 'notes'));
    await writeFile(join(allowed, 'notes', 'todo.txt'), 'buy milk\nwater the plants\n');
    await writeFile(join(allowed, 'readme.md'), '# Shelf\n');
    await writeFile(join(elsewhere, 'secret.txt'), 'do not read');

    const files = mcpToolset({
      name: 'files',
      server: filesystemServer(allowed),
      tools: ['list_directory', 'read_text_file'],
    });
    const model = createScriptedModel([
      { functionCall: { id: 'c-list', name: 'list_directory', args: { path: allowed } } },
      {
        functionCalls: [
          { id: 'c-read', name: 'read_text_file', args: { path: join(allowed, 'notes', 'todo.txt') } },
          { id: 'c-head', name: 'read_text_file', args: { path: join(allowed, 'notes', 'todo.txt'), head: 1 } },
        ],
      },
      { functionCall: { id: 'c-out', name: 'read_text_file', args: { path: join(elsewhere, 'secret.txt') } } },
      { functionCall: { id: 'c-args', name: 'read_text_file', args: { file: 'todo.txt' } } },
      { text: 'You need to buy milk and water the plants.' },
    ]);
    const sessions = createSqliteSessionStore({ path: join(await folders.folder(), 'sessions.db') });
    const kept = warningsKept();
    const runner = createRunner({
      agents: llmAgent({ name: 'librarian', tools: [files] }),
      model,
      sessions,
      plugins: [kept.plugin],
    });
    closers.push(
      () => sessions.close(),
      () => runner.close(),
    );
    await runner.createSession({ userId: 'u1', sessionId: 's1' });

    const events = await turn(runner, 'What is on my todo list?');
    expect(finalText(events)).toBe('You need to buy milk and water the plants.');
    expect(kept.warnings).toEqual([[], [], [], [], []]);

    // The filter's names, in its order, attributed to the server.
    const call = await sessions.getModelCall({ ...KEY, index: 1 });
    expect(call?.request.tools.map((tool) => tool.name)).toEqual(['list_directory', 'read_text_file']);
    expect(originsOf(call?.provenance.tools ?? [])).toEqual([
      { kind: 'mcp', toolset: 'files', server: 'files', name: 'list_directory' },
      { kind: 'mcp', toolset: 'files', server: 'files', name: 'read_text_file' },
    ]);
    expect(call?.request.tools[1]?.parameters).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, head: { type: 'number' }, tail: { type: 'number' } },
      required: ['path'],
    });

    const responses = responsesById((await sessions.getSession(KEY))?.events ?? []);
    expect(Object.keys(responses)).toEqual(['c-list', 'c-read', 'c-head', 'c-out', 'c-args']);
    // Structured content ({ content }) is the result; a folder's entries come in the file system's order.
    const listing = responses['c-list']?.['result'] as { content: string };
    expect(Object.keys(responses['c-list'] ?? {})).toEqual(['result']);
    expect(listing.content.split('\n').sort()).toEqual(['[DIR] notes', '[FILE] readme.md']);
    expect(responses['c-read']).toEqual({ result: { content: 'buy milk\nwater the plants\n' } });
    expect(responses['c-head']).toEqual({ result: { content: 'buy milk' } });
    // The server's own refusal (isError) is the model's { error }.
    expect(responses['c-out']).toEqual({
      error: `Access denied - path outside allowed directories: ${join(elsewhere, 'secret.txt')} not in ${allowed}`,
    });
    // Arguments the server's schema refuses never reach it.
    expect(responses['c-args']).toEqual({
      error: expect.stringMatching(
        /^Invalid arguments for tool 'read_text_file': .*path.*Call it again with arguments that match its parameters\.$/,
      ),
    });
    expect(files.connection.opened).toBe(1);

    const pid = serverPid(files) as number;
    expect(isRunning(pid)).toBe(true);
    await runner.close();
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 15_000, interval: 50 });
  }, 120_000);
});
