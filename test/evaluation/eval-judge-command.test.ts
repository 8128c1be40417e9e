import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

// `agentctx eval --judge` (issue 50): ADK's `final_response_match_v2` in a test_config.json, on ADK's home_automation
// fixture (test/fixtures/adk-eval/), the agent and the judge both scripted: a "valid" verdict passes the case, an
// "invalid" one fails it naming the metric; without --judge the command refuses before running anything.

const FIXTURES = 'test/fixtures/adk-eval';
const AGENT = `${FIXTURES}/home-automation-agent.ts`;
const SET = `${FIXTURES}/simple_test.test.json`;

async function setup(label: string): Promise<{ config: string; judge: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'agentctx-eval-judge-'));
  const config = join(folder, 'test_config.json');
  await writeFile(
    config,
    JSON.stringify({
      criteria: {
        final_response_match_v2: {
          threshold: 0.5,
          judge_model_options: { judge_model: 'gemini-2.5-flash', num_samples: 1 },
        },
      },
    }),
  );
  const judge = join(folder, 'judge.yaml');
  const verdict = JSON.stringify(`{\n  "reasoning": "compared",\n  "is_the_agent_response_valid": "${label}",\n}`);
  await writeFile(judge, `- text: ${verdict}\n`);
  return { config, judge };
}

const base = ['eval', AGENT, SET, '--model', `scripted:${FIXTURES}/passing-script.yaml`];

describe('agentctx eval --judge', () => {
  it('passes a case the judge calls valid, and fails one it calls invalid, naming the metric', async () => {
    const valid = await setup('valid');
    const passed = await cli([...base, '--config', valid.config, '--judge', `scripted:${valid.judge}`, '--json']);
    expect(passed.stderr).toBe('');
    expect(passed.code).toBe(0);
    const [set] = JSON.parse(passed.stdout) as {
      results: {
        finalEvalStatus: string;
        overallEvalMetricResults: { metricName: string; evalStatus: string; score: number; criterion: unknown }[];
      }[];
    }[];
    expect(set?.results[0]?.overallEvalMetricResults).toMatchObject([
      {
        metricName: 'final_response_match_v2',
        evalStatus: 'PASSED',
        score: 1,
        criterion: { extra: { judge_model_options: { judge_model: 'gemini-2.5-flash', num_samples: 1 } } },
      },
    ]);

    const invalid = await setup('invalid');
    const failed = await cli([...base, '--config', invalid.config, '--judge', `scripted:${invalid.judge}`]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/✗ .*final_response_match_v2 0\.00 \(threshold 0\.5\) failed/);
  });

  it('judges rubric_based_tool_use_quality_v1 with the criterion’s rubrics, writing the rubric scores', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentctx-eval-judge-'));
    const config = join(folder, 'test_config.json');
    await writeFile(
      config,
      JSON.stringify({
        criteria: {
          rubric_based_tool_use_quality_v1: {
            threshold: 0.5,
            judge_model_options: { num_samples: 1 },
            rubrics: [{ rubric_id: 'off', rubric_content: { text_property: 'The agent turns off device_2.' } }],
          },
        },
      }),
    );
    const judge = join(folder, 'judge.yaml');
    const answer =
      'ID: off\nProperty: The agent turns off device_2.\nRationale: it called set_device_info.\nVerdict: yes\n';
    await writeFile(judge, `- text: ${JSON.stringify(answer)}\n`);
    const result = await cli([...base, '--config', config, '--judge', `scripted:${judge}`, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [set] = JSON.parse(result.stdout) as {
      results: {
        overallEvalMetricResults: { metricName: string; evalStatus: string; score: number; details: unknown }[];
      }[];
    }[];
    expect(set?.results[0]?.overallEvalMetricResults).toMatchObject([
      {
        metricName: 'rubric_based_tool_use_quality_v1',
        evalStatus: 'PASSED',
        score: 1,
        details: { rubricScores: [{ rubricId: 'off', score: 1 }] },
      },
    ]);
  });

  it('refuses safety_v1 before running anything: it needs Vertex AI’s evaluation service', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentctx-eval-judge-'));
    const config = join(folder, 'test_config.json');
    await writeFile(config, JSON.stringify({ criteria: { safety_v1: 0.8 } }));
    const result = await cli([...base, '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'safety_v1' is scored by Google's Vertex AI evaluation service");
  });

  it('refuses final_response_match_v2 without --judge, saying to pass one', async () => {
    const { config } = await setup('valid');
    const result = await cli([...base, '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('agentctx eval --judge <model>');
  });
});
