import { expect } from 'vitest';
import { z } from 'zod';
import type { Content } from '../../src/contracts/content.js';
import type { Event, EventInput } from '../../src/contracts/event.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { planDueCompaction } from '../../src/engine/compaction/plan-due.js';
import { INTERRUPTED_CALL_ERROR, interruptedResponse } from '../../src/engine/runner/interrupted-calls.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { ExtractiveSummarizer } from '../../src/features/compaction/extractive-summarizer.js';
import { createRunner, type RunnerOptions } from '../../src/presets/create-runner.js';
import { defineRows } from '../reliability/rows.js';
import { turn } from '../reliability/support.js';
import { note, noteModel, openCalls, responsesTo } from './orphan-helpers.js';

// Part 3, crash recovery, without a process to kill: sessions written as a run killed mid-tool leaves them (a model
// event whose calls have no response), then run again. test/runner/orphan-kill.test.ts kills real processes.
const KEY = { appName: 'helper', userId: 'u1', sessionId: 's1' };
const T0 = 1_600_000_000;

/** A store holding session s1 with these events, written in order, one second apart from T0. */
async function sessionWith(events: readonly EventInput[]): Promise<SessionStore> {
  const sessions = createInMemorySessionStore();
  const session = await sessions.createSession(KEY);
  for (const [index, input] of events.entries())
    await sessions.appendEvent({ session, event: createEvent({ timestamp: T0 + index, ...input }) });
  return sessions;
}

const user = (text: string, invocationId: string): EventInput => ({
  author: 'user',
  invocationId,
  content: { role: 'user', parts: [{ text }] },
});
const calls = (invocationId: string, ...ids: string[]): EventInput => ({
  author: 'helper',
  invocationId,
  content: { role: 'model', parts: ids.map((id) => ({ functionCall: { id, name: 'note', args: { turn: 0 } } })) },
});
const answers = (invocationId: string, ...ids: string[]): EventInput => ({
  author: 'helper',
  invocationId,
  content: {
    role: 'user',
    parts: ids.map((id) => ({ functionResponse: { id, name: 'note', response: { noted: 0 } } })),
  },
});
const said = (text: string, invocationId: string): EventInput => ({
  author: 'helper',
  invocationId,
  content: { role: 'model', parts: [{ text }] },
});

/** Turns of a user message, a `note` call, its result and an answer; the orphan turn stops after its call. */
function history(turns: number, orphanTurn: number): EventInput[] {
  return Array.from({ length: turns }, (_, index) => {
    const inv = `inv${index + 1}`;
    const own = [user(`turn ${index + 1}`, inv), calls(inv, `c${index + 1}`)];
    return index + 1 === orphanTurn ? own : [...own, answers(inv, `c${index + 1}`), said(`noted ${index + 1}`, inv)];
  }).flat();
}

let runners = 0;

/** A runner on its own clock (from T0 + 1000 s unless set) and ids of its own; its model calls `slow` when given agents. */
function runner(sessions: SessionStore, options: Partial<RunnerOptions> = {}) {
  const model = noteModel(options.agents === undefined ? 'note' : 'slow');
  let clock = T0 + 1000;
  let id = 0;
  const prefix = `r${++runners}-`;
  const made = createRunner({
    appName: 'helper',
    agents: llmAgent({ name: 'helper', tools: [note] }),
    model,
    sessions,
    now: () => (clock += 0.001),
    newId: () => `${prefix}${++id}`,
    ...options,
  });
  return { runner: made, model, setClock: (time: number) => (clock = time) };
}

const eventsOf = async (sessions: SessionStore) => (await sessions.getSession(KEY))?.events ?? [];
const isInterrupted = (event: Event | undefined) =>
  (event?.content?.parts ?? []).some(
    (part) => 'functionResponse' in part && part.functionResponse.response?.['error'] === INTERRUPTED_CALL_ERROR,
  );

/** A tool whose first run waits until released (`begun` resolves with its call id); later runs answer at once. */
function gatedTool() {
  let release = () => undefined as void;
  let started: (id: string) => void = () => undefined;
  const begun = new Promise<string>((resolve) => (started = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const tool = functionTool({
    name: 'slow',
    description: 'Takes its time.',
    parameters: z.object({ turn: z.number() }),
    execute: async ({ turn: value }, context) => {
      if (!held) {
        held = true;
        started(context.functionCallId ?? '');
        await gate;
      }
      return { noted: value };
    },
  });
  return { tool, begun, release: () => release() };
}

export const rows = defineRows(import.meta.url, 'faults', [
  {
    id: 'crash.orphan-call',
    entry: 'invocation (memory)',
    tried:
      'a session whose last model event made two parallel calls and got a response to one (a run killed mid-tool), then `runner.run`; also a call waiting for a person, and a message that answers the call itself',
    expected:
      'before the user message, one event by the agent, in the call\'s invocation, answers only the missing call with `{ error: "interrupted: …" }`; the request pairs every call; the next run answers nothing again; the call waiting for a person and the call the message answers are left alone',
    run: async () => {
      const sessions = await sessionWith([user('turn 1', 'inv1'), calls('inv1', 'a', 'b'), answers('inv1', 'a')]);
      const { runner: made, model } = runner(sessions);
      const first = await turn(made, { message: 'turn 2' });
      expect(first.map((event) => event.author)).toEqual(['helper', 'user', 'helper', 'helper', 'helper']);
      expect(first[0]).toMatchObject({
        invocationId: 'inv1',
        content: {
          role: 'user',
          parts: [{ functionResponse: { id: 'b', name: 'note', response: { error: INTERRUPTED_CALL_ERROR } } }],
        },
      });
      expect(INTERRUPTED_CALL_ERROR).toMatch(/^interrupted: .*unknown whether the tool did anything/);
      expect(model.requests.flatMap(openCalls)).toEqual([]);
      await turn(made, { message: 'turn 3' });
      const stored = await eventsOf(sessions);
      expect([responsesTo(stored, 'a').length, responsesTo(stored, 'b').length]).toEqual([1, 1]);

      // Waiting for a person (a confirmation request names the call), and answered by the incoming message itself.
      const waiting = await sessionWith([
        user('turn 1', 'inv1'),
        { ...calls('inv1', 'ask'), actions: { requestedToolConfirmations: { ask: { hint: 'sure?' } } } },
      ]);
      expect((await turn(runner(waiting).runner, { message: 'turn 2' }))[0]?.author).toBe('user');
      const client = await sessionWith([user('turn 1', 'inv1'), calls('inv1', 'x')]);
      const reply: Content = {
        role: 'user',
        parts: [{ functionResponse: { id: 'x', name: 'note', response: { noted: 'by the client' } } }],
      };
      const replied = await turn(runner(client).runner, { message: reply });
      expect(replied[0]?.content).toEqual(reply);
      expect(responsesTo(await eventsOf(client), 'x').map(({ response }) => response)).toEqual([
        { noted: 'by the client' },
      ]);
    },
  },
  {
    id: 'crash.orphan-in-flight',
    entry: 'invocation (memory)',
    tried:
      'a call of an invocation still running in this process (another runner on the same store); a call another process made less than `toolTimeoutMs` + 1 s ago, and one under a minute old without a limit; a call of an invocation that ended in this process (its result could not be stored); a run whose call another process answers as interrupted while its tool runs',
    expected:
      'the first three are left alone (answered once older); the fourth is answered at once; the run whose call was answered stores no second answer and ends with error event `tool_results_discarded`; one response per call in every case; `interruptedAfterMs: -1` is refused',
    run: async () => {
      // Running here: another runner of this process is inside the tool.
      const live = await sessionWith([]);
      const gated = gatedTool();
      const agents = llmAgent({ name: 'helper', tools: [gated.tool] });
      const busy = turn(runner(live, { agents }).runner, { message: 'turn 1' });
      const id = await gated.begun;
      const other = await turn(runner(live, { agents }).runner, { message: 'turn 2' });
      expect(other.some(isInterrupted)).toBe(false);
      gated.release();
      await busy;
      expect(responsesTo(await eventsOf(live), id).map(({ response }) => response)).toEqual([{ noted: 1 }]);

      // Made by another process 3 s ago, with a tool limit of 5 s: maybe still running; at 7 s, interrupted.
      const young = await sessionWith([user('turn 1', 'inv1'), calls('inv1', 'y')]);
      const limited = runner(young, { toolTimeoutMs: 5000 });
      limited.setClock(T0 + 1 + 3);
      expect((await turn(limited.runner, { message: 'turn 2' })).some(isInterrupted)).toBe(false);
      limited.setClock(T0 + 1 + 7);
      const later = await turn(limited.runner, { message: 'turn 3' });
      expect(isInterrupted(later[0])).toBe(true);
      expect(responsesTo(await eventsOf(young), 'y')).toHaveLength(1);
      // Without a limit, 60 s.
      const minute = await sessionWith([user('turn 1', 'inv1'), calls('inv1', 'z')]);
      const unlimited = runner(minute);
      unlimited.setClock(T0 + 1 + 50);
      expect((await turn(unlimited.runner, { message: 'turn 2' })).some(isInterrupted)).toBe(false);
      unlimited.setClock(T0 + 1 + 61);
      expect(isInterrupted((await turn(unlimited.runner, { message: 'turn 3' }))[0])).toBe(true);
      expect(() => runner(minute, { interruptedAfterMs: -1 })).toThrow(
        /interruptedAfterMs must be a number of milliseconds, 0 or more; got -1/,
      );

      // Ended here: a tool result that cannot be stored (a Map in state) ends the invocation; the next turn answers at once.
      const failed = await sessionWith([]);
      let writes = 0;
      const mapWriter = functionTool({
        name: 'slow',
        description: 'Writes a Map once.',
        parameters: z.object({ turn: z.number() }),
        execute: (_args, context) => (writes++ === 0 && context.state.set('k', new Map()), { ok: true }),
      });
      const here = runner(failed, { agents: llmAgent({ name: 'helper', tools: [mapWriter] }) });
      await expect(turn(here.runner, { message: 'turn 1' })).rejects.toThrow(/cannot be stored as JSON/);
      const next = await turn(here.runner, { message: 'turn 2' });
      expect(isInterrupted(next[0])).toBe(true);

      // Answered as interrupted by another process while the tool runs here: no second answer.
      const raced = await sessionWith([]);
      const slow = gatedTool();
      const running = turn(runner(raced, { agents: llmAgent({ name: 'helper', tools: [slow.tool] }) }).runner, {
        message: 'turn 1',
      });
      const callId = await slow.begun;
      const elsewhere = (await raced.getSession(KEY)) as NonNullable<Awaited<ReturnType<SessionStore['getSession']>>>;
      const orphan = elsewhere.events.at(-1) as Event;
      await raced.appendEvent({
        session: elsewhere,
        event: interruptedResponse(
          { event: orphan, calls: [{ id: callId, name: 'slow' }] },
          { now: () => T0 + 5000, newId: () => 'other' },
        ),
      });
      slow.release();
      const ended = await running;
      expect(ended.at(-1)).toMatchObject({
        errorCode: 'tool_results_discarded',
        errorMessage: expect.stringMatching(
          /tool calls 'slow' were not stored: while they ran, another run on this session recorded them as interrupted/,
        ),
      });
      expect(responsesTo(await eventsOf(raced), callId).map(({ event }) => event.id)).toEqual(['other']);
    },
  },
  {
    id: 'crash.orphan-compaction',
    entry: 'compaction (memory)',
    tried:
      "the stalled session of the report: a killed run's call followed by 40 more events, with everything before it summarized; planned as `agentctx compact --dry-run` plans a stored session, then run with a token trigger (and, apart, a sliding window)",
    expected:
      'before the fix the token trigger found nothing older than the retained events to summarize and the window took one event; now both plan past the unanswered call; after the run answers it, each compacts the call together with its interrupted answer',
    run: async () => {
      const events = history(13, 3);
      const orphanAt = events.findIndex((input) =>
        input.content?.parts.some((part) => 'functionCall' in part && part.functionCall.id === 'c3'),
      );
      expect(events.length - orphanAt - 1).toBe(40);
      const sessions = await sessionWith(events);
      const raw = await eventsOf(sessions);
      const orphan = raw[orphanAt] as Event;
      // What an earlier token compaction had made: everything before the call summarized.
      const before = raw.slice(0, orphanAt).map((event) => event.id);
      const summary = createEvent({
        author: 'user',
        timestamp: T0 + 100,
        actions: {
          compaction: {
            startTimestamp: T0,
            endTimestamp: T0 + orphanAt - 1,
            eventIds: before,
            compactedContent: { role: 'model', parts: [{ text: 'earlier' }] },
          },
        },
      });
      const withSummary = [...raw, summary];
      const token = { tokenThreshold: 10, eventRetentionSize: 3 };
      const stored = { moment: { kind: 'stored' } as const, promptTokens: 1000, summaries: 'exact' as const };
      const tokenPlan = planDueCompaction(withSummary, { token: [token] }, stored)?.plan;
      expect(tokenPlan?.eventIds).toContain(orphan.id);
      expect(tokenPlan?.events.length).toBe(40 + 1 - 3);
      const windowPlan = planDueCompaction(raw, { window: { compactionInterval: 2, overlapSize: 0 } }, stored)?.plan;
      expect(windowPlan?.events.length).toBe(raw.length);
      // ADK's rules still stop at it for good, as ADK does.
      expect(planDueCompaction(withSummary, { token: [token] }, { ...stored, summaries: 'adk' })).toBeUndefined();

      for (const config of [{ ...token }, { compactionInterval: 2, overlapSize: 0 }]) {
        const copy = await sessionWith(events);
        const made = runner(copy, {
          eventsCompactionConfig: { ...config, summarizer: new ExtractiveSummarizer() },
        }).runner;
        const ran = await turn(made, { message: 'turn 14' });
        expect(isInterrupted(ran[0])).toBe(true);
        await turn(made, { message: 'turn 15' });
        const after = await eventsOf(copy);
        const listed = after.flatMap((event) => event.actions.compaction?.eventIds ?? []);
        expect(listed, JSON.stringify(config)).toEqual(expect.arrayContaining([after[orphanAt]?.id, ran[0]?.id]));
      }
    },
  },
]);
