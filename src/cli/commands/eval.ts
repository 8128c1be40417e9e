import { writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../../contracts/errors/usage-error.js';
import type { EvalCaseRun, EvalSet } from '../../contracts/evaluation.js';
import {
  evalSetResultOf,
  evalSetResultFileName,
  formatEvalSetResult,
} from '../../analysis/eval/eval-set-result-file.js';
import { checkMetrics } from '../../analysis/eval/evaluate-case.js';
import { runEvalSet } from '../../presets/run-eval-set.js';
import { aggregateRuns } from '../../analysis/eval/aggregate-runs.js';
import { parseCommandArgs } from '../args.js';
import { addSessionToEvalSet } from '../eval-add.js';
import { formatEvalCsv } from '../eval-csv.js';
import { formatEvalResults } from '../format-eval.js';
import type { CliIo, Command } from '../io.js';
import { progressBar } from '../progress.js';
import { PROFILE_HELP, profileChoice } from '../profile-option.js';
import { BILL_AS_HELP, billAsChoice } from '../bill-as-option.js';
import { compareVariants, COMPARE_HELP, COMPARE_OPTIONS } from '../eval-compare.js';
import { readEvalInputs } from '../eval-inputs.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle } from '../style.js';

const HELP = `Usage: agentctx eval <agent-file-or-module> <evalset-file-or-folder> [options]
       agentctx eval --compare <agent-a> <agent-b> <evalset-file-or-folder> [options]
       agentctx eval add <file.evalset.json> <agent-file> --session <id> [--user id] [--id case-id] [--store path]

Runs ADK eval sets against an agent and scores them (docs/evaluation.md): each
case in a session of its own, its user turns sent one by one, the answers and
tool calls compared with the case's by every metric of the config. Both of
ADK's file forms are read: .evalset.json (an EvalSet, snake_case or camelCase)
and the legacy .test.json lists. Every model call is recorded in the store, so
'agentctx inspect <agent> --session <id>' opens any case's requests.

Metrics (ADK 2.5.0's): tool_trajectory_avg_score (EXACT, IN_ORDER, ANY_ORDER),
response_match_score (ROUGE-1 as Google's rouge_score computes it), and, judged
by an LLM with ADK's prompts (they need --judge): final_response_match_v2 (is
each answer valid against the expected one), hallucinations_v1 (is each
sentence supported by what the agent had),
rubric_based_final_response_quality_v1 and rubric_based_tool_use_quality_v1
(yes/no per rubric). Vertex AI's metrics (safety_v1, response_evaluation_score,
multi_turn_*) are refused: they need Google's evaluation service. The
config is --config, else the test_config.json beside the eval set, else ADK's
defaults: tool_trajectory_avg_score 1.0, response_match_score 0.8.

Each case run is shown with what it cost: model and tool calls, prompt tokens
and the share read from a prompt cache, USD with caching, time. With --runs,
each case's runs are also taken together as ADK's AgentEvaluator takes them
(per metric, the mean of every run's scores against the threshold).

Exits 0 when every case passes (with --runs: over its runs taken together), 1
when one fails a threshold, 2 on bad input.

${COMPARE_HELP}

'eval add' turns a recorded session into a case of an eval set (made when
missing), as ADK's dev UI does: its user turns, tool calls and final answers
become the expected ones.

Options:
  --config <file>    test_config.json: { "criteria": { "<metric>": <threshold or criterion> } }
  --runs <n>         run each case n times (ADK's num_runs; default 1)
  --model <name>     the model for every agent (default: each agent's own),
                     e.g. scripted:<file> to evaluate offline
  --judge <model>    the judge of the LLM-judged metrics, whatever model their
                     criterion's judge_model_options name (ADK's judge_model,
                     kept in the results); e.g. google:gemini-2.5-flash
  --store <path>     where the cases' sessions are kept (default: memory)
${BILL_AS_HELP}
  --out <folder>     write ADK's EvalSetResult JSON there, one file per eval set
  --csv <file>       also write the results as CSV: a row per case run and metric
  --json             print the results as JSON (ADK's EvalCaseResult, camelCase,
                     with each run's efficiency)
${PROFILE_HELP}
  --compare          compare two agents over the eval set (see above)
  --model-a, --model-b, --profile-a, --profile-b
                     with --compare: one side's model or profile
  -h, --help         show this help

Examples:
  agentctx eval agent.yaml tests/simple.evalset.json --model scripted:script.yaml
  agentctx eval agent.yaml tests/ --config tests/test_config.json --out results
  agentctx eval --compare naive.ts paged.ts tests/ --json
  agentctx eval --compare agent.yaml agent.yaml tests/ --profile-b adk --bill-as anthropic:claude-sonnet-4-6
  agentctx eval add tests/cases.evalset.json agent.yaml --session s1
`;

export const evalCommand: Command = {
  name: 'eval',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    if (args[0] === 'add') return addSessionToEvalSet(args.slice(1), io, runtime);
    const { values, positionals } = parseCommandArgs('eval', args, {
      config: { type: 'string' },
      runs: { type: 'string' },
      model: { type: 'string' },
      judge: { type: 'string' },
      store: { type: 'string' },
      out: { type: 'string' },
      csv: { type: 'string' },
      json: { type: 'boolean' },
      profile: { type: 'string' },
      'bill-as': { type: 'string' },
      ...COMPARE_OPTIONS,
    });
    if (values.compare === true) return compareVariants(positionals, values, io, runtime);
    const [agentFile, setPath, ...extra] = positionals;
    if (agentFile === undefined || setPath === undefined)
      throw new UsageError(
        'eval needs an agent file and an eval set file or folder.',
        'For example: agentctx eval agent.yaml tests/simple.evalset.json',
      );
    if (extra.length > 0)
      throw new UsageError(`eval takes one agent file and one eval set, got ${positionals.length} paths.`);
    const { runs, sets, metrics } = await readEvalInputs(setPath, values, io.cwd);
    // Resolved, and the metrics checked, before any agent runs.
    const judge = values.judge === undefined ? undefined : await runtime.model(values.judge);
    checkMetrics(metrics, judge);
    const { runner } = await runtime.runner(agentFile, {
      store: values.store ?? 'memory',
      model: values.model,
      streaming: false,
      ...profileChoice(values.profile),
      ...billAsChoice(values['bill-as']),
    });
    const style = createStyle(io.isTty);
    const all: { set: EvalSet; results: EvalCaseRun[] }[] = [];
    for (const { set } of sets) {
      const bar = progressBar(io, `eval ${set.evalSetId}`);
      const results = await runEvalSet({
        runner,
        evalSet: set,
        metrics,
        runs,
        onResult: ({ done, total }) => bar.update(done, total),
        ...(judge === undefined ? {} : { judge }),
        // ADK logs a metric that failed to evaluate and goes on with it NOT_EVALUATED.
        onMetricError: (evalId, metricName, error) =>
          io.stderr(
            `warning: ${metricName} was not evaluated for ${evalId}: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      });
      bar.done();
      all.push({ set, results });
      if (values.out !== undefined) {
        const folder = resolve(io.cwd, values.out);
        await mkdir(folder, { recursive: true });
        const result = evalSetResultOf({
          appName: runner.appName,
          evalSetId: set.evalSetId,
          evalCaseResults: results,
          timestamp: Date.now() / 1000,
        });
        await writeFile(join(folder, evalSetResultFileName(result)), formatEvalSetResult(result));
      }
    }
    if (values.csv !== undefined) await writeFile(resolve(io.cwd, values.csv), formatEvalCsv(all));
    io.stdout(
      values.json === true
        ? `${JSON.stringify(
            all.map(({ set, results }) => ({ evalSetId: set.evalSetId, results })),
            null,
            2,
          )}\n`
        : formatEvalResults(
            all,
            metrics,
            runner.appName,
            style,
            values.store === undefined || values.store === 'memory'
              ? undefined
              : `agentctx inspect ${agentFile} --store ${values.store}`,
          ),
    );
    // One run: each case's own status; several: the runs taken together, as AgentEvaluator decides.
    const passed =
      runs === 1
        ? all.every(({ results }) => results.every((result) => result.finalEvalStatus !== 'FAILED'))
        : all.every(({ results }) =>
            aggregateRuns(results).every((each) => each.metrics.every((metric) => metric.status === 'PASSED')),
          );
    return passed ? 0 : 1;
  },
};
