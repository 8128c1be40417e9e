import { describe, expect, it } from 'vitest';
import type { ModelCallRecord } from '../../contracts/model-call.js';
import type { SessionStoreWithCallLog } from '../../contracts/session-store.js';
import { paging } from '../../features/paging/paging.js';
import { createScriptedModel } from '../../models/scripted/scripted-model.js';
import { createRunner } from '../../presets/create-runner.js';
import { llmAgent } from '../../engine/agent/define-agent.js';
import { stablePrefixOf } from '../../engine/assembly/stable-prefix.js';
import { createInMemorySessionStore } from '../../engine/session/in-memory-session-store.js';
import { functionTool } from '../../engine/tools/function-tool.js';
import { explainCacheMiss, explainSessionCache, findPreviousCall } from './explain-cache.js';
import { partJson } from './prefix-compare.js';

// One token per character: counts are exact and easy to check by hand.
const chars = (text: string) => text.length;
const key = { appName: 'analyst', userId: 'u1', sessionId: 's1' };

const tick = functionTool({
  name: 'tick',
  description: 'Moves the clock on.',
  execute: (_args, context) => (context.state.set('current_time', '09:05'), { ok: true }),
});
const lookup = functionTool({ name: 'lookup', description: 'Looks a word up.', execute: () => ({ found: true }) });

async function record(options: {
  agent: ReturnType<typeof llmAgent>;
  responses: Parameters<typeof createScriptedModel>[0];
  state?: Record<string, unknown>;
  sessions?: SessionStoreWithCallLog;
}): Promise<ModelCallRecord[]> {
  const sessions = options.sessions ?? createInMemorySessionStore();
  let time = 1_700_000_000;
  let id = 0;
  const runner = createRunner({
    agents: options.agent,
    model: createScriptedModel(options.responses),
    sessions,
    now: () => (time += 0.001),
    newId: () => `id${++id}`,
  });
  await runner.createSession({ userId: 'u1', sessionId: 's1', state: options.state ?? {} });
  for await (const _event of runner.run({ userId: 'u1', sessionId: 's1', message: 'go' }));
  const calls = await sessions.listModelCalls(key);
  return Promise.all(
    calls.map(async (call) => (await sessions.getModelCall({ ...key, index: call.index })) as ModelCallRecord),
  );
}

const clockAgent = llmAgent({
  name: 'analyst',
  description: 'Reads items.',
  instruction: 'Analyze the items. The time is {current_time}. Be brief.',
  tools: [tick, lookup],
});

describe('explainCacheMiss', () => {
  it('names the placeholder whose value changed, and counts the re-billed rest of the prefix', async () => {
    const [first, second, third] = await record({
      agent: clockAgent,
      state: { current_time: '09:00' },
      responses: [
        { functionCall: { name: 'tick', args: {} } },
        { functionCall: { name: 'lookup', args: {} } },
        { text: 'done' },
      ],
    });
    const explanation = explainCacheMiss(first!, second!, chars);
    const offset = first!.request.system.indexOf('09:00') + 4;
    expect(explanation).toMatchObject({
      previous: 1,
      current: 2,
      agent: 'analyst',
      kept: false,
      difference: {
        location: { where: 'system', offset },
        cause: {
          kind: 'substitution-changed',
          text: 'instruction: {current_time} changed',
          substitution: {
            placeholder: '{current_time}',
            key: 'current_time',
            previousValue: '09:00',
            currentValue: '09:05',
          },
          previousSource: { kind: 'instruction', field: 'instruction' },
          currentSource: { kind: 'instruction', field: 'instruction' },
        },
        excerpt: {
          before: expect.stringMatching(/The time is 09:0$/),
          previous: expect.stringMatching(/^0\. Be brief\./),
          current: expect.stringMatching(/^5\. Be brief\./),
        },
      },
    });
    // Re-billed: the system text from the difference to its end, then every stable message part, as JSON.
    const prefix = stablePrefixOf(first!.request, first!.provenance);
    const parts = first!.request.messages
      .slice(0, prefix.messages)
      .flatMap((message) => message.content.map((part) => partJson(part).length));
    expect(explanation.tokens.rebilled).toBe(prefix.systemChars - offset + parts.reduce((a, b) => a + b, 0));
    expect(explanation.tokens.kept + explanation.tokens.rebilled + explanation.tokens.dropped).toBe(
      explanation.tokens.prefix,
    );
    // The next call keeps the prefix: only messages were added.
    expect(explainCacheMiss(second!, third!, chars)).toMatchObject({ kept: true, tokens: { rebilled: 0 } });
    expect(explainCacheMiss(second!, third!, chars).difference).toBeUndefined();
  });

  it('tells reordered, added, removed and changed tools apart', async () => {
    const [call] = await record({ agent: clockAgent, state: { current_time: '09:00' }, responses: [{ text: 'hi' }] });
    const base = call!;
    const withTools = (
      tools: ModelCallRecord['request']['tools'],
      sources = base.provenance.tools,
    ): ModelCallRecord => ({
      ...base,
      index: 2,
      request: { ...base.request, tools },
      provenance: { ...base.provenance, tools: sources },
    });
    const [a, b] = base.request.tools as [
      ModelCallRecord['request']['tools'][number],
      ModelCallRecord['request']['tools'][number],
    ];
    const reordered = explainCacheMiss(base, withTools([b, a], [...base.provenance.tools].reverse()), chars);
    expect(reordered.difference?.location).toEqual({ where: 'tools', tool: 0 });
    expect(reordered.difference?.cause).toMatchObject({
      kind: 'tools-reordered',
      text: 'tools reordered',
      order: { previous: ['tick', 'lookup'], current: ['lookup', 'tick'] },
    });
    // Everything is re-billed from the first tool on.
    expect(reordered.tokens).toMatchObject({ kept: 0, rebilled: reordered.tokens.prefix });
    const extra = { name: 'extra', description: 'More.' };
    expect(explainCacheMiss(base, withTools([a, b, extra]), chars).difference?.cause).toMatchObject({
      kind: 'tool-added',
      text: 'tool added: extra',
      tool: 'extra',
    });
    expect(explainCacheMiss(base, withTools([a]), chars).difference).toMatchObject({
      location: { where: 'tools', tool: 1 },
      cause: { kind: 'tool-removed', text: 'tool removed: lookup' },
    });
    expect(explainCacheMiss(base, withTools([a, { ...b, description: 'Other.' }]), chars).difference?.cause.text).toBe(
      'tool changed: lookup (description)',
    );
  });

  it('names a page paged into the instruction, and sees the prefix kept while the page changes behind it', async () => {
    // The page in the system text (placement `system` where paging offers placements; the only place before that).
    const options = {
      name: 'items',
      maxPerRead: 5,
      load: (itemId: string) => `BODY-${itemId}`,
      placement: 'system' as const,
    };
    const items = paging(options);
    const agent = llmAgent({
      name: 'analyst',
      description: 'Reads items.',
      instruction: 'Analyze the items you page in.',
      extensions: [items],
    });
    const calls = await record({
      agent,
      responses: [
        { functionCall: { name: 'get_items', args: { ids: ['a', 'b'] } } },
        { functionCall: { name: 'get_items', args: { ids: ['c'] } } },
        { text: 'done' },
      ],
    });
    const paged = explainCacheMiss(calls[0]!, calls[1]!, chars);
    expect(paged.difference?.location.where).toBe('system');
    expect(paged.difference?.cause).toMatchObject({
      kind: 'page-added',
      text: 'page added: paging:items',
      previousSource: { kind: 'identity' },
      currentSource: { kind: 'page', extension: 'paging:items' },
    });
    expect(paged.difference?.excerpt.current).toMatch(/BEGIN ITEMS/);
    // The page is set aside from the stable prefix, so another batch keeps it.
    expect(explainCacheMiss(calls[1]!, calls[2]!, chars).kept).toBe(true);
  });

  it('names a model change, a callback, a compaction and a changed agent', async () => {
    const [first, second] = await record({
      agent: clockAgent,
      state: { current_time: '09:00' },
      responses: [{ functionCall: { name: 'lookup', args: {} } }, { text: 'done' }],
    });
    const model = explainCacheMiss(first!, { ...second!, model: { provider: 'other', modelId: 'm2' } }, chars);
    expect(model.difference).toMatchObject({
      location: { where: 'start' },
      cause: { kind: 'model-changed', change: { current: 'other:m2' } },
    });
    expect(model.tokens).toMatchObject({ kept: 0, rebilled: model.tokens.prefix });

    // A hook that writes into the system text from the second call on.
    let calls = 0;
    const hooked = llmAgent({
      ...clockAgent,
      callbacks: {
        beforeModel: ({ request }) =>
          void (calls++ > 0 ? (request.system = request.system.replace('Be brief.', 'Be brief. Call 2.')) : undefined),
      },
    });
    const [h1, h2] = await record({
      agent: hooked,
      state: { current_time: '09:00' },
      responses: [{ functionCall: { name: 'lookup', args: {} } }, { text: 'done' }],
    });
    expect(explainCacheMiss(h1!, h2!, chars).difference?.cause).toMatchObject({
      kind: 'callback',
      text: 'system text written by a callback (callbacks.beforeModel)',
    });

    const summary = { kind: 'summary' as const, processor: 'contents', agent: 'analyst', eventIds: ['e1'] };
    const compacted: ModelCallRecord = {
      ...second!,
      request: {
        ...second!.request,
        messages: [
          { role: 'user', content: [{ text: 'Summary of earlier turns.' }] },
          ...second!.request.messages.slice(1),
        ],
      },
      provenance: { ...second!.provenance, messages: [[summary], ...second!.provenance.messages.slice(1)] },
    };
    expect(explainCacheMiss(first!, compacted, chars).difference).toMatchObject({
      location: { where: 'message', message: 0, part: 0 },
      cause: { kind: 'compaction', text: 'history rewritten: compaction' },
    });
    const other = explainCacheMiss(
      first!,
      { ...second!, agent: 'writer', request: { ...second!.request, system: 'Write.' } },
      chars,
    );
    expect(other.difference?.cause).toMatchObject({ kind: 'agent-changed', text: 'agent changed: analyst → writer' });
  });

  it('names a rewritten history and a skill loaded into the first message', async () => {
    const [first, second] = await record({
      agent: clockAgent,
      state: { current_time: '09:00' },
      responses: [{ functionCall: { name: 'lookup', args: {} } }, { text: 'one' }],
    });
    // The call and its result taken out of the history, as a release or a hook would, and a new turn in their place.
    const turn = { kind: 'history' as const, processor: 'contents', agent: 'analyst', eventIds: ['new'] };
    const released: ModelCallRecord = {
      ...second!,
      index: 3,
      request: {
        ...second!.request,
        messages: [second!.request.messages[0]!, { role: 'model', content: [{ text: 'Later.' }] }],
      },
      provenance: { ...second!.provenance, messages: [second!.provenance.messages[0]!, [turn]] },
    };
    expect(explainCacheMiss(second!, released, chars).difference).toMatchObject({
      location: { where: 'message', message: 1, part: 0 },
      cause: { kind: 'history-rewritten', text: 'history rewritten: lookup call removed' },
    });
    const skill = { kind: 'skill' as const, processor: 'context-blocks', agent: 'analyst', field: 'skills.pdf' };
    const loaded: ModelCallRecord = {
      ...second!,
      request: {
        ...second!.request,
        messages: [
          { role: 'user', content: [{ text: '<skill name="pdf">…</skill>' }, ...second!.request.messages[0]!.content] },
          ...second!.request.messages.slice(1),
        ],
      },
      provenance: {
        ...second!.provenance,
        messages: [[skill, ...second!.provenance.messages[0]!], ...second!.provenance.messages.slice(1)],
      },
    };
    expect(explainCacheMiss(first!, loaded, chars).difference).toMatchObject({
      location: { where: 'message', message: 0, part: 0 },
      cause: { kind: 'skill-loaded', text: 'skill loaded: pdf' },
    });
  });

  it('is plain data: the same inputs give the same JSON', async () => {
    const [first, second] = await record({
      agent: clockAgent,
      state: { current_time: '09:00' },
      responses: [{ functionCall: { name: 'tick', args: {} } }, { text: 'done' }],
    });
    const explanation = explainCacheMiss(first!, second!, chars);
    expect(JSON.parse(JSON.stringify(explanation))).toEqual(explanation);
    expect(JSON.stringify(explainCacheMiss(first!, second!, chars))).toBe(JSON.stringify(explanation));
  });
});

describe('findPreviousCall and explainSessionCache', () => {
  const call = (index: number, agent: string, extra: Partial<ModelCallRecord> = {}) => ({
    index,
    agent,
    request: { system: '', tools: [], messages: [], config: {} },
    provenance: { system: [], tools: [], messages: [] },
    ...extra,
  });

  it('finds the latest earlier call of the same agent with the same parent, skipping calls without a request', () => {
    const parent = { callIndex: 2, functionCallId: 'f1', tool: 'helper' };
    const calls = [
      call(1, 'a'),
      call(2, 'b'),
      call(3, 'a', { parent }),
      { index: 4, agent: 'a' },
      call(5, 'a', { parent }),
      call(6, 'a'),
    ];
    expect(findPreviousCall(calls, 6)?.index).toBe(1);
    expect(findPreviousCall(calls, 5)?.index).toBe(3);
    expect(findPreviousCall(calls, 3)).toBeUndefined();
    expect(findPreviousCall(calls, 2)).toBeUndefined();
    expect(findPreviousCall(calls, 99)).toBeUndefined();
  });

  it('reports every call of a session with totals', async () => {
    const calls = await record({
      agent: clockAgent,
      state: { current_time: '09:00' },
      responses: [
        { functionCall: { name: 'tick', args: {} } },
        { functionCall: { name: 'lookup', args: {} } },
        { text: 'done' },
      ],
    });
    const report = explainSessionCache(calls, chars);
    expect(report.calls.map((entry) => [entry.index, entry.explanation?.kept])).toEqual([
      [1, undefined],
      [2, false],
      [3, true],
    ]);
    expect(report.totals).toMatchObject({ calls: 3, first: 1, kept: 1, changed: 1 });
    expect(report.totals.rebilledTokens).toBe(report.calls[1]?.explanation?.tokens.rebilled);
    expect(report.calls[0]?.stablePrefixTokens).toBe(report.calls[1]?.explanation?.tokens.prefix);
  });
});
