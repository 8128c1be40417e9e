// What context strategies cost with prompt caching, in USD, under each provider's caching rules: the report analyst
// (naive history, paging in the system text, paging in the history — the default) and the 200-turn compaction
// conversation (none, window, token). Every call is billed as its provider would bill the exact body agentctx's adapter
// sends (cache marks and keys included) by a simulator of that provider's cache, then priced by agentctx's own cost
// engine from assets/prices.json. The floor: every report body billed once at the base input price.
// Run: npm run bench:cost [-- --json] [-- --turns N]   (with --json, stdout holds exactly one JSON object)
import { mkdir, writeFile } from 'node:fs/promises';
import type { CostTotal } from 'agentctx/cost';
import type { Mode as AnalystMode } from '../examples/report-analyst/agents.js';
import { generateReports, REPORT_COUNT } from '../examples/report-analyst/reports.js';
import { lineChartSvg } from '../examples/report-analyst/svg-chart.js';
import { MODES, TURNS, type Mode as CompactionMode } from './compaction-conversation.js';
import { PRICED_MODEL, PROVIDERS, SECONDS_PER_CALL, type Provider } from './cost-billing.js';
import { adkAnalystRow, type AdkRow } from './cost-adk.js';
import { floorUsd, priceAnalyst, priceConversation, type PricedRun } from './cost-scenarios.js';

const json = process.argv.includes('--json');
const turnsFlag = process.argv.indexOf('--turns');
const turns = turnsFlag === -1 ? TURNS : Number(process.argv[turnsFlag + 1]);
if (!Number.isInteger(turns) || turns < 10)
  throw new Error(`--turns wants a whole number ≥ 10, got ${process.argv[turnsFlag + 1]}`);
const CHART = '.agentctx/cost-report-analyst.svg';
const ANALYST_MODES: readonly AnalystMode[] = ['naive', 'paged-system', 'paged'];
const tty = process.stderr.isTTY === true;
const reports = generateReports();

const steps = PROVIDERS.length * (ANALYST_MODES.length + 1 + MODES.length) + 1;
let done = 0;
function progress(what: string): void {
  done++;
  const width = 30;
  const filled = Math.round((done / steps) * width);
  const line = `cost bench  [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${steps}  ${what}`;
  if (tty) process.stderr.write(`\r${line.padEnd(100)}${done === steps ? '\n' : ''}`);
  else process.stderr.write(`${line}\n`);
}

const round = (value: number, digits = 4): number => Number(value.toFixed(digits));
const usdOf = (run: PricedRun): number => run.total.usd ?? Number.NaN;
// The prompt's part of the bill: what the context strategy decides (output is the same in every mode).
const inputUsdOf = (total: CostTotal, provider: Provider): number => {
  const price = pricesOf(provider);
  const { tokens } = total;
  const write5m = tokens.cacheWrite - tokens.cacheWrite1h;
  return (
    (tokens.input * price.input +
      tokens.cacheRead * (price.cacheRead ?? price.input) +
      write5m * (price.cacheWrite5m ?? price.input) +
      tokens.cacheWrite1h * (price.cacheWrite1h ?? price.input)) /
    1e6
  );
};

function pricesOf(provider: Provider): {
  input: number;
  cacheRead?: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
} {
  const found = DEFAULT_TABLE.models.find(
    (model) => model.provider === provider && model.model === PRICED_MODEL[provider],
  );
  if (found?.input === undefined) throw new Error(`no price for ${provider}:${PRICED_MODEL[provider]}`);
  return {
    input: found.input,
    ...(found.cacheRead === undefined ? {} : { cacheRead: found.cacheRead }),
    ...(found.cacheWrite5m === undefined ? {} : { cacheWrite5m: found.cacheWrite5m }),
    ...(found.cacheWrite1h === undefined ? {} : { cacheWrite1h: found.cacheWrite1h }),
  };
}

const { DEFAULT_PRICES: DEFAULT_TABLE } = await import('agentctx/cost');
const modeRun = (run: PricedRun, provider: Provider) => ({
  usd: round(usdOf(run)),
  inputUsd: round(inputUsdOf(run.total, provider)),
  calls: run.total.calls,
  promptTokens: run.total.promptTokens,
  cacheReadTokens: run.total.tokens.cacheRead,
  cacheWriteTokens: run.total.tokens.cacheWrite,
  uncachedInputTokens: run.total.tokens.input,
  outputTokens: run.total.tokens.output,
  cacheHitRatio: round(run.total.cacheHitRatio, 3),
});

const providers: Record<string, unknown> = {};
const charts: Record<AnalystMode, number[]> = { naive: [], 'paged-system': [], paged: [] };
for (const provider of PROVIDERS) {
  const floor = await floorUsd(reports, provider);
  const analyst = {} as Record<AnalystMode, PricedRun>;
  for (const mode of ANALYST_MODES) {
    analyst[mode] = await priceAnalyst(mode, reports, { provider });
    progress(`${provider} report analyst ${mode}`);
  }
  // What a framework that marks nothing pays (Anthropic caches only what is marked; OpenAI and Gemini cache anyway).
  const unmarked = await priceAnalyst('naive', reports, { provider, anthropic: false, openai: false });
  progress(`${provider} report analyst naive, no cache marks`);
  const compaction = {} as Record<CompactionMode, PricedRun>;
  for (const mode of MODES) {
    compaction[mode] = await priceConversation(mode, turns, { provider });
    progress(`${provider} compaction ${mode} (${turns} turns)`);
  }
  if (provider === 'anthropic') for (const mode of ANALYST_MODES) charts[mode] = cumulative(analyst[mode].usdPerCall);
  const naiveUsd = usdOf(analyst.naive);
  const pagedUsd = usdOf(analyst.paged);
  providers[provider] = {
    model: PRICED_MODEL[provider],
    naiveUsd: round(naiveUsd),
    pagedSystemUsd: round(usdOf(analyst['paged-system'])),
    pagedUsd: round(pagedUsd),
    floorUsd: round(floor.usd),
    naiveUnmarkedUsd: round(usdOf(unmarked)),
    naiveOverPaged: round(naiveUsd / pagedUsd, 2),
    pagedOverFloor: round(pagedUsd / floor.usd, 2),
    pagedInputOverFloor: round(inputUsdOf(analyst.paged.total, provider) / floor.usd, 2),
    analyst: {
      naive: modeRun(analyst.naive, provider),
      pagedSystem: modeRun(analyst['paged-system'], provider),
      paged: modeRun(analyst.paged, provider),
      floorTokens: floor.tokens,
    },
    compaction: Object.fromEntries(MODES.map((mode) => [mode, modeRun(compaction[mode], provider)])),
  };
}

let adk: AdkRow | { error: string };
try {
  adk = await adkAnalystRow(reports);
} catch (error) {
  adk = { error: error instanceof Error ? error.message : String(error) };
}
progress('@google/adk 2.0.0 report analyst');

await mkdir('.agentctx', { recursive: true });
await writeFile(
  CHART,
  lineChartSvg({
    title: `Report analyst, ${REPORT_COUNT} reports: cumulative USD under Anthropic's prompt caching (${PRICED_MODEL.anthropic})`,
    xLabel: 'model call',
    yLabel: 'USD so far',
    series: [
      { name: 'naive: bodies in the history', color: '#d62728', values: charts.naive },
      { name: 'paging in the system text', color: '#ff7f0e', values: charts['paged-system'] },
      { name: 'paging in the history (default)', color: '#1f77b4', values: charts.paged },
    ],
  }),
);

const result = {
  settings: {
    reports: REPORT_COUNT,
    compactionTurns: turns,
    secondsPerCall: SECONDS_PER_CALL,
    models: PRICED_MODEL,
    tokenizer: 'o200k_base (local approximation of each provider)',
    chart: CHART,
  },
  providers,
  adk,
};
if (json) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const lines = [
    `prompt-caching cost bench: report analyst (${REPORT_COUNT} reports) and a ${turns}-turn conversation, USD per run`,
    '',
  ];
  lines.push(
    'provider    model               naive   sys-paged   paged   floor   naive/paged  paged/floor  (input only)  unmarked naive',
  );
  for (const provider of PROVIDERS) {
    const row = providers[provider] as Record<string, number | string>;
    lines.push(
      `${provider.padEnd(11)} ${String(row['model']).padEnd(18)} ${money(row['naiveUsd'])} ${money(row['pagedSystemUsd'], 11)} ${money(row['pagedUsd'])} ${money(row['floorUsd'])} ${`${row['naiveOverPaged']}×`.padStart(12)} ${`${row['pagedOverFloor']}×`.padStart(12)} ${`${row['pagedInputOverFloor']}×`.padStart(13)} ${money(row['naiveUnmarkedUsd'], 15)}`,
    );
  }
  lines.push('', `compaction conversation, ${turns} turns: USD (share of the prompt read from the cache)`);
  for (const provider of PROVIDERS) {
    const compaction = (
      providers[provider] as { compaction: Record<CompactionMode, { usd: number; cacheHitRatio: number }> }
    ).compaction;
    lines.push(
      `${provider.padEnd(11)} ${MODES.map((mode) => `${mode} ${money(compaction[mode].usd, 0)} (${Math.round(compaction[mode].cacheHitRatio * 100)}%)`).join('   ')}`,
    );
  }
  lines.push(
    '',
    'error' in adk
      ? `@google/adk 2.0.0: did not run (${adk.error})`
      : `@google/adk 2.0.0, naive analyst (its requests priced the same way): ${PROVIDERS.map((provider) => `${provider} ${money(adk.providers[provider]?.usd ?? Number.NaN, 0)}`).join('   ')}`,
  );
  lines.push(`chart: ${CHART}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function cumulative(values: readonly number[]): number[] {
  let total = 0;
  return values.map((value) => (total += value));
}

function money(value: number | string | undefined, width = 7): string {
  return (typeof value === 'number' && Number.isFinite(value) ? `$${value.toFixed(3)}` : '—').padStart(width);
}
