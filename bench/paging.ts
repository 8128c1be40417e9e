// Instruction paging against the naive baseline on the report analyst: prompt tokens per model call (local tokenizer).
// Run: npm run bench:paging [-- --json]
import { createInMemorySessionStore } from 'agentctx';
import { compareRuns } from '../examples/report-analyst/compare.js';
import { generateReports } from '../examples/report-analyst/reports.js';

const json = process.argv.includes('--json');
const result = await compareRuns(createInMemorySessionStore(), generateReports());
const summary = {
  naiveTotalTokens: result.naiveTotalTokens,
  pagedTotalTokens: result.pagedTotalTokens,
  ratio: Number(result.ratio.toFixed(2)),
  pagedFirstBatchTokens: result.pagedFirstBatchTokens,
  pagedLastBatchTokens: result.pagedLastBatchTokens,
  naiveLastCallTokens: result.naiveLastCallTokens,
};
if (json) {
  console.log(JSON.stringify(summary));
} else {
  console.log(`report analyst, 164 reports in batches of 10, prompt tokens (o200k, local)`);
  console.log(
    `  naive total   ${summary.naiveTotalTokens.toLocaleString('en-US')}   (last call ${summary.naiveLastCallTokens.toLocaleString('en-US')})`,
  );
  console.log(
    `  paged total   ${summary.pagedTotalTokens.toLocaleString('en-US')}   (first batch ${summary.pagedFirstBatchTokens}, last full batch ${summary.pagedLastBatchTokens})`,
  );
  const growth = (summary.pagedLastBatchTokens - summary.pagedFirstBatchTokens) / 15;
  console.log(
    `  ratio         ${summary.ratio}× (target ≥ 10); the paged reading call grows ${growth.toFixed(0)} tokens per batch (its save_result call; target ≤ 60)`,
  );
  console.log("  (raw tokens, no caching: npm run bench:cost prices these runs under each provider's prompt caching)");
}
