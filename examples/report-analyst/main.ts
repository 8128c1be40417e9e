// agentctx's main job: the report analyst, run offline on the embedded SQLite store, twice — with the
// report bodies returned into the history (naive) and with instruction paging — and the prompt tokens of every
// model call compared side by side, then what each run would cost on Anthropic with prompt caching. Run it with
// `npm start`.
import { mkdir, writeFile } from 'node:fs/promises';
import { createSqliteSessionStore } from 'agentctx/stores/sqlite';
import { compareRuns } from './compare.js';
import { floorUsd, priceRun, priceSource, PRICED_MODEL } from './price-runs.js';
import { expectedAnswer, generateReports, REPORT_COUNT } from './reports.js';
import { APP } from './run-analysis.js';
import { lineChartSvg } from './svg-chart.js';

const CHART = '.agentctx/report-analyst-tokens.svg';
const tty = process.stderr.isTTY === true;
const usd = (value: number) => `$${value.toFixed(3)}`;
const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
const color = (code: number, text: string) =>
  process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined ? `\u001b[${code}m${text}\u001b[0m` : text;

const reports = generateReports();
const expected = expectedAnswer(reports);
await mkdir('.agentctx', { recursive: true });
const store = createSqliteSessionStore();

// About 54 model calls per run (search, transfer, three per batch of ten, the answer), two runs.
const expectedCalls = 2 * (3 + 3 * Math.ceil(REPORT_COUNT / 10));
let calls = 0;
const progress = () => {
  calls++;
  const width = 30;
  const done = Math.min(width, Math.round((calls / expectedCalls) * width));
  const line = `analysing ${REPORT_COUNT} reports  [${'#'.repeat(done)}${'-'.repeat(width - done)}] ${calls}/${expectedCalls} model calls`;
  if (tty) process.stderr.write(`\r${line}`);
  else if (calls % 27 === 0 || calls === expectedCalls) process.stderr.write(`${line}\n`);
};

try {
  const result = await compareRuns(store, reports, progress);
  if (tty) process.stderr.write('\n');
  const naiveCost = await priceRun(store, result.naive.sessionId);
  const pagedCost = await priceRun(store, result.paged.sessionId);
  const floor = await floorUsd(reports);
  const rows = Math.max(result.naive.tokens.length, result.paged.tokens.length);
  const lines = [
    color(
      1,
      `Report analyst: ${REPORT_COUNT} reports, batches of 10, scripted model, SQLite store .agentctx/agentctx.db`,
    ),
    '',
    color(1, ' call   naive (bodies in history)   paged (batch after its page-in)'),
  ];
  for (let index = 0; index < rows; index++) {
    lines.push(
      `${String(index + 1).padStart(5)}   ${String(result.naive.tokens[index] ?? '').padStart(25)}   ${String(result.paged.tokens[index] ?? '').padStart(31)}`,
    );
  }
  lines.push(
    '',
    `total prompt tokens   naive ${result.naiveTotalTokens.toLocaleString('en-US')}   paged ${result.pagedTotalTokens.toLocaleString('en-US')}   ${color(1, `naive / paged = ${result.ratio.toFixed(1)}×`)}`,
    `paged reading call    first batch ${result.pagedFirstBatchTokens}   last full batch ${result.pagedLastBatchTokens}   (+${Math.round((result.pagedLastBatchTokens - result.pagedFirstBatchTokens) / 15)} tokens a batch: its save_result call)`,
    `naive last call       ${result.naiveLastCallTokens} tokens (grows with every batch)`,
    '',
    color(
      1,
      `with prompt caching, billed as Anthropic bills ${PRICED_MODEL} (simulated offline, agentctx's cache breakpoints):`,
    ),
    `  naive ${usd(naiveCost.usd)} (${percent(naiveCost.cacheHitRatio)} of the prompt read from the cache)   paged ${usd(pagedCost.usd)} (${percent(pagedCost.cacheHitRatio)})   ${color(1, `naive / paged = ${(naiveCost.usd / pagedCost.usd).toFixed(1)}×`)}`,
    `  floor ${usd(floor)}: every report body billed once at the input price; paged costs ${(pagedCost.usd / floor).toFixed(2)}× the floor`,
    `  prices: ${priceSource()}; every scenario and provider: npm run bench:cost`,
    '',
    `answer (paged)  ${result.paged.answer.split('\n').at(-1) ?? ''}`,
    `answer (naive)  ${result.naive.answer.split('\n').at(-1) ?? ''}`,
    `expected        ${expected}`,
  );
  const correct = result.paged.answer.endsWith(expected) && result.naive.answer.endsWith(expected);
  lines.push(correct ? color(32, '✓ both answers are right') : color(31, '✗ an answer is wrong'));
  await writeFile(
    CHART,
    lineChartSvg({
      title: `Prompt tokens per model call: ${REPORT_COUNT} reports, naive vs instruction paging`,
      xLabel: 'model call',
      yLabel: 'prompt tokens (o200k, local)',
      series: [
        {
          name: `naive: report bodies in the history (total ${result.naiveTotalTokens.toLocaleString('en-US')})`,
          color: '#d62728',
          values: result.naive.tokens,
        },
        {
          name: `paged: current batch after its page-in (total ${result.pagedTotalTokens.toLocaleString('en-US')})`,
          color: '#1f77b4',
          values: result.paged.tokens,
        },
      ],
    }),
  );
  lines.push(
    '',
    `chart: ${CHART}`,
    `inspect a call: npx agentctx inspect --app ${APP} --user analyst --session ${result.paged.sessionId} --call 4`,
    `or in the browser: npx agentctx web --app ${APP}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exitCode = correct ? 0 : 1;
} finally {
  await store.close();
}
