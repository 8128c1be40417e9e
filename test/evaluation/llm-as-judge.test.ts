import { describe, expect, it } from 'vitest';
import { judgeTextOfContent, judgeTextOfInvocation } from '../../src/analysis/eval/judge-text.js';
import {
  type JudgedMetric,
  evaluateWithJudge,
  judgeStatus,
  llmAsAJudgeCriterion,
} from '../../src/analysis/eval/llm-as-judge.js';
import type { Content } from '../../src/contracts/content.js';
import type { EvalMetric, Invocation, PerInvocationResult } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';

// Translated from Google ADK Python 2.5.0 (commit bb56aa56): tests/unittests/evaluation/test_llm_as_judge.py and the
// `get_text_from_content` / `get_eval_status` tests of tests/unittests/evaluation/test_llm_as_judge_utils.py, against
// src/google/adk/evaluation/{llm_as_judge.py, llm_as_judge_utils.py}. ADK's mock judge model is a scripted model here.
// Not translated: the `get_average_rubric_score`, `get_tool_declarations_as_json_str` and
// `get_tool_calls_and_responses_as_json_str` tests (helpers of the rubric-based metrics, not ported), and
// `test_get_text_from_content_with_content_and_none_parts` (an agentctx `Content` always has parts).
// Each `it` names the test function it translates; the last block holds agentctx's own cases.

const content = (texts: string[], role: Content['role'] = 'model'): Content => ({
  role,
  parts: texts.map((text) => ({ text })),
});

const invocationOf = (id: string, user: string, final: string): Invocation => ({
  invocationId: id,
  userContent: content([user], 'user'),
  finalResponse: content([final]),
  creationTimestamp: 0,
});

// ADK's `mock_llm_as_judge` fixture: num_samples 3, every answer scored 1.0.
const METRIC: EvalMetric = {
  metricName: 'test_metric',
  threshold: 0.5,
  criterion: {
    threshold: 0.5,
    includeIntermediateResponsesInFinal: false,
    extra: { judge_model_options: { judge_model: 'gemini-2.5-flash', judge_model_config: {}, num_samples: 3 } },
  },
};

function mockJudged(): JudgedMetric & { calls: Record<string, number> } {
  const calls = { formatPrompt: 0, scoreResponse: 0, aggregateSamples: 0, aggregateInvocations: 0 };
  return {
    calls,
    expectedInvocationsRequired: false,
    formatPrompt: () => {
      calls.formatPrompt += 1;
      return 'formatted prompt';
    },
    scoreResponse: () => {
      calls.scoreResponse += 1;
      return { score: 1 };
    },
    aggregateSamples: (samples: PerInvocationResult[]) => {
      calls.aggregateSamples += 1;
      return samples[0] as PerInvocationResult;
    },
    aggregateInvocations: () => {
      calls.aggregateInvocations += 1;
      return { overallScore: 1, overallEvalStatus: 'PASSED', perInvocationResults: [] };
    },
  };
}

describe('LlmAsJudge (test_llm_as_judge.py)', () => {
  it('test_get_text_from_content', () => {
    expect(judgeTextOfContent(content(['This is a test text.', 'This is another test text.']))).toBe(
      'This is a test text.\nThis is another test text.',
    );
  });

  it('test_get_eval_status', () => {
    expect(judgeStatus(0.8, 0.8)).toBe('PASSED');
    expect(judgeStatus(0.7, 0.8)).toBe('FAILED');
    expect(judgeStatus(0.8, 0.9)).toBe('FAILED');
    expect(judgeStatus(0.9, 0.8)).toBe('PASSED');
    expect(judgeStatus(undefined, 0.8)).toBe('NOT_EVALUATED');
  });

  it('test_llm_as_judge_init_missing_criterion', () => {
    const read = () => llmAsAJudgeCriterion({ metricName: 'test_metric', threshold: 0.8 });
    expect(read).toThrow(ValidationError);
    expect(read).toThrow('criterion: is required by this metric');
  });

  it('test_llm_as_judge_init_unregistered_model (the name is kept, never resolved: the judge given is used)', async () => {
    // ADK resolves `judge_model` in its registry and fails for an unknown name; agentctx only carries the name.
    const metric: EvalMetric = {
      ...METRIC,
      criterion: {
        threshold: 0.5,
        includeIntermediateResponsesInFinal: false,
        extra: { judge_model_options: { judge_model: 'unregistered_model', num_samples: 1 } },
      },
    };
    const criterion = llmAsAJudgeCriterion(metric);
    expect(criterion.judgeModelOptions).toEqual({ judgeModel: 'unregistered_model', numSamples: 1 });
    const judge = createScriptedModel([{ text: 'auto rater response' }]);
    await evaluateWithJudge({ metric, criterion, judged: mockJudged(), judge, actual: [], expected: undefined });
    await evaluateWithJudge({
      metric,
      criterion,
      judged: mockJudged(),
      judge,
      actual: [invocationOf('id1', 'u', 'f')],
      expected: undefined,
    });
    expect(judge.requests[0]?.config.model).toBe('unregistered_model');
  });

  it('test_evaluate_invocations_with_mock', async () => {
    const judge = createScriptedModel(Array.from({ length: 6 }, () => ({ text: 'auto rater response' })));
    const judged = mockJudged();
    const result = await evaluateWithJudge({
      metric: METRIC,
      criterion: llmAsAJudgeCriterion(METRIC),
      judged,
      judge,
      actual: [
        invocationOf('id1', 'user content 1', 'final response 1'),
        invocationOf('id2', 'user content 2', 'final response 2'),
      ],
      expected: [
        invocationOf('id1', 'user content 1', 'expected response 1'),
        invocationOf('id2', 'user content 2', 'expected response 2'),
      ],
    });
    expect(result.overallScore).toBe(1);
    expect(judged.calls.formatPrompt).toBe(2);
    expect(judged.calls.scoreResponse).toBe(6);
    expect(judged.calls.aggregateInvocations).toBe(1);
    // The request as ADK builds it (L142–153): the prompt as one user message, the judge's config and model name.
    expect(judge.requests).toHaveLength(6);
    expect(judge.requests[0]).toEqual({
      system: '',
      tools: [],
      messages: [{ role: 'user', content: [{ text: 'formatted prompt' }] }],
      config: { model: 'gemini-2.5-flash' },
    });
  });
});

describe('get_text_from_content and get_eval_status (test_llm_as_judge_utils.py)', () => {
  it('test_get_text_from_content_with_none', () => {
    expect(judgeTextOfContent(undefined)).toBeUndefined();
  });

  it('test_get_text_from_content_with_empty_parts', () => {
    expect(judgeTextOfContent({ role: 'model', parts: [] })).toBeUndefined();
  });

  it('test_get_text_from_content_with_parts_but_no_text', () => {
    expect(judgeTextOfContent({ role: 'model', parts: [{ functionCall: { name: 'test_func', args: {} } }] })).toBe('');
  });

  it('test_get_text_from_content_with_single_text_part', () => {
    expect(judgeTextOfContent(content(['Hello']))).toBe('Hello');
  });

  it('test_get_text_from_content_with_multiple_text_parts', () => {
    expect(judgeTextOfContent(content(['Hello', 'World']))).toBe('Hello\nWorld');
  });

  it('test_get_text_from_content_with_mixed_parts', () => {
    const mixed: Content = {
      role: 'model',
      parts: [{ text: 'Hello' }, { functionCall: { name: 'test_func', args: {} } }, { text: 'World' }],
    };
    expect(judgeTextOfContent(mixed)).toBe('Hello\nWorld');
  });

  it('test_get_text_from_content_with_invocation_include_intermediate_responses_in_final', () => {
    const invocation: Invocation = {
      ...invocationOf('', 'user', 'Done.'),
      intermediateData: {
        invocationEvents: [
          { author: 'agent', content: content(['Let me check.']) },
          { author: 'tool', content: { role: 'model', parts: [{ functionCall: { name: 't', args: {} } }] } },
        ],
      },
    };
    expect(judgeTextOfInvocation(invocation, false)).toBe('Done.');
    expect(judgeTextOfInvocation(invocation, true)).toBe('Let me check.\nDone.');
  });

  it('test_get_text_from_content_with_intermediate_data_full_response', () => {
    const invocation: Invocation = {
      ...invocationOf('', 'user', 'final answer'),
      intermediateData: {
        toolUses: [],
        toolResponses: [],
        intermediateResponses: [
          ['agent', [{ text: 'legacy intro' }]],
          ['tool', [{ functionCall: { name: 'lookup', args: {} } }]],
        ],
      },
    };
    expect(judgeTextOfInvocation(invocation, false)).toBe('final answer');
    expect(judgeTextOfInvocation(invocation, true)).toBe('legacy intro\nfinal answer');
  });

  it('test_get_eval_status_with_none_score', () => {
    expect(judgeStatus(undefined, 0.5)).toBe('NOT_EVALUATED');
  });

  it('test_get_eval_status_when_score_is_greater_than_threshold', () => {
    expect(judgeStatus(0.8, 0.5)).toBe('PASSED');
  });

  it('test_get_eval_status_when_score_is_equal_to_threshold', () => {
    expect(judgeStatus(0.5, 0.5)).toBe('PASSED');
  });

  it('test_get_eval_status_when_score_is_less_than_threshold', () => {
    expect(judgeStatus(0.4, 0.5)).toBe('FAILED');
  });
});

describe('the judge loop: agentctx cases', () => {
  it('reads judge_model_options in either spelling with ADK’s defaults, and maps the judge’s config', () => {
    const withOptions = (extra: Record<string, unknown> | undefined): EvalMetric => ({
      metricName: 'm',
      threshold: 0.5,
      criterion: {
        threshold: 0.7,
        includeIntermediateResponsesInFinal: true,
        ...(extra === undefined ? {} : { extra }),
      },
    });
    expect(llmAsAJudgeCriterion(withOptions(undefined))).toEqual({
      threshold: 0.7,
      includeIntermediateResponsesInFinal: true,
      judgeModelOptions: { judgeModel: 'gemini-2.5-flash', numSamples: 5 },
    });
    const camel = llmAsAJudgeCriterion(
      withOptions({
        judgeModelOptions: {
          judgeModel: 'x',
          numSamples: 2,
          judgeModelConfig: { temperature: 0, max_output_tokens: 9 },
        },
      }),
    );
    expect(camel.judgeModelOptions).toEqual({
      judgeModel: 'x',
      numSamples: 2,
      judgeModelConfig: { temperature: 0, maxOutputTokens: 9 },
    });
    // `JudgeModelOptions` forbids other fields; a config field agentctx cannot send is refused, not dropped.
    expect(() => llmAsAJudgeCriterion(withOptions({ judge_model_options: { judge: 'x' } }))).toThrow(
      'criterion.judge_model_options.judge: unknown field',
    );
    expect(() =>
      llmAsAJudgeCriterion(withOptions({ judge_model_options: { judge_model_config: { system_instruction: 'x' } } })),
    ).toThrow('not supported by agentctx requests');
    expect(() => llmAsAJudgeCriterion(withOptions({ judge_model_options: { num_samples: 'five' } }))).toThrow(
      'expected a whole number',
    );
  });

  it('num_samples 0 leaves every invocation out: NOT_EVALUATED with no results (L177–185)', async () => {
    const metric: EvalMetric = {
      ...METRIC,
      criterion: {
        threshold: 0.5,
        includeIntermediateResponsesInFinal: false,
        extra: { judge_model_options: { num_samples: 0 } },
      },
    };
    const judge = createScriptedModel([]);
    const result = await evaluateWithJudge({
      metric,
      criterion: llmAsAJudgeCriterion(metric),
      judged: mockJudged(),
      judge,
      actual: [invocationOf('id1', 'u', 'f')],
      expected: undefined,
    });
    expect(result).toEqual({ overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: [] });
    expect(judge.requests).toHaveLength(0);
  });

  it('refuses missing expected invocations when the metric needs them, and lengths that differ', async () => {
    const judged = { ...mockJudged(), expectedInvocationsRequired: true };
    const criterion = llmAsAJudgeCriterion(METRIC);
    const judge = createScriptedModel([]);
    const actual = [invocationOf('id1', 'u', 'f')];
    await expect(
      evaluateWithJudge({ metric: METRIC, criterion, judged, judge, actual, expected: undefined }),
    ).rejects.toThrow('expected_invocations is needed by this metric.');
    await expect(evaluateWithJudge({ metric: METRIC, criterion, judged, judge, actual, expected: [] })).rejects.toThrow(
      'actual_invocations and expected_invocations must have the same length; got 1 and 0.',
    );
  });
});
