import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactionPlan } from '../../src/contracts/compaction.js';
import type { Event } from '../../src/contracts/event.js';
import type { Message } from '../../src/contracts/request.js';
import { planSlidingWindow } from '../../src/engine/compaction/sliding-window.js';
import { planTokenCompaction } from '../../src/engine/compaction/token-threshold.js';
import { pythonStr } from '../../src/engine/python/python-format.js';
import { compactionEvent } from '../../src/features/compaction/compaction-event.js';
import { buildContents } from '../../src/features/contents/build-contents.js';
import { toAnthropicMessages } from '../../src/models/anthropic/to-anthropic-request.js';
import { toGeminiContents } from '../../src/models/gemini/gemini-contents.js';
import { toOpenAIMessages } from '../../src/models/openai/to-openai-request.js';
import { propertyRuns } from '../support/property-runs.js';

// Random histories: turns of a user message, tool rounds and an answer. A round's calls are answered at once, later
// (a long-running tool, answered in a later turn), only after a person's confirmation, or never (still pending, or
// abandoned by a run that stopped once a later turn began).
// `interrupted`: the run stopped mid-tool; the next run answers the call as interrupted before its question (as the
// runner does), or only the run after (`interrupted-late`: a run that left it alone, as one still in flight elsewhere).
type Round = { calls: 1 | 2; answer: 'now' | 'later' | 'confirm' | 'never' | 'interrupted' | 'interrupted-late' };
type Turn = {
  rounds: Round[];
  sameTime: boolean;
  compact: 'none' | 'window' | 'token';
  interval: number;
  overlap: number;
  retention: number;
};

const round: fc.Arbitrary<Round> = fc.record({
  calls: fc.constantFrom(1 as const, 2 as const),
  answer: fc.constantFrom(
    'now' as const,
    'now' as const,
    'now' as const,
    'later' as const,
    'confirm' as const,
    'never' as const,
    'interrupted' as const,
    'interrupted-late' as const,
  ),
});
const turn: fc.Arbitrary<Turn> = fc.record({
  rounds: fc.array(round, { maxLength: 3 }),
  sameTime: fc.boolean(),
  compact: fc.constantFrom('none' as const, 'window' as const, 'token' as const),
  interval: fc.integer({ min: 1, max: 3 }),
  overlap: fc.integer({ min: 0, max: 2 }),
  retention: fc.integer({ min: 0, max: 5 }),
});

type Step = { kind: 'request'; keepFrom: string } | { kind: 'compacted'; plan: CompactionPlan };

/** Replays the turns like the runner: request-time token checks mid-turn, a window or token check after each turn. */
function replay(turns: readonly Turn[], check: (events: readonly Event[], step: Step) => void): Event[] {
  const events: Event[] = [];
  let time = 1;
  let ids = 0;
  const laterAnswers: { id: string; name: string }[] = [];
  const interrupted: { id: string; name: string; turn: number; invocationId: string }[] = [];
  turns.forEach((spec, t) => {
    const invocationId = `inv${t}`;
    const push = (event: Omit<Event, 'id' | 'timestamp' | 'invocationId'>) => {
      if (!spec.sameTime) time += 1;
      events.push({ id: `e${++ids}`, invocationId, timestamp: time, ...event });
    };
    const actions = () => ({ stateDelta: {}, artifactDelta: {} });
    const compact = (plan: CompactionPlan | undefined) => {
      if (plan === undefined) return;
      check(events, { kind: 'compacted', plan });
      events.push(
        compactionEvent(plan, { content: { role: 'model', parts: [{ text: `summary ${ids}` }] } }, invocationId, {
          now: () => time,
          newId: () => `c${++ids}`,
        }),
      );
    };
    // The runner answers calls a stopped run left open before it stores the question, in the invocation that made them.
    for (const call of interrupted.filter((item) => item.turn <= t)) {
      interrupted.splice(interrupted.indexOf(call), 1);
      if (!spec.sameTime) time += 1;
      events.push({
        id: `e${++ids}`,
        invocationId: call.invocationId,
        timestamp: time,
        author: 'agent',
        content: {
          role: 'user',
          parts: [{ functionResponse: { id: call.id, name: call.name, response: { error: 'interrupted' } } }],
        },
        actions: actions(),
      });
    }
    push({ author: 'user', content: { role: 'user', parts: [{ text: `question ${t}` }] }, actions: actions() });
    const keepFrom = events.at(-1)?.id as string;
    // Long-running tools from earlier turns report back.
    for (const answer of laterAnswers.splice(0))
      push({
        author: 'agent',
        content: {
          role: 'user',
          parts: [{ functionResponse: { id: answer.id, name: answer.name, response: { late: true } } }],
        },
        actions: actions(),
      });
    for (const [r, item] of spec.rounds.entries()) {
      if (spec.compact === 'token')
        compact(
          planTokenCompaction(
            events,
            { tokenThreshold: 1, eventRetentionSize: spec.retention },
            { promptTokens: 10, keepFrom },
          ),
        );
      check(events, { kind: 'request', keepFrom });
      const calls = Array.from({ length: item.calls }, (_, n) => ({ id: `t${t}r${r}c${n}`, name: `tool${n}` }));
      push({
        author: 'agent',
        content: { role: 'model', parts: calls.map((call) => ({ functionCall: { ...call, args: {} } })) },
        actions: actions(),
      });
      if (item.answer === 'now')
        push({
          author: 'agent',
          content: {
            role: 'user',
            parts: calls.map((call) => ({ functionResponse: { ...call, response: { ok: true } } })),
          },
          actions: actions(),
        });
      else if (item.answer === 'later') laterAnswers.push(...calls);
      else if (item.answer === 'interrupted' || item.answer === 'interrupted-late')
        interrupted.push(
          ...calls.map((call) => ({ ...call, turn: t + (item.answer === 'interrupted' ? 1 : 2), invocationId })),
        );
      else if (item.answer === 'confirm') {
        const confirmations = Object.fromEntries(calls.map((call) => [call.id, { hint: 'confirm?' }]));
        push({
          author: 'agent',
          content: {
            role: 'user',
            parts: calls.map((call) => ({ functionResponse: { ...call, response: { error: 'needs confirmation' } } })),
          },
          actions: { ...actions(), requestedToolConfirmations: confirmations },
        });
        laterAnswers.push(...calls);
      }
    }
    push({ author: 'agent', content: { role: 'model', parts: [{ text: `answer ${t}` }] }, actions: actions() });
    if (spec.compact === 'window')
      compact(planSlidingWindow(events, { compactionInterval: spec.interval, overlapSize: spec.overlap }));
    if (spec.compact === 'token')
      compact(
        planTokenCompaction(events, { tokenThreshold: 1, eventRetentionSize: spec.retention }, { promptTokens: 10 }),
      );
  });
  return events;
}

function contents(events: readonly Event[]): Message[] {
  return buildContents(events, {
    agentName: 'agent',
    branch: undefined,
    preserveFunctionCallIds: true,
    embed: pythonStr,
  }).map((draft) => draft.message);
}

/**
 * What every provider requires of tool traffic: each result answers a call of the message right before it, and
 * each call is answered in the message right after it. Checked on each adapter's own output.
 */
function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const anthropic = toAnthropicMessages(messages);
  anthropic.forEach((message, index) => {
    const uses = new Set(message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])));
    const next = anthropic[index + 1];
    const results = new Set(
      (next?.content ?? []).flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])),
    );
    for (const id of uses)
      if (!results.has(id)) problems.push(`anthropic: tool_use ${id} has no tool_result right after`);
    const previous = anthropic[index - 1];
    const calls = new Set((previous?.content ?? []).flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])));
    for (const block of message.content)
      if (block.type === 'tool_result' && !calls.has(block.tool_use_id))
        problems.push(`anthropic: tool_result ${block.tool_use_id} answers no tool_use right before`);
  });
  const openai = toOpenAIMessages(messages);
  openai.forEach((message, index) => {
    if (message.role !== 'assistant' || message.tool_calls === undefined) return;
    const answered = new Set<string>();
    for (let next = index + 1; openai[next]?.role === 'tool'; next++)
      answered.add((openai[next] as { tool_call_id: string }).tool_call_id);
    for (const call of message.tool_calls)
      if (!answered.has(call.id)) problems.push(`openai: tool call ${call.id} not followed by its tool message`);
  });
  openai.forEach((message, index) => {
    if (message.role !== 'tool') return;
    let at = index - 1;
    while (openai[at]?.role === 'tool') at--;
    const owner = openai[at];
    if (owner?.role !== 'assistant' || !(owner.tool_calls ?? []).some((call) => call.id === message.tool_call_id))
      problems.push(`openai: tool message ${message.tool_call_id} without its call`);
  });
  const gemini = toGeminiContents(messages);
  gemini.forEach((content, index) => {
    const previous = new Set(
      (gemini[index - 1]?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall.id] : [])),
    );
    for (const part of content.parts)
      if ('functionResponse' in part && !previous.has(part.functionResponse.id))
        problems.push(`gemini: response ${part.functionResponse.id} without its call right before`);
  });
  return problems;
}

describe('compaction safety over random histories', () => {
  it('never separates a call from its response, never touches the running turn’s question, never makes a valid conversation invalid', () => {
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 12 }), (turns) => {
        replay(turns, (events, step) => {
          if (step.kind === 'request') {
            // Whatever was compacted so far, the contents are as valid for each provider as the raw history.
            const raw = events.filter((event) => event.actions.compaction === undefined);
            if (pairingProblems(contents(raw)).length === 0) expect(pairingProblems(contents(events))).toEqual([]);
            return;
          }
          const { plan } = step;
          const covered = new Set(plan.events.map((event) => event.id));
          expect(plan.events.every((event) => event.actions.compaction === undefined)).toBe(true);
          // A summarized call's responses are summarized too (or were already), and the other way round.
          const summarizedBefore = new Set(events.flatMap((event) => event.actions.compaction?.eventIds ?? []));
          const gone = (id: string) => covered.has(id) || summarizedBefore.has(id);
          const partnersOf = (callId: string | undefined) =>
            events.filter((event) =>
              (event.content?.parts ?? []).some(
                (part) =>
                  ('functionCall' in part && part.functionCall.id === callId) ||
                  ('functionResponse' in part && part.functionResponse.id === callId),
              ),
            );
          for (const event of plan.events) {
            for (const part of event.content?.parts ?? []) {
              const id =
                'functionCall' in part
                  ? part.functionCall.id
                  : 'functionResponse' in part
                    ? part.functionResponse.id
                    : undefined;
              if (id === undefined) continue;
              const partners = partnersOf(id);
              // A call never answered stays raw while it may still be answered; once a later turn began, the run that
              // made it has stopped (it is abandoned, and will only get the runner's `interrupted` answer).
              if (partners.length === 1) {
                const at = events.indexOf(partners[0] as Event);
                const movedOn = events
                  .slice(at + 1)
                  .some(
                    (later) =>
                      later.author === 'user' &&
                      later.invocationId !== event.invocationId &&
                      later.actions.compaction === undefined,
                  );
                expect(movedOn, `call ${id} is never answered and no later turn began, so it must stay raw`).toBe(true);
                continue;
              }
              for (const partner of partners)
                expect(gone(partner.id), `${event.id} summarized without ${partner.id} (${id})`).toBe(true);
            }
          }
        });
      }),
      propertyRuns(300),
    );
  });

  it('the running turn’s question stays raw at request time, even with nothing retained', () => {
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 8 }), (turns) => {
        replay(
          turns.map((item) => ({ ...item, compact: 'token' as const, retention: 0 })),
          (events, step) => {
            if (step.kind !== 'request') return;
            const question = (events.find((event) => event.id === step.keepFrom)?.content?.parts[0] as { text: string })
              .text;
            const texts = (list: readonly Event[]) =>
              contents(list).flatMap((message) =>
                message.content.flatMap((part) => ('text' in part ? [part.text] : [])),
              );
            // ADK's contents rules may themselves hide it (a late tool response drops the turns since its call).
            if (texts(events.filter((event) => event.actions.compaction === undefined)).includes(question))
              expect(texts(events)).toContain(question);
          },
        );
      }),
      propertyRuns(200),
    );
  });
});
