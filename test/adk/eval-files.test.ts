import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evalSetResultOf, formatEvalSetResult } from '../../src/analysis/eval/eval-set-result-file.js';
import type { EvalCaseResult } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { EvalFiles } from '../../src/server/adk/eval-files.js';

// Translated from Google ADK Python 2.5.0 (commit bb56aa56): the reading and listing tests of
// tests/unittests/evaluation/test_local_eval_set_results_manager.py (`test_get_eval_set_result*`,
// `test_list_eval_set_results*`), which test/evaluation/eval-set-result-file.test.ts left out, against the ADK
// server's `EvalFiles` (src/server/adk/eval-files.ts), which reads result files back as LocalEvalSetResultsManager does.

const APP = 'test_app';
const SET = 'test_eval_set';

function caseResult(evalId: string, status: EvalCaseResult['finalEvalStatus'], sessionId: string): EvalCaseResult {
  return {
    evalSetFile: 'test_file',
    evalSetId: SET,
    evalId,
    finalEvalStatus: status,
    evalMetricResults: [],
    overallEvalMetricResults: [],
    evalMetricResultPerInvocation: [],
    sessionId,
  };
}

describe('EvalFiles: results read back as ADK’s LocalEvalSetResultsManager reads them', () => {
  let dir: string;
  let files: EvalFiles;
  const timestamp = 1_733_600_000.123456;
  const result = evalSetResultOf({
    appName: APP,
    evalSetId: SET,
    evalCaseResults: [caseResult('case1', 'PASSED', 'session1')],
    timestamp,
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentctx-eval-files-'));
    files = new EvalFiles(join(dir, 'agents'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('test_get_eval_set_result: what was saved is read back the same', async () => {
    await files.saveResult(APP, result);
    expect(await files.getResult(APP, result.evalSetResultName ?? '')).toEqual(result);
  });

  it.each(['', '.', '..', 'foo/bar', 'foo\\bar'])(
    'test_get_eval_set_result_rejects_invalid_app_name (%j) and …_invalid_eval_set_result_id',
    async (bad) => {
      await expect(files.getResult(bad, result.evalSetResultId)).rejects.toBeInstanceOf(ValidationError);
      await expect(files.getResult(APP, bad)).rejects.toBeInstanceOf(ValidationError);
    },
  );

  it('test_get_eval_set_result_double_encoded_legacy: a file whose JSON is a string of the JSON', async () => {
    const history = join(dir, 'agents', APP, '.adk', 'eval_history');
    await mkdir(history, { recursive: true });
    const name = result.evalSetResultName ?? '';
    await writeFile(join(history, `${name}.evalset_result.json`), JSON.stringify(formatEvalSetResult(result)));
    expect(await files.getResult(APP, name)).toEqual(result);
  });

  it('test_get_eval_set_result_not_found: none for an id with no file', async () => {
    expect(await files.getResult(APP, 'non_existent_id')).toBeUndefined();
  });

  it('test_list_eval_set_results: the app’s result ids, not another app’s', async () => {
    await files.saveResult(APP, result);
    const second = evalSetResultOf({
      appName: APP,
      evalSetId: SET,
      evalCaseResults: [caseResult('case2', 'FAILED', 'session2')],
      timestamp: timestamp + 1,
    });
    await files.saveResult(APP, second);
    await files.saveResult(
      'another_app',
      evalSetResultOf({ appName: 'another_app', evalSetId: SET, evalCaseResults: [], timestamp: timestamp + 2 }),
    );
    expect(new Set(await files.listResults(APP))).toEqual(
      new Set([result.evalSetResultName, second.evalSetResultName]),
    );
  });

  it('test_list_eval_set_results_empty: none for an app with no results', async () => {
    expect(await files.listResults(APP)).toEqual([]);
  });
});
