import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, expectCliError } from '../support/cli.js';

// `agentctx eval` (issue 50) on the eval sets of ADK's own fixtures (tests/integration/fixture/home_automation_agent/
// at ADK 2.5.0: an EvalSet and a legacy list, with their test_config.json), offline with scripted models: one that
// answers as expected passes both; one whose answer shares too few words fails, naming response_match_score.

const FIXTURES = 'test/fixtures/adk-eval';
const AGENT = `${FIXTURES}/home-automation-agent.ts`;

describe('agentctx eval', () => {
  it('passes both of ADK’s fixture files with a model that answers as expected, and writes ADK’s result files', async () => {
    const out = await mkdtemp(join(tmpdir(), 'agentctx-eval-'));
    const result = await cli([
      'eval',
      AGENT,
      FIXTURES,
      '--model',
      `scripted:${FIXTURES}/passing-script.yaml`,
      '--out',
      out,
      '--csv',
      join(out, 'results.csv'),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'eval set b305bd06-38c5-4796-b9c7-d9c7454338b9 (app home_automation_agent): 1 of 1 passed',
    );
    expect(result.stdout).toMatch(
      /✓ tests\/integration\/fixture\/home_automation_agent\/simple_test\.test\.json {2}tool_trajectory_avg_score 1\.00 \(threshold 1\) {2}response_match_score 1\.00 \(threshold 0\.3\)/,
    );
    expect(result.stdout.match(/^eval set .*: 1 of 1 passed$/gm)).toHaveLength(2);
    expect(result.stdout).toMatch(
      /^ {6}2 model calls · 1 tool call · 0 prompt tokens \(0% cached\) · no USD \(unpriced model\) · \d+\.\d s$/m,
    );
    expect(result.stdout).toContain(`✓ ${FIXTURES}/simple_test2.test.json  tool_trajectory_avg_score 1.00`);
    const files = (await readdir(out)).filter((name) => name.endsWith('.evalset_result.json'));
    expect(files).toHaveLength(2);
    const written = await readFile(join(out, files[0] as string), 'utf8');
    expect(written).toContain('simple_test');
    const csv = (await readFile(join(out, 'results.csv'), 'utf8')).split('\r\n');
    expect(csv[0]).toBe(
      'eval_set_id,eval_id,metric,score,threshold,status,case_status,user_id,session_id,model_calls,tool_calls,prompt_tokens,cached_tokens,output_tokens,usd,wall_ms',
    );
    // The scripted model reports no usage and has no price: two calls, one tool call, no tokens, no USD.
    expect(csv[1]).toMatch(
      /^b305bd06-38c5-4796-b9c7-d9c7454338b9,tests\/integration\/fixture\/home_automation_agent\/simple_test\.test\.json,tool_trajectory_avg_score,1,1,PASSED,PASSED,test_user_id,eval-[^,]+,2,1,0,0,0,,\d+$/,
    );
    expect(csv).toHaveLength(6);
  });

  it('fails a case whose answer misses the expected one, naming the metric, and exits 1', async () => {
    const result = await cli([
      'eval',
      AGENT,
      `${FIXTURES}/simple_test.test.json`,
      '--model',
      `scripted:${FIXTURES}/failing-script.yaml`,
      '--json',
    ]);
    expect(result.code).toBe(1);
    const [set] = JSON.parse(result.stdout) as {
      results: {
        finalEvalStatus: string;
        sessionId: string;
        overallEvalMetricResults: { metricName: string; evalStatus: string; score: number }[];
      }[];
    }[];
    const [caseResult] = set?.results ?? [];
    expect(caseResult?.finalEvalStatus).toBe('FAILED');
    expect(caseResult?.overallEvalMetricResults.map((metric) => [metric.metricName, metric.evalStatus])).toEqual([
      ['tool_trajectory_avg_score', 'PASSED'],
      ['response_match_score', 'FAILED'],
    ]);
    // With the sessions in a SQLite file, the report says how to open a failed case's requests, and that works.
    const store = join(await mkdtemp(join(tmpdir(), 'agentctx-eval-')), 'eval.db');
    const text = await cli([
      'eval',
      AGENT,
      `${FIXTURES}/simple_test.test.json`,
      '--model',
      `scripted:${FIXTURES}/failing-script.yaml`,
      '--store',
      store,
    ]);
    expect(text.stdout).toMatch(/✗ .*response_match_score 0\.\d\d \(threshold 0\.3\) failed/);
    const command = /agentctx inspect (.*)$/m.exec(text.stdout)?.[1]?.split(' ') ?? [];
    const inspected = await cli(['inspect', ...command, '--call', '2']);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain('set_device_info');
  });

  it('refuses what it cannot run in one line', async () => {
    expectCliError(await cli(['eval', AGENT]), /eval needs an agent file and an eval set/);
    expectCliError(
      await cli(['eval', AGENT, 'nowhere.evalset.json']),
      /There is no eval set at nowhere\.evalset\.json/,
    );
    expectCliError(await cli(['eval', AGENT, FIXTURES, '--runs', '0']), /--runs must be a whole number from 1/);
  });
});

describe('agentctx eval add', () => {
  it('turns a recorded session into a case that then passes against the same answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-eval-add-'));
    const store = join(dir, 'sessions.db');
    const set = join(dir, 'home.evalset.json');
    const script = `scripted:${FIXTURES}/passing-script.yaml`;
    const ran = await cli([
      'run',
      AGENT,
      '--model',
      script,
      '--store',
      store,
      '--session',
      's1',
      '--message',
      'Turn off device_2 in the Bedroom.',
    ]);
    expect(ran.code).toBe(0);
    const added = await cli(['eval', 'add', set, AGENT, '--session', 's1', '--store', store]);
    expect(added.stdout).toBe('added session s1 to eval set home as case s1: 1 invocations\n');
    const written = JSON.parse(await readFile(set, 'utf8')) as {
      eval_set_id: string;
      eval_cases: { eval_id: string; conversation: { intermediate_data: unknown; final_response: unknown }[] }[];
    };
    expect(written.eval_set_id).toBe('home');
    expect(JSON.stringify(written.eval_cases[0]?.conversation[0]?.intermediate_data)).toContain('set_device_info');
    expect(JSON.stringify(written.eval_cases[0]?.conversation[0]?.final_response)).toContain(
      'I have set the device_2 status to off.',
    );
    expectCliError(
      await cli(['eval', 'add', set, AGENT, '--session', 's1', '--store', store]),
      /Eval id `s1` already exists in `home` eval set/,
    );

    const scored = await cli(['eval', AGENT, set, '--model', script]);
    expect(scored.code).toBe(0);
    expect(scored.stdout).toContain('eval set home (app home_automation_agent): 1 of 1 passed');
  });
});
