// Compaction on a 200-turn support conversation with tool calls, through the real runner: no compaction, the sliding
// window and the token trigger, all three with the extractive summarizer (deterministic and offline). Measures the
// prompt tokens of every model call (local o200k count), checks the token trigger's bound and that no call and
// response are ever split, times request assembly at turn 10 and turn 200, and draws the prompts per call.
// Run: npm run bench:compaction [-- --json] [-- --turns N]   (with --json, stdout holds exactly one JSON object; progress
// goes to stderr; --turns changes the conversation's length, 200 by default, and the later turn timed)
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleRequest, createAgentTree, type AssembleOptions } from 'agentctx';
import { createSessionMemo } from 'agentctx/pipeline';
import { stackedChartSvg } from './compaction-chart.js';
import {
  assemblyInput,
  MODES,
  runConversation,
  SUMMARIZER,
  TOKEN,
  tokenBoundViolations,
  TURNS,
  WINDOW,
  type ConversationRun,
  type Mode,
} from './compaction-conversation.js';
import { buildAgent } from './compaction-scenario.js';
import { median } from './stats.js';

const json = process.argv.includes('--json');
const turnsFlag = process.argv.indexOf('--turns');
const TURN_COUNT = turnsFlag === -1 ? TURNS : Number(process.argv[turnsFlag + 1]);
if (!Number.isInteger(TURN_COUNT) || TURN_COUNT < 10)
  throw new Error(`--turns wants a whole number ≥ 10, got ${process.argv[turnsFlag + 1]}`);
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const CHART = '.agentctx/compaction-tokens.svg';
const ASSEMBLY_RUNS = 200;
const ASSEMBLY_TURNS = [10, TURN_COUNT] as const;
const startedAt = Date.now();
const tty = process.stderr.isTTY === true;
const LABEL: Record<Mode, string> = { none: 'no compaction', window: 'sliding window', token: 'token trigger' };

function progress(mode: Mode, turn: number): void {
  const width = 30;
  const done = Math.round((turn / TURN_COUNT) * width);
  const line = `compaction bench  ${LABEL[mode].padEnd(14)} [${'#'.repeat(done)}${'-'.repeat(width - done)}] ${turn}/${TURN_COUNT} turns`;
  if (tty) process.stderr.write(`\r${line}${turn === TURN_COUNT ? '\n' : ''}`);
  else if (turn % 50 === 0 || turn === TURN_COUNT) process.stderr.write(`${line}\n`);
}

// ---- the three runs
const runs = {} as Record<Mode, ConversationRun>;
for (const mode of MODES)
  runs[mode] = await runConversation({ mode, turns: TURN_COUNT, onTurn: (turn) => progress(mode, turn) });

// ---- prompt tokens per call
const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const tokensOf = (mode: Mode): number[] => runs[mode].calls.map((call) => call.tokens);
const none = { total: sum(tokensOf('none')), last: tokensOf('none').at(-1) ?? 0 };
function modeSummary(mode: Mode) {
  const run = runs[mode];
  const tokens = tokensOf(mode);
  const total = sum(tokens);
  const last = tokens.at(-1) ?? 0;
  const summaries = run.compactions.map((compaction) => compaction.summaryChars);
  return {
    modelCalls: tokens.length,
    events: run.events.length,
    totalTokens: total,
    maxTokens: Math.max(...tokens),
    lastCallTokens: last,
    // This mode's total as a share of no compaction's, and how many times fewer tokens that is.
    totalShareOfNone: round(total / none.total),
    timesFewerThanNone: round(none.total / total, 2),
    lastCallShareOfNone: round(last / none.last),
    compactions: run.compactions.length,
    compactionsBeforeCall: run.compactions.filter((compaction) => compaction.trigger === 'before call').length,
    summaryChars:
      summaries.length === 0
        ? null
        : { first: summaries[0] as number, max: Math.max(...summaries), last: summaries.at(-1) as number },
    summariesInLastRequest: run.summariesInLastRequest,
    newestTicketInLastSummary: run.newestTicketInLastSummary,
    ticketsInLastRequest: run.ticketsInLastRequest,
    runnerSeconds: round(run.runnerMs / 1000, 2),
  };
}
const modes = Object.fromEntries(MODES.map((mode) => [mode, modeSummary(mode)])) as Record<
  Mode,
  ReturnType<typeof modeSummary>
>;

// ---- the token trigger's bound (see tokenBoundViolations) and call/response pairing in every mode
const tokenCalls = runs.token.calls;
const afterCompaction = tokenCalls.filter((call) => call.compactedBefore);
const violations = tokenBoundViolations(tokenCalls, TOKEN.tokenThreshold);
const tokenBound = {
  tokenThreshold: TOKEN.tokenThreshold,
  eventRetentionSize: TOKEN.eventRetentionSize,
  calls: tokenCalls.length,
  callsAtOrOverThreshold: tokenCalls.filter((call) => call.tokens >= TOKEN.tokenThreshold).length,
  callsRightAfterCompaction: afterCompaction.length,
  maxTokens: Math.max(...tokenCalls.map((call) => call.tokens)),
  /** Right after each compaction: the request, its raw tail and the rest (system, tools, framing, summary). */
  afterCompaction: {
    maxTokens: Math.max(0, ...afterCompaction.map((call) => call.tokens)),
    maxTailTokens: Math.max(0, ...afterCompaction.map((call) => call.tailTokens)),
    maxTailMessages: Math.max(0, ...afterCompaction.map((call) => call.tailMessages)),
    maxSummaryTokens: Math.max(0, ...afterCompaction.map((call) => call.summaryTokens)),
    maxTokensWithoutTail: Math.max(0, ...afterCompaction.map((call) => call.tokens - call.tailTokens)),
  },
  holds: violations.length === 0,
  violations,
};
const pairing = {
  problems: Object.fromEntries(MODES.map((mode) => [mode, runs[mode].pairProblems.length])) as Record<Mode, number>,
  holds: MODES.every((mode) => runs[mode].pairProblems.length === 0),
  examples: MODES.flatMap((mode) => runs[mode].pairProblems.slice(0, 5).map((problem) => `${mode}: ${problem}`)),
};

// ---- assembly time at turn 10 and 200: the turn's first request, with the contents cache as the runner held it
// (last built for the previous turn's last call; a compaction in between forces a full rebuild), and from scratch.
const tree = createAgentTree(buildAgent());
async function timeAssembly(run: ConversationRun, turn: number) {
  const { warmEvents, rebuilds, ...input } = assemblyInput(run, turn);
  const options: AssembleOptions = { agents: tree, ...input, state: {} };
  const warm: number[] = [];
  const scratch: number[] = [];
  const warmup = Math.ceil(ASSEMBLY_RUNS / 5);
  for (let index = 0; index < warmup + ASSEMBLY_RUNS; index++) {
    const memo = createSessionMemo();
    if (warmEvents.length > 0) await assembleRequest({ ...options, events: warmEvents, memo });
    let start = process.hrtime.bigint();
    await assembleRequest({ ...options, memo });
    const warmMs = Number(process.hrtime.bigint() - start) / 1e6;
    start = process.hrtime.bigint();
    await assembleRequest({ ...options, memo: createSessionMemo() });
    const scratchMs = Number(process.hrtime.bigint() - start) / 1e6;
    if (index >= warmup) {
      warm.push(warmMs);
      scratch.push(scratchMs);
    }
  }
  const { request } = await assembleRequest(options);
  return {
    turn,
    events: input.events.length,
    messages: request.messages.length,
    cacheRebuilds: rebuilds,
    warmMs: round(median(warm), 4),
    fromScratchMs: round(median(scratch), 4),
  };
}
type Timed = Awaited<ReturnType<typeof timeAssembly>>;
/** `early` is turn 10, `late` the last turn (200); the ratios are late / early. */
const assembly = {} as Record<Mode, { early: Timed; late: Timed; warmRatio: number; fromScratchRatio: number }>;
for (const mode of MODES) {
  process.stderr.write(
    `timing assembly  ${LABEL[mode]} at turns ${ASSEMBLY_TURNS.join(' and ')} (${ASSEMBLY_RUNS}× each)\n`,
  );
  const early = await timeAssembly(runs[mode], ASSEMBLY_TURNS[0]);
  const late = await timeAssembly(runs[mode], ASSEMBLY_TURNS[1]);
  assembly[mode] = {
    early,
    late,
    warmRatio: round(late.warmMs / early.warmMs, 2),
    fromScratchRatio: round(late.fromScratchMs / early.fromScratchMs, 2),
  };
}

// ---- chart
const color: Record<Mode, string> = { none: '#7f7f7f', window: '#1f77b4', token: '#ff7f0e' };
const calls = runs.none.calls.length;
const thresholdSeries = {
  name: `tokenThreshold ${TOKEN.tokenThreshold}`,
  color: '#d62728',
  values: Array.from({ length: calls }, () => TOKEN.tokenThreshold),
};
const series = (mode: Mode) => ({
  name: `${LABEL[mode]} (total ${modes[mode].totalTokens.toLocaleString('en-US')})`,
  color: color[mode],
  values: tokensOf(mode),
});
const svg = stackedChartSvg(
  [
    {
      title: `Prompt tokens per model call, ${TURN_COUNT}-turn support conversation with tool calls`,
      series: [series('none'), series('window'), series('token'), thresholdSeries],
    },
    { title: 'The same, compacted modes only', series: [series('window'), series('token'), thresholdSeries] },
  ],
  { xLabel: 'model call', yLabel: 'prompt tokens (o200k, local count)' },
);
await mkdir(join(root, '.agentctx'), { recursive: true });
await writeFile(join(root, CHART), svg);

const notes = [
  `Scripted model, in-memory store, deterministic clock and ids: ${TURN_COUNT} turns, ${calls} model calls per mode (2 or 3 per turn: one or two tools, in parallel or one after the other, then the answer). Tool results are 180–1,100 characters of JSON (median about 300).`,
  `Both compaction modes use ExtractiveSummarizer(${JSON.stringify(SUMMARIZER)}): deterministic and offline. It keeps lines of the conversation up to maxChars, so its summaries are long (about 1,000 tokens); an LLM summarizer would write shorter ones, and both compacted totals would be lower.`,
  `Prompt tokens: the local o200k count of each request as recorded by the store, system blocks per provenance — the count the token trigger compares with tokenThreshold.`,
  'Token bound: a call is within bounds when it is under tokenThreshold, or a compaction came right before it and the request minus its raw tail (the messages after the summary) is under tokenThreshold.',
  `Assembly: assembleRequest of each turn's first request, median of ${ASSEMBLY_RUNS} (after ${Math.ceil(ASSEMBLY_RUNS / 5)} warm-up). "warm": the contents cache as the runner held it, last built for the previous turn's last call (untimed); "from scratch": a new cache, which is what a call right after a compaction pays, since a new summary forces a full rebuild.`,
];
const report = {
  turns: TURN_COUNT,
  modelCallsPerMode: calls,
  config: { window: WINDOW, token: TOKEN, summarizer: { name: 'extractive', ...SUMMARIZER } },
  modes,
  tokenBound,
  pairing,
  assembly,
  chart: CHART,
  notes,
  meta: {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    wallSeconds: round((Date.now() - startedAt) / 1000, 1),
  },
};

if (json) {
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  const n = (value: number): string => value.toLocaleString('en-US');
  const out: string[] = [];
  out.push(
    `compaction: ${TURN_COUNT}-turn support conversation with tool calls, ${calls} model calls per mode, scripted model, extractive summarizer`,
  );
  out.push(
    `  sliding window: compactionInterval ${WINDOW.compactionInterval}, overlapSize ${WINDOW.overlapSize} · token trigger: tokenThreshold ${TOKEN.tokenThreshold}, eventRetentionSize ${TOKEN.eventRetentionSize}`,
  );
  out.push('');
  out.push('prompt tokens per model call (o200k, local count)');
  out.push(
    `  ${'mode'.padEnd(15)}${'total'.padStart(12)}${'vs none'.padStart(10)}${'max'.padStart(9)}${'last call'.padStart(11)}${'vs none'.padStart(9)}${'compactions'.padStart(13)}${'runner s'.padStart(10)}`,
  );
  for (const mode of MODES) {
    const row = modes[mode];
    out.push(
      `  ${LABEL[mode].padEnd(15)}${n(row.totalTokens).padStart(12)}${`${row.timesFewerThanNone}×`.padStart(10)}${n(row.maxTokens).padStart(9)}${n(row.lastCallTokens).padStart(11)}${`${(row.lastCallShareOfNone * 100).toFixed(1)}%`.padStart(9)}${String(row.compactions).padStart(13)}${row.runnerSeconds.toFixed(2).padStart(10)}`,
    );
  }
  out.push('  ("vs none": how many times fewer tokens in total, and the last call as a share of the uncompacted one;');
  out.push('   "runner s": wall time of the whole run through the runner, compaction and its token counts included)');
  out.push('');
  out.push('what the last request keeps (summary characters: the extractive summarizer keeps lines up to maxChars)');
  out.push(
    `  ${'mode'.padEnd(15)}${'summary chars first/max/last'.padStart(30)}${'summaries shown'.padStart(17)}${'newest ticket in them'.padStart(23)}${'tickets mentioned'.padStart(19)}`,
  );
  for (const mode of MODES) {
    const row = modes[mode];
    const chars =
      row.summaryChars === null
        ? '—'
        : `${row.summaryChars.first} / ${row.summaryChars.max} / ${row.summaryChars.last}`;
    const newest =
      row.newestTicketInLastSummary === null ? '—' : `T-${String(row.newestTicketInLastSummary).padStart(4, '0')}`;
    out.push(
      `  ${LABEL[mode].padEnd(15)}${chars.padStart(30)}${String(row.summariesInLastRequest).padStart(17)}${newest.padStart(23)}${`${row.ticketsInLastRequest} of ${TURN_COUNT}`.padStart(19)}`,
    );
  }
  out.push(
    '  (one ticket per turn: "tickets mentioned" counts those the last request names anywhere, summaries and raw messages)',
  );
  out.push('');
  const after = tokenBound.afterCompaction;
  out.push(
    `token bound (tokenThreshold ${TOKEN.tokenThreshold} + retained raw tail): ${tokenBound.holds ? '✓ holds' : '✗ VIOLATED'} for all ${tokenBound.calls} calls`,
  );
  out.push(
    `  max prompt ${n(tokenBound.maxTokens)} tokens; ${tokenBound.callsAtOrOverThreshold} calls at or over the threshold; ${tokenBound.callsRightAfterCompaction} calls right after a compaction`,
  );
  out.push(
    `  right after a compaction: max ${n(after.maxTokens)} tokens, of which raw tail ≤ ${n(after.maxTailTokens)} (≤ ${after.maxTailMessages} messages), summary ≤ ${n(after.maxSummaryTokens)}; without the tail ≤ ${n(after.maxTokensWithoutTail)}`,
  );
  for (const violation of violations.slice(0, 10)) out.push(`  ✗ ${violation}`);
  out.push(
    `call/response pairs: ${pairing.holds ? '✓ never split' : '✗ SPLIT'} (problems: none ${pairing.problems.none}, window ${pairing.problems.window}, token ${pairing.problems.token})`,
  );
  for (const example of pairing.examples) out.push(`  ✗ ${example}`);
  out.push('');
  out.push(`request assembly of the turn's first call (median of ${ASSEMBLY_RUNS}, ms)`);
  out.push(
    `  ${'mode'.padEnd(15)}${'turn 10'.padStart(9)}${`turn ${TURN_COUNT}`.padStart(10)}${'ratio'.padStart(8)}   ${'from scratch 10'.padStart(15)}${String(TURN_COUNT).padStart(9)}${'ratio'.padStart(10)}   messages 10 → ${TURN_COUNT}`,
  );
  for (const mode of MODES) {
    const row = assembly[mode];
    const mark = (rebuilds: boolean) => (rebuilds ? '*' : ' ');
    out.push(
      `  ${LABEL[mode].padEnd(15)}${`${row.early.warmMs.toFixed(3)}${mark(row.early.cacheRebuilds)}`.padStart(9)}${`${row.late.warmMs.toFixed(3)}${mark(row.late.cacheRebuilds)}`.padStart(10)}${`${row.warmRatio}×`.padStart(8)}   ${row.early.fromScratchMs.toFixed(3).padStart(15)}${row.late.fromScratchMs.toFixed(3).padStart(9)}${`${row.fromScratchRatio}×`.padStart(10)}   ${row.early.messages} → ${row.late.messages}`,
    );
  }
  out.push(
    '  (warm: the cache as the runner held it; * a compaction since the cache was built, so it rebuilt in full)',
  );
  out.push('');
  out.push(`chart: ${CHART}`);
  out.push(`wall time ${report.meta.wallSeconds} s`);
  process.stdout.write(`${out.join('\n')}\n`);
}
if (!tokenBound.holds || !pairing.holds) process.exitCode = 1;
