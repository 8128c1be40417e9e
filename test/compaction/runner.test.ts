import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { Event } from '../../src/contracts/event.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { countRequestTokens } from '../../src/engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { TokenBasedContextCompactor } from '../../src/features/compaction/compaction-config.js';
import { ExtractiveSummarizer } from '../../src/features/compaction/extractive-summarizer.js';
import { SUMMARY_HEADING } from '../../src/features/contents/compaction-view.js';
import { createScriptedModel, type ScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner, type RunnerOptions } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { collect, testClock } from '../runner/helpers.js';

const key = { appName: 'helper', userId: 'u1', sessionId: 's1' };
const lookup = functionTool({
  name: 'lookup',
  description: 'Looks a topic up.',
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) => ({ found: topic === 'big' ? 'x'.repeat(6000) : `notes on ${topic}` }),
});

/** Answers every user message with one lookup and then a sentence; the summarizer (agent `summarizer`) says SUMMARY. */
function helperModel(): ScriptedModel {
  return createScriptedModel({
    rules: [
      {
        when: (_request, call) => call.agentName === 'summarizer',
        respond: { text: 'SUMMARY of what came before.', usage: { promptTokens: 999 } },
      },
      {
        when: (request) => !lastIsToolResponse(request),
        respond: (request) => ({
          functionCall: { name: 'lookup', args: { topic: lastUserText(request).split(' ').at(-1) ?? '' } },
        }),
      },
      {
        when: (request) => lastIsToolResponse(request),
        respond: (request) => ({ text: `Answered: ${lastUserText(request)}.` }),
      },
    ],
  });
}

function lastIsToolResponse(request: LlmRequest): boolean {
  return request.messages.at(-1)?.content.some((part) => 'functionResponse' in part) === true;
}

function lastUserText(request: LlmRequest): string {
  for (const message of [...request.messages].reverse()) {
    const text = message.content.find(
      (part): part is { text: string } => 'text' in part && message.role === 'user' && part.text !== SUMMARY_HEADING,
    );
    if (text !== undefined) return text.text;
  }
  return '';
}

async function setup(options: Partial<RunnerOptions> & { sessions?: SessionStore; model?: ScriptedModel } = {}) {
  const model = options.model ?? helperModel();
  const runner = createRunner({
    ...testClock(),
    agents: llmAgent({ name: 'helper', instruction: 'Help.', tools: [lookup] }),
    model,
    ...options,
  });
  if ((await runner.sessions.getSession(key)) === undefined)
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
  return { runner, model };
}

const texts = (request: LlmRequest | undefined) =>
  (request?.messages ?? []).map((message) =>
    message.content
      .map((part) =>
        'text' in part
          ? part.text
          : 'functionCall' in part
            ? `call ${part.functionCall.name}`
            : 'functionResponse' in part
              ? `result ${part.functionResponse.name}`
              : '?',
      )
      .join(' | '),
  );
const compactions = (events: readonly Event[]) => events.filter((event) => event.actions.compaction !== undefined);

describe('compaction in the runner', () => {
  it('sliding window: summarizes every two invocations after they end, reaching one back; later requests show the summary in place', async () => {
    const { runner, model } = await setup({
      eventsCompactionConfig: { compactionInterval: 2, overlapSize: 1, summarizer: new ExtractiveSummarizer() },
    });
    const first = await collect(runner, { message: 'tell me about alpha' });
    expect(compactions(first)).toHaveLength(0);
    const second = await collect(runner, { message: 'tell me about beta' });
    const [compaction] = compactions(second);
    expect(compaction?.author).toBe('user');
    expect(second.at(-1)).toBe(compaction);
    const covered = [...first, ...second].filter((event) => event !== compaction).map((event) => event.id);
    expect(compaction?.actions.compaction?.eventIds).toEqual(covered);
    await collect(runner, { message: 'tell me about gamma' });
    expect(texts(model.requests.at(-2))).toEqual([
      expect.stringMatching(
        /^Summary of the earlier conversation: \| - user: tell me about alpha\n- helper called lookup\(\{"topic":"alpha"\}\)\n- lookup returned: \{"found":"notes on alpha"\}/,
      ),
      'tell me about gamma',
    ]);
    // Raw events are never deleted.
    const session = await runner.sessions.getSession(key);
    expect(session?.events.filter((event) => covered.includes(event.id))).toHaveLength(covered.length);
    // The fourth invocation completes the next window, which starts one invocation back (beta).
    await collect(runner, { message: 'tell me about delta' });
    const all = (await runner.sessions.getSession(key))?.events ?? [];
    const next = compactions(all)[1]?.actions.compaction;
    const invocationOf = new Map(all.map((event) => [event.id, event.invocationId]));
    const order = [
      ...new Set(all.filter((event) => event.actions.compaction === undefined).map((event) => event.invocationId)),
    ];
    expect([...new Set(next?.eventIds?.map((id) => invocationOf.get(id)))]).toEqual(order.slice(1));
  });

  it('token threshold: compacts before the call that would exceed it, never separating a call from its result or summarizing the current question', async () => {
    const { runner, model } = await setup({
      eventsCompactionConfig: {
        tokenThreshold: 400,
        eventRetentionSize: 0,
        summarizer: new ExtractiveSummarizer({ maxChars: 300 }),
      },
    });
    const counter = await loadTokenCounter();
    for (const topic of ['alpha', 'beta', 'gamma', 'big', 'delta', 'epsilon'])
      await collect(runner, { message: `tell me about ${topic}` });
    const session = await runner.sessions.getSession(key);
    expect(compactions(session?.events ?? []).length).toBeGreaterThan(0);
    for (const [index, request] of model.requests.entries()) {
      // Every call and response stays paired, and the user's question is always there, raw.
      const calls = request.messages.flatMap((message) =>
        message.content.flatMap((part) => ('functionCall' in part ? [part.functionCall.id] : [])),
      );
      const responses = request.messages.flatMap((message) =>
        message.content.flatMap((part) => ('functionResponse' in part ? [part.functionResponse.id] : [])),
      );
      expect(
        responses.every((id) => calls.includes(id)),
        `request ${index}`,
      ).toBe(true);
      expect(lastUserText(request)).toMatch(/^tell me about /);
    }
    // The 6000-character result ("big") arrived mid-invocation: the very next request was compacted first, so only
    // the current turn (question, call, result) and a summary went out, unlike @google/adk whose count lags a call.
    const afterBig = model.requests.find(
      (request) => lastIsToolResponse(request) && lastUserText(request) === 'tell me about big',
    );
    expect(texts(afterBig)[0]).toMatch(/^Summary of the earlier conversation:/);
    expect(texts(afterBig).slice(1)).toEqual(['tell me about big', 'call lookup', 'result lookup']);
    const tail = countRequestTokens(
      { ...(afterBig as LlmRequest), messages: (afterBig as LlmRequest).messages.slice(1) },
      counter,
    ).total;
    expect(countRequestTokens(afterBig as LlmRequest, counter).total).toBeLessThan(400 + tail);
  });

  it('in ADK compatibility the token check lags a call, as in @google/adk (the big result goes out uncompacted)', async () => {
    const model = helperModel();
    const { runner } = await setup({
      model,
      profile: 'adk',
      eventsCompactionConfig: {
        compactionInterval: 100,
        overlapSize: 0,
        tokenThreshold: 400,
        eventRetentionSize: 0,
        summarizer: new ExtractiveSummarizer(),
      },
    });
    for (const topic of ['alpha', 'big']) await collect(runner, { message: `tell me about ${topic}` });
    const afterBig = model.requests.find(
      (request) => lastIsToolResponse(request) && lastUserText(request) === 'tell me about big',
    );
    expect(texts(afterBig).some((text) => text.startsWith(SUMMARY_HEADING))).toBe(false);
    expect(JSON.stringify(afterBig)).toContain('x'.repeat(6000));
  });

  it('keeps events that share a timestamp with the end of a summary (ADK loses them)', async () => {
    const frozen = () => 1_700_000_000;
    let id = 0;
    const newId = () => `id${++id}`;
    const run = async (adkCompatibility: boolean) => {
      const model = helperModel();
      const { runner } = await setup({
        model,
        now: frozen,
        newId,
        profile: adkCompatibility ? 'adk' : 'agentctx',
        eventsCompactionConfig: { tokenThreshold: 1, eventRetentionSize: 2, summarizer: new ExtractiveSummarizer() },
      });
      await runner.sessions.deleteSession(key);
      await runner.createSession({ userId: 'u1', sessionId: 's1' });
      await collect(runner, { message: 'tell me about alpha', stateDelta: {} });
      await collect(runner, { message: 'tell me about beta' });
      return texts(model.requests.at(-1));
    };
    const exact = await run(false);
    // The summary, then the retained events and the running turn: nothing between them is lost.
    expect(exact.slice(1)).toEqual(['tell me about beta', 'call lookup', 'result lookup']);
    const adk = await run(true);
    expect(adk.some((text) => text.includes('tell me about beta'))).toBe(false);
  });

  it('agent-level contextCompactors use the agent’s own model as summarizer by default, and record its usage', async () => {
    const model = helperModel();
    const agent = llmAgent({
      name: 'helper',
      instruction: 'Help.',
      tools: [lookup],
      contextCompactors: [new TokenBasedContextCompactor({ tokenThreshold: 120, eventRetentionSize: 2 })],
    });
    const { runner } = await setup({ model, agents: agent });
    for (const topic of ['alpha', 'beta', 'gamma']) await collect(runner, { message: `tell me about ${topic}` });
    const summarizerCalls = model.requests.filter((_request, index) => model.agents[index] === 'summarizer');
    expect(summarizerCalls.length).toBeGreaterThan(0);
    expect(summarizerCalls[0]?.messages[0]?.content[0]).toMatchObject({
      text: expect.stringContaining(
        'user: tell me about alpha\nhelper called lookup({"topic":"alpha"})\nlookup returned: {"found":"notes on alpha"}',
      ),
    });
    const [compaction] = compactions((await runner.sessions.getSession(key))?.events ?? []);
    expect(compaction?.usage).toEqual({ promptTokens: 999 });
    expect(compaction?.actions.compaction?.compactedContent).toEqual({
      role: 'model',
      parts: [{ text: 'SUMMARY of what came before.' }],
    });
  });

  it('a summarizer that fails leaves the history whole and the invocation goes on', async () => {
    const failing = { name: 'flaky', summarize: () => Promise.reject(new Error('quota exceeded')) };
    const { runner } = await setup({
      eventsCompactionConfig: { tokenThreshold: 1, eventRetentionSize: 0, summarizer: failing },
    });
    await collect(runner, { message: 'tell me about alpha' });
    const events = await collect(runner, { message: 'tell me about beta' });
    expect(events.find((event) => event.errorCode === 'compaction_failed')?.errorMessage).toMatch(
      /flaky summarizer failed: quota exceeded/,
    );
    expect(events.at(-1)?.content?.parts[0]).toEqual({ text: 'Answered: tell me about beta.' });
    expect(compactions(events)).toHaveLength(0);
  });

  it('when both triggers fire in a turn, the token trigger wins', async () => {
    const { runner } = await setup({
      eventsCompactionConfig: {
        compactionInterval: 1,
        overlapSize: 0,
        tokenThreshold: 120,
        eventRetentionSize: 1,
        summarizer: new ExtractiveSummarizer(),
      },
    });
    let requestTime = 0;
    for (const topic of ['alpha', 'beta', 'gamma', 'delta']) {
      const events = await collect(runner, { message: `tell me about ${topic}` });
      const found = compactions(events);
      // At most one compaction a turn; one made before a model call is not the turn's last event.
      expect(found.length).toBeLessThanOrEqual(1);
      if (found[0] !== undefined && found[0] !== events.at(-1)) requestTime += 1;
    }
    expect(requestTime).toBeGreaterThan(0);
  });

  it('rejects a bad configuration when the runner is made', () => {
    expect(() =>
      createRunner({ agents: llmAgent({ name: 'a' }), eventsCompactionConfig: { tokenThreshold: 100 } }),
    ).toThrow(ValidationError);
    expect(() =>
      createRunner({
        agents: llmAgent({ name: 'a' }),
        eventsCompactionConfig: { compactionInterval: 0, overlapSize: 0 },
      }),
    ).toThrow(/compactionInterval/);
    expect(() => new TokenBasedContextCompactor({ tokenThreshold: -1, eventRetentionSize: 1 })).toThrow(
      /tokenThreshold/,
    );
  });
});

describe('compaction on SQLite', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('stores compaction events whole, and a new process sees the summary in place of the raw events', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-compaction-'));
    dirs.push(dir);
    const path = join(dir, 'sessions.db');
    const config = { compactionInterval: 2, overlapSize: 0, summarizer: new ExtractiveSummarizer() };
    const sessions = createSqliteSessionStore({ path });
    const { runner } = await setup({ sessions, eventsCompactionConfig: config });
    await collect(runner, { message: 'tell me about alpha' });
    const second = await collect(runner, { message: 'tell me about beta' });
    const written = compactions(second)[0];
    await sessions.close();

    const reopened = createSqliteSessionStore({ path });
    const model = helperModel();
    let id = 0;
    const { runner: again } = await setup({
      sessions: reopened,
      model,
      eventsCompactionConfig: config,
      newId: () => `later${++id}`,
    });
    const stored = compactions((await reopened.getSession(key))?.events ?? [])[0];
    expect(stored).toEqual(written);
    await collect(again, { message: 'tell me about gamma' });
    expect(texts(model.requests[0])[0]).toMatch(/^Summary of the earlier conversation: \| - user: tell me about alpha/);
    expect(texts(model.requests[0]).slice(1)).toEqual(['tell me about gamma']);
    await reopened.close();
  });
});
