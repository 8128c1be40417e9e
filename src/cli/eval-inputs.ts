import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { UsageError } from '../contracts/errors/usage-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { EvalMetric, EvalSet } from '../contracts/evaluation.js';
import { DEFAULT_EVAL_CONFIG, evalMetricsFromConfig, readEvalConfig } from '../analysis/eval/eval-config.js';
import { parseEvalSet } from '../analysis/eval/eval-set-file.js';
import { readInputFile } from './read-input-file.js';

/** What `agentctx eval` runs: the eval sets of a file or folder, the metrics of their config, and the runs. */
export type EvalInputs = {
  runs: number;
  sets: { file: string; set: EvalSet }[];
  metrics: EvalMetric[];
};

/**
 * Reads the eval sets a path names (a file, or every .evalset.json and .test.json of a folder) and their config
 * (`--config`, else the test_config.json beside the first set, else ADK's defaults); every file is read, and refused
 * with all its problems, before anything runs.
 */
export async function readEvalInputs(
  setPath: string,
  values: { runs?: string | undefined; config?: string | undefined },
  cwd: string,
): Promise<EvalInputs> {
  const runs = values.runs === undefined ? 1 : Number(values.runs);
  if (!(Number.isSafeInteger(runs) && runs >= 1))
    throw new UsageError(`--runs must be a whole number from 1, got '${values.runs}'.`);
  const files = await evalSetFiles(setPath, cwd);
  const configPath = values.config ?? (await besideConfig(files[0] as string));
  const config =
    configPath === undefined
      ? DEFAULT_EVAL_CONFIG
      : readEvalConfig(parseJson(await readInputFile(configPath, cwd), configPath), configPath);
  const sets: { file: string; set: EvalSet }[] = [];
  for (const file of files)
    sets.push({
      file,
      // Named as given, relative to where the command runs: a legacy file's eval id is its path (as ADK names it).
      set: parseEvalSet(await readInputFile(file, cwd), relative(cwd, file), {
        criteria: config.criteria as Readonly<Record<string, unknown>>,
      }),
    });
  return { runs, sets, metrics: evalMetricsFromConfig(config) };
}

// ADK reads test_config.json as JSON; a file that is not is one error naming it.
function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ValidationError({
      subject: file,
      issues: [{ path: '', message: `is not JSON (${(error as Error).message})` }],
      hint: 'A test_config.json is JSON: { "criteria": { "<metric>": <threshold or criterion> } }.',
    });
  }
}

// A file, or every .evalset.json and .test.json of a folder (sorted), as ADK's `adk eval` and AgentEvaluator take them.
async function evalSetFiles(path: string, cwd: string): Promise<string[]> {
  const full = resolve(cwd, path);
  const info = await stat(full).catch(() => undefined);
  if (info === undefined) throw new UsageError(`There is no eval set at ${path}.`, 'Check the path.');
  if (!info.isDirectory()) return [full];
  const names = (await readdir(full)).filter((name) => name.endsWith('.evalset.json') || name.endsWith('.test.json'));
  if (names.length === 0)
    throw new UsageError(
      `${path} holds no .evalset.json or .test.json file.`,
      'Name an eval set file, or a folder of them.',
    );
  return names.sort().map((name) => join(full, name));
}

// ADK reads the test_config.json beside the eval set when no config is given.
async function besideConfig(file: string): Promise<string | undefined> {
  const path = join(dirname(file), 'test_config.json');
  return (await stat(path).catch(() => undefined))?.isFile() === true ? path : undefined;
}
