// Runs the 200-turn support conversation of bench/compaction-scenario.ts through agentctx's real runner, with no
// compaction, the sliding window or the token trigger, and measures every model call it made: prompt tokens (the
// local o200k count of the recorded request, with its provenance, exactly as the token trigger counts), the summary
// and the raw tail in it, and whether any function response lost its call.
import {
  createInMemorySessionStore,
  createRunner,
  type EventsCompactionConfig,
  type Event,
  type LlmRequest,
  type Model,
  type Runner,
} from 'agentctx';
import type { SessionStoreWithCallLog } from 'agentctx/sessions';
import type { ModelCallSummary } from 'agentctx/sessions';
import { ExtractiveSummarizer } from 'agentctx/compaction';
import { createScriptedModel } from 'agentctx/models/scripted';
import { countRequestTokens, loadTokenCounter, type TokenCounter } from 'agentctx/tokens';
import { AGENT_NAME, buildAgent, turnPlan, type TurnPlan } from './compaction-scenario.js';

// The line agentctx opens every summary with in a request (its `exact` view of compaction).
const SUMMARY_HEADING = 'Summary of the earlier conversation:';

export type Mode = 'none' | 'window' | 'token';
export const MODES: readonly Mode[] = ['none', 'window', 'token'];
export const TURNS = 200;
export const WINDOW = { compactionInterval: 10, overlapSize: 2 } as const;
export const TOKEN = { tokenThreshold: 6000, eventRetentionSize: 6 } as const;
/** The extractive summarizer's defaults, stated so the output can name them. */
export const SUMMARIZER = { maxLineChars: 200, maxChars: 4000 } as const;

const KEY = { appName: 'compaction_bench', userId: 'agent-7', sessionId: 'tickets' };

export function compactionConfig(mode: Mode): EventsCompactionConfig | undefined {
  const summarizer = new ExtractiveSummarizer(SUMMARIZER);
  if (mode === 'window') return { ...WINDOW, summarizer };
  if (mode === 'token') return { ...TOKEN, summarizer };
  return undefined;
}

/** One model call of a run. */
export type CallRecord = {
  turn: number;
  /** Prompt tokens of the request as sent (local o200k count, system blocks per provenance). */
  tokens: number;
  messages: number;
  /** Tokens of the summary messages in the request (0 without one). */
  summaryTokens: number;
  /** Tokens (with their framing) of the raw messages after the last summary; 0 when the request has no summary. */
  tailTokens: number;
  tailMessages: number;
  /** A compaction event was stored since the previous model call (before this call, or after the last invocation). */
  compactedBefore: boolean;
  /** Events in the session when the call was made. */
  eventsBefore: number;
};

export type ConversationRun = {
  mode: Mode;
  calls: CallRecord[];
  /** Every event of the session, in order, as the runner stored and yielded them. */
  events: Event[];
  compactions: {
    afterCall: number;
    trigger: 'before call' | 'after invocation';
    summaryChars: number;
    coveredEvents: number;
  }[];
  /** Per turn (index = turn − 1): the user event's invocation id and the model calls' positions. */
  turns: { invocationId: string; firstCall: number; lastCall: number }[];
  /** Requests where a function call and its response were not next to each other, described. */
  pairProblems: string[];
  /** The text of the summary the last request shows (all summaries, joined), and the newest ticket it mentions. */
  lastSummaryText: string;
  summariesInLastRequest: number;
  newestTicketInLastSummary: number | null;
  /** How many distinct tickets (one per turn) the last request still mentions anywhere, summaries included. */
  ticketsInLastRequest: number;
  runnerMs: number;
  /** The recorded calls as listed (usage and model included), for pricing. */
  summaries: ModelCallSummary[];
};

export type RunOptions = {
  mode: Mode;
  turns?: number;
  onTurn?: (turn: number) => void;
  wrapModel?: (model: Model) => Model;
};

/** A memo in front of the tokenizer: the same count per text, counted once (requests repeat their history). */
export async function memoCounter(): Promise<TokenCounter> {
  const counter = await loadTokenCounter();
  const memo = new Map<string, number>();
  return {
    encoding: counter.encoding,
    count(text: string): number {
      let count = memo.get(text);
      if (count === undefined) memo.set(text, (count = counter.count(text)));
      return count;
    },
  };
}

export function createBenchRunner(mode: Mode, wrapModel?: (model: Model) => Model) {
  let time = 1_750_000_000;
  let id = 0;
  const clock = { now: () => (time += 0.5), newId: () => `id${++id}` };
  const state: {
    plan: TurnPlan;
    step: number;
    compacted: boolean;
    eventsSoFar: number;
    meta: { turn: number; compactedBefore: boolean; eventsBefore: number }[];
  } = {
    plan: turnPlan(1),
    step: 0,
    compacted: false,
    eventsSoFar: 0,
    meta: [],
  };
  // The script: each call takes the turn's next step (its function calls), then answers. It records, for each call,
  // whether a compaction event came since the previous call; the runner yields every stored event before it calls
  // the model, so the driver below has seen them all by then.
  const model = createScriptedModel(
    {
      rules: [
        {
          respond: () => {
            state.meta.push({
              turn: state.plan.turn,
              compactedBefore: state.compacted,
              eventsBefore: state.eventsSoFar,
            });
            state.compacted = false;
            const calls = state.plan.steps[state.step++];
            return calls === undefined ? { text: state.plan.answer } : { functionCalls: calls };
          },
        },
      ],
    },
    { record: false, modelId: `compaction-bench-${mode}` },
  );
  const config = compactionConfig(mode);
  const runner: Runner<SessionStoreWithCallLog> = createRunner({
    agents: buildAgent(),
    appName: KEY.appName,
    sessions: createInMemorySessionStore({ now: clock.now }),
    model: wrapModel === undefined ? model : wrapModel(model),
    ...(config === undefined ? {} : { eventsCompactionConfig: config }),
    now: clock.now,
    newId: clock.newId,
  });
  return { runner, state };
}

/** The whole conversation in one fresh session, then every recorded call measured and checked. */
export async function runConversation(options: RunOptions): Promise<ConversationRun> {
  const turnCount = options.turns ?? TURNS;
  const { runner, state } = createBenchRunner(options.mode, options.wrapModel);
  await runner.createSession({ userId: KEY.userId, sessionId: KEY.sessionId });
  const events: Event[] = [];
  const compactions: ConversationRun['compactions'] = [];
  const turns: ConversationRun['turns'] = [];
  const started = performance.now();
  for (let turn = 1; turn <= turnCount; turn++) {
    state.plan = turnPlan(turn);
    state.step = 0;
    const firstCall = state.meta.length;
    let invocationId = '';
    for await (const event of runner.run({
      userId: KEY.userId,
      sessionId: KEY.sessionId,
      message: state.plan.message,
    })) {
      events.push(event);
      state.eventsSoFar = events.length;
      if (invocationId === '') invocationId = event.invocationId;
      if (event.errorCode !== undefined) throw new Error(`turn ${turn}: ${event.errorCode}: ${event.errorMessage}`);
      const compaction = event.actions.compaction;
      if (compaction !== undefined) {
        state.compacted = true;
        const text = compaction.compactedContent.parts.map((part) => ('text' in part ? part.text : '')).join('\n');
        const trigger = state.step > state.plan.steps.length ? 'after invocation' : 'before call';
        compactions.push({
          afterCall: state.meta.length,
          trigger,
          summaryChars: text.length,
          coveredEvents: compaction.eventIds?.length ?? 0,
        });
      }
    }
    if (state.step !== state.plan.steps.length + 1)
      throw new Error(`turn ${turn}: ${state.step} model calls, expected ${state.plan.steps.length + 1}`);
    turns.push({ invocationId, firstCall, lastCall: state.meta.length - 1 });
    options.onTurn?.(turn);
  }
  const runnerMs = performance.now() - started;
  const stored = await runner.sessions.getSession(KEY);
  if (stored?.events.length !== events.length)
    throw new Error(`the session holds ${stored?.events.length} events, the run yielded ${events.length}`);

  const counter = await memoCounter();
  const list = await runner.sessions.listModelCalls(KEY);
  if (list.length !== state.meta.length) throw new Error(`${list.length} calls recorded, ${state.meta.length} made`);
  const calls: CallRecord[] = [];
  const pairProblems: string[] = [];
  let lastRequest: LlmRequest | undefined;
  for (const [index, summary] of list.entries()) {
    const record = await runner.sessions.getModelCall({ ...KEY, index: summary.index });
    if (record === undefined) throw new Error(`call ${summary.index} is missing`);
    const meta = state.meta[index] as (typeof state.meta)[number];
    const count = countRequestTokens(record.request, counter, record.provenance);
    const lastSummary = record.request.messages.findLastIndex(isSummary);
    let summaryTokens = 0;
    let tailTokens = 0;
    record.request.messages.forEach((message, at) => {
      const tokens = (count.messages.each[at]?.total ?? 0) + PER_MESSAGE;
      if (isSummary(message)) summaryTokens += tokens;
      else if (lastSummary !== -1 && at > lastSummary) tailTokens += tokens;
    });
    calls.push({
      turn: meta.turn,
      tokens: count.total,
      messages: record.request.messages.length,
      summaryTokens,
      tailTokens,
      tailMessages: lastSummary === -1 ? 0 : record.request.messages.length - lastSummary - 1,
      compactedBefore: meta.compactedBefore,
      eventsBefore: meta.eventsBefore,
    });
    for (const problem of pairingProblems(record.request))
      pairProblems.push(`call ${index + 1} (turn ${meta.turn}): ${problem}`);
    lastRequest = record.request;
  }
  const lastSummaryText = (lastRequest?.messages ?? [])
    .filter(isSummary)
    .flatMap((message) =>
      message.content.flatMap((part) => ('text' in part && part.text !== SUMMARY_HEADING ? [part.text] : [])),
    )
    .join('\n');
  const tickets = ticketsIn(lastSummaryText);
  const allText = (lastRequest?.messages ?? [])
    .flatMap((message) => message.content.flatMap((part) => ('text' in part ? [part.text] : [])))
    .join('\n');
  return {
    mode: options.mode,
    calls,
    summaries: list,
    events,
    compactions,
    turns,
    pairProblems,
    lastSummaryText,
    summariesInLastRequest: (lastRequest?.messages ?? []).filter(isSummary).length,
    newestTicketInLastSummary: tickets.length === 0 ? null : Math.max(...tickets),
    ticketsInLastRequest: new Set(ticketsIn(allText)).size,
    runnerMs,
  };
}

const ticketsIn = (text: string): number[] => [...text.matchAll(/\bT-(\d{4})\b/g)].map((match) => Number(match[1]));

/** The framing countRequestTokens adds per message. */
const PER_MESSAGE = 3;

function isSummary(message: LlmRequest['messages'][number]): boolean {
  const first = message.content[0];
  return message.role === 'user' && first !== undefined && 'text' in first && first.text === SUMMARY_HEADING;
}

/**
 * What a provider would reject: a function response whose call is not in the message right before it, a call whose
 * response is not in the message right after it, or a response id answered twice.
 */
export function pairingProblems(request: LlmRequest): string[] {
  const problems: string[] = [];
  const ids = (at: number, kind: 'functionCall' | 'functionResponse'): string[] =>
    (request.messages[at]?.content ?? []).flatMap((part) => {
      if (kind === 'functionCall' && 'functionCall' in part)
        return [part.functionCall.id ?? `(no id) ${part.functionCall.name}`];
      if (kind === 'functionResponse' && 'functionResponse' in part)
        return [part.functionResponse.id ?? `(no id) ${part.functionResponse.name}`];
      return [];
    });
  request.messages.forEach((_message, at) => {
    const responses = ids(at, 'functionResponse');
    const before = new Set(ids(at - 1, 'functionCall'));
    for (const id of responses)
      if (!before.has(id)) problems.push(`message ${at + 1}: response ${id} without its call right before`);
    if (new Set(responses).size !== responses.length) problems.push(`message ${at + 1}: a response appears twice`);
    const after = new Set(ids(at + 1, 'functionResponse'));
    for (const id of ids(at, 'functionCall'))
      if (!after.has(id)) problems.push(`message ${at + 1}: call ${id} without its response right after`);
  });
  return problems;
}

/**
 * The token trigger's guarantee, checked call by call. The trigger measures the request about to be sent; at or over
 * `tokenThreshold` it summarizes everything but the retained tail (the last `eventRetentionSize` events, moved earlier
 * to keep calls with their responses, and never the running invocation's user message or anything after it) and
 * builds the request again. So a call is within bounds when either
 *   - it is under the threshold (`tokens < tokenThreshold`), or
 *   - a compaction came right before it, and what is left once the raw tail after the summary is taken out (system
 *     text, tools, framing and the summary) is under the threshold: `tokens < tokenThreshold + tailTokens`.
 * The tail is bounded by the configuration, not by the history; the summary by the summarizer (here ≤ 2 × maxChars).
 * A call over the threshold with no compaction right before it is a violation (the trigger did not fire).
 */
export function tokenBoundViolations(calls: readonly CallRecord[], threshold: number): string[] {
  const violations: string[] = [];
  calls.forEach((call, index) => {
    if (call.tokens < threshold) return;
    const where = `call ${index + 1} (turn ${call.turn}): ${call.tokens} tokens`;
    if (!call.compactedBefore) violations.push(`${where} ≥ threshold ${threshold} with no compaction before it`);
    else if (call.tokens >= threshold + call.tailTokens)
      violations.push(`${where} ≥ threshold ${threshold} + tail ${call.tailTokens} (summary ${call.summaryTokens})`);
  });
  return violations;
}

/** The options assembleRequest needs to build what the runner built for a turn's first call. */
export function assemblyInput(run: ConversationRun, turn: number) {
  const entry = run.turns[turn - 1];
  const previous = run.turns[turn - 2];
  if (entry === undefined) throw new Error(`no turn ${turn}`);
  const first = run.calls[entry.firstCall] as CallRecord;
  // The runner's contents cache last built the request of the previous turn's last call.
  const warmedOn = previous === undefined ? 0 : (run.calls[previous.lastCall] as CallRecord).eventsBefore;
  const plan = turnPlan(turn);
  return {
    agentName: AGENT_NAME,
    ...KEY,
    events: run.events.slice(0, first.eventsBefore),
    warmEvents: run.events.slice(0, warmedOn),
    invocationId: entry.invocationId,
    userContent: { role: 'user' as const, parts: [{ text: plan.message }] },
    /** Whether a compaction event lies between what the cache holds and this call (which forces a full rebuild). */
    rebuilds: run.events.slice(warmedOn, first.eventsBefore).some((event) => event.actions.compaction !== undefined),
  };
}
