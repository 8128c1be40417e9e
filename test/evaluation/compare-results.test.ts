import { describe, expect, it } from 'vitest';
import type { EvalCaseRun, EvalEfficiency } from '../../src/contracts/evaluation.js';
import type { ModelCallRecord } from '../../src/contracts/model-call.js';
import { compareResults, firstRequestDifference } from '../../src/analysis/eval/compare-results.js';

const efficiency = (promptTokens: number, usd?: number): EvalEfficiency => ({
  modelCalls: 1,
  toolCalls: 0,
  promptTokens,
  cachedTokens: promptTokens / 2,
  outputTokens: 10,
  cacheHitRatio: 0.5,
  ...(usd === undefined ? {} : { usd }),
  unpricedCalls: usd === undefined ? 1 : 0,
  modelLatencyMs: 5,
  wallMs: 7,
});
const run = (evalId: string, status: 'PASSED' | 'FAILED', tokens: number, usd?: number): EvalCaseRun => ({
  evalSetId: 'set',
  evalId,
  finalEvalStatus: status,
  overallEvalMetricResults: [
    {
      metricName: 'response_match_score',
      threshold: 0.8,
      evalStatus: status,
      score: status === 'PASSED' ? 1 : 0.5,
      details: {},
    },
  ],
  evalMetricResultPerInvocation: [],
  sessionId: `s-${evalId}`,
  userId: 'u',
  efficiency: efficiency(tokens, usd),
});
const call = (agent: string, system: string, text: string, index = 1): ModelCallRecord =>
  ({
    index,
    invocationId: 'i',
    agent,
    timestamp: 0,
    request: { system, tools: [], messages: [{ role: 'user', content: [{ text }] }], config: {} },
    provenance: { blocks: [] },
    editedByCallback: false,
    status: 'succeeded',
  }) as unknown as ModelCallRecord;

describe('comparing two variants’ results', () => {
  it('pairs case runs, says where each passed, and adds up each side (runs numbered, USD only where priced)', () => {
    const comparison = compareResults({
      a: {
        label: 'a.yaml',
        results: [
          run('x', 'PASSED', 100, 0.5),
          run('y', 'PASSED', 50, 0.25),
          run('x', 'PASSED', 100, 0.5),
          run('y', 'FAILED', 50, 0.25),
        ],
      },
      b: {
        label: 'b.yaml',
        results: [run('x', 'PASSED', 10), run('y', 'FAILED', 5), run('x', 'FAILED', 10, 0.1), run('y', 'PASSED', 5)],
      },
      runs: 2,
      differences: [
        undefined,
        {
          calls: { a: 2, b: 2 },
          agents: { a: 'root', b: 'root' },
          where: ['config'],
          commonPrefix: { chars: 3, of: 9 },
        },
      ],
    });
    expect(comparison.cases.map((each) => [each.evalId, each.run, each.passedOn])).toEqual([
      ['x', 1, 'both'],
      ['y', 1, 'a'],
      ['x', 2, 'a'],
      ['y', 2, 'b'],
    ]);
    expect(comparison.cases[1]?.firstDifference?.where).toEqual(['config']);
    expect(comparison.a).toMatchObject({
      passed: 3,
      failed: 1,
      efficiency: { promptTokens: 300, usd: 1.5, unpricedCalls: 0 },
    });
    expect(comparison.b).toMatchObject({
      passed: 2,
      failed: 2,
      efficiency: { promptTokens: 30, usd: 0.1, unpricedCalls: 3 },
    });
    expect(comparison.a.metrics).toEqual([{ metricName: 'response_match_score', passed: 3, of: 4, mean: 0.875 }]);
    expect(() =>
      compareResults({
        a: { label: 'a', results: [] },
        b: { label: 'b', results: [run('x', 'PASSED', 1)] },
        runs: 1,
        differences: [],
      }),
    ).toThrow(RangeError);
  });

  it('finds the first call whose requests differ, and where; or the call one side never made', () => {
    const same = call('root', 'Be brief.', 'Hi');
    expect(firstRequestDifference([same, same], [same, same])).toBeUndefined();
    const difference = firstRequestDifference(
      [same, call('root', 'Be brief.', 'Hi there', 2)],
      [same, call('root', 'Be brief!', 'Hi', 2)],
    );
    expect(difference).toMatchObject({ calls: { a: 2, b: 2 }, agents: { a: 'root', b: 'root' } });
    expect(difference?.where).toEqual(['system from character 8', 'messages[0].content[0]']);
    expect(difference?.commonPrefix.chars).toBeGreaterThan(0);
    expect(firstRequestDifference([same], [same, call('root', 'Be brief.', 'Hi', 2)])).toEqual({
      calls: { b: 2 },
      agents: { b: 'root' },
      where: ['no call on a'],
      commonPrefix: { chars: 0, of: 0 },
    });
  });

  it('leaves calls made beside the agents out of the pairing: a summary does not shift what is compared', () => {
    const summary = call('summarizer', '', 'Summarize this.', 2);
    const difference = firstRequestDifference(
      [call('root', 'Be brief.', 'Hi'), call('root', 'Be brief.', 'Hi again', 2)],
      [call('root', 'Be brief.', 'Hi'), summary, call('root', 'Be brief.', 'Summary of the earlier conversation', 3)],
    );
    expect(difference).toMatchObject({ calls: { a: 2, b: 3 }, agents: { a: 'root', b: 'root' } });
    expect(difference?.where).toEqual(['messages[0].content[0]']);
  });
});
