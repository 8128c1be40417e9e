import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Part } from '../../src/contracts/content.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { insertProcessor } from '../../src/engine/pipeline/pipeline.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { paging } from '../../src/features/paging/paging.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { defaultPipeline } from '../../src/presets/pipelines.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { collect, testClock } from '../runner/helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const body = (id: string) => `BODY-${id}: revenue ${id.slice(1)}00`;

type StoreCase = { name: string; open: () => Promise<{ store: SessionStore; raw: () => string }> };
const stores: StoreCase[] = [
  {
    name: 'memory',
    open: async () => {
      const store = createInMemorySessionStore();
      return { store, raw: () => '' };
    },
  },
  {
    name: 'sqlite',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agentctx-paging-'));
      dirs.push(dir);
      const path = join(dir, 'paging.db');
      const store = createSqliteSessionStore({ path });
      const raw = () => {
        const db = new Database(path, { readonly: true });
        const tables = (
          db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'agentctx_model_calls'")
            .all() as { name: string }[]
        ).map(({ name }) => name);
        const text = tables.map((table) => JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all())).join('\n');
        db.close();
        return text;
      };
      return { store, raw };
    },
  },
];

function setup(instructionKind: 'string' | 'provider') {
  const loads = new Map<string, number>();
  const items = paging({
    name: 'items',
    maxPerRead: 10,
    placement: 'system',
    load: (id) => {
      loads.set(id, (loads.get(id) ?? 0) + 1);
      return body(id);
    },
  });
  const instruction =
    instructionKind === 'string'
      ? 'Analyze the items you page in. Plan: {plan?}'
      : () => 'Analyze the items you page in.';
  const agent = llmAgent({
    name: 'analyst',
    instruction,
    tools: [items.pageIn, items.saveResult, items.listResults],
    pipeline: insertProcessor(defaultPipeline(), { after: 'instructions' }, items.processor),
  });
  return { items, agent, loads };
}

const ids = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => `r${String(from + index).padStart(2, '0')}`);

describe.each(stores)('paging guarantees (placement system) with the $name store', ({ open }) => {
  it.each(['string', 'provider'] as const)('holds with a %s instruction', async (instructionKind) => {
    const { store, raw } = await open();
    const { items, agent, loads } = setup(instructionKind);
    const model = createScriptedModel([
      { functionCall: { name: 'get_items', args: { ids: ids(1, 10) } } },
      { functionCall: { name: 'get_items', args: { ids: ids(5, 12) } } },
      { functionCall: { name: 'get_items', args: { ids: ids(1, 11) } } },
      { functionCall: { name: 'save_result', args: { task_id: 'batch1', result: 'revenue 1234' } } },
      { functionCall: { name: 'get_items', args: { ids: ['r20', 'r21'] } } },
      { text: 'done' },
      { functionCall: { name: 'list_results' } },
      { text: 'still here' },
    ]);
    const runner = createRunner({ ...testClock(), agents: agent, model, sessions: store });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    const events = await collect(runner, { message: 'analyze' });

    // No body ever enters the history: not the stored events, not any request's messages.
    expect(JSON.stringify(events)).not.toContain('BODY-');
    for (const request of model.requests) expect(JSON.stringify(request.messages)).not.toContain('BODY-');
    const receipt = events.find((event) => JSON.stringify(event).includes('loaded'));
    expect(JSON.stringify(receipt?.content)).toMatch(/10 loaded \(10 fetched, 0 already cached\)/);
    expect(JSON.stringify(events)).toContain('ids: 11 ids asked for; at most 10 per read');

    // Each item is fetched at most once in the invocation, however often it is paged in.
    expect([...loads.values()].every((count) => count === 1)).toBe(true);
    expect([...loads.keys()].sort()).toEqual([...ids(1, 12), 'r20', 'r21']);

    // The instruction holds exactly the current working set: a new one replaces the old; saving releases it.
    const systems = model.requests.map((request) => request.system);
    expect(systems[0]).not.toContain('BODY-');
    expect(systems[1]).toContain('BODY-r01');
    expect(systems[2]).toContain('BODY-r12');
    expect(systems[2]).toContain('BODY-r05');
    expect(systems[2]).not.toContain('BODY-r04');
    expect(systems[4]).not.toContain('BODY-');
    expect(systems[5]).toContain('--- BEGIN ITEMS (2: r20, r21) ---\n### r20\nBODY-r20');
    expect(systems[5]).not.toContain('BODY-r12');

    // No temp: key survives the invocation, in the store or its file; the saved result does.
    const session = await store.getSession({ appName: 'analyst', userId: 'u1', sessionId: 's1' });
    expect(Object.keys(session?.state ?? {}).filter((key) => key.startsWith('temp:'))).toEqual([]);
    expect(JSON.stringify(session)).not.toContain('BODY-');
    expect(raw()).not.toContain('temp:');
    expect(items.results(session?.state ?? {})).toEqual({ batch1: 'revenue 1234' });

    // The next invocation starts with nothing paged in and the result still saved.
    const next = await collect(runner, { message: 'what did you save?' });
    expect(model.requests[6]?.system).not.toContain('BODY-');
    expect(JSON.stringify(next)).toContain('"results":{"batch1":"revenue 1234"}');
    await store.close();
  });
});

describe('paging placed in the history (the default)', () => {
  it('puts the working set right after its receipt, keeps it there for the batch, and releases it with the batch on save', async () => {
    const items = paging({ name: 'items', maxPerRead: 10, load: body });
    const agent = llmAgent({ name: 'analyst', instruction: 'Analyze the items you page in.', extensions: [items] });
    const model = createScriptedModel([
      { functionCall: { name: 'get_items', args: { ids: ids(1, 3) } } },
      { functionCall: { name: 'list_results' } },
      { functionCall: { name: 'save_result', args: { task_id: 'batch1', result: 'sum 6' } } },
      { functionCall: { name: 'get_items', args: { ids: ['r04'] } } },
      { text: 'done' },
    ]);
    const runner = createRunner({ ...testClock(), agents: agent, model, sessions: createInMemorySessionStore() });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    const events = await collect(runner, { message: 'analyze' });
    expect(JSON.stringify(events)).not.toContain('BODY-');
    const [first, second, third, fourth, fifth] = model.requests.map((request) =>
      request.messages.map((message) => message.content.map(describePart).join(' + ')),
    );
    for (const request of model.requests) expect(request.system).not.toContain('BODY-');
    expect(first).toEqual(['analyze']);
    expect(second).toEqual(['analyze', 'call get_items', 'result get_items', 'page r01, r02, r03']);
    // The page keeps its place while the batch is worked on: the second request starts with the first, whole.
    expect(third?.slice(0, 4)).toEqual(second);
    expect(third?.slice(4)).toEqual(['call list_results', 'result list_results']);
    // Saved: the batch's traffic leaves, the save_result call stays as the record of the result.
    expect(fourth).toEqual(['analyze', 'call save_result', 'result save_result']);
    expect(fifth).toEqual([
      'analyze',
      'call save_result',
      'result save_result',
      'call get_items',
      'result get_items',
      'page r04',
    ]);
  });
});

function describePart(part: Part): string {
  if ('functionCall' in part) return `call ${part.functionCall.name}`;
  if ('functionResponse' in part) return `result ${part.functionResponse.name}`;
  if ('text' in part && part.text.startsWith('--- BEGIN ITEMS'))
    return `page ${/\((\d+): ([^)]*)\)/.exec(part.text)?.[2] ?? ''}`;
  return 'text' in part ? part.text : 'data';
}
