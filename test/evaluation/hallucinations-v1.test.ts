import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateCase } from '../../src/analysis/eval/evaluate-case.js';
import {
  contextForStep,
  evaluateHallucinationsV1,
  evaluateNlResponse,
  hallucinationsCriterion,
  parseSentences,
  parseValidationResults,
  stepsToEvaluate,
} from '../../src/analysis/eval/hallucinations-v1.js';
import {
  HALLUCINATIONS_V1_SEGMENTER_PROMPT,
  HALLUCINATIONS_V1_VALIDATOR_PROMPT,
} from '../../src/analysis/eval/hallucinations-v1-prompt.js';
import type { Content, Part } from '../../src/contracts/content.js';
import type { AppDetails, EvalMetric, Invocation, InvocationEvent } from '../../src/contracts/evaluation.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';

// Translated from Google ADK Python 2.5.0 (commit bb56aa56): tests/unittests/evaluation/test_hallucinations_v1.py,
// against src/google/adk/evaluation/hallucinations_v1.py (`_parse_sentences` L223–225, `_parse_validation_results`
// L228–255, `HallucinationsV1Evaluator` L258–762). Each `it` names the test it translates. ADK's tests replace
// `_evaluate_nl_response` with a mock that checks the context and returns a score; here a scripted judge answers the
// segmenter and the validator instead, so the whole path runs: `judgeFor` gives, per response text, the labels of its
// sentences (two labels, one supported and one not, score 0.5 as ADK's mocked 0.5) and records each context.

const content = (parts: Part[], role: Content['role'] = 'model'): Content => ({ role, parts });
const text = (value: string): Part => ({ text: value });
const event = (author: string, ...parts: Part[]): InvocationEvent => ({ author, content: content(parts) });

const metricOf = (evaluateIntermediate: boolean, threshold = 0.5): EvalMetric => ({
  metricName: 'hallucinations_v1',
  threshold,
  criterion: {
    threshold,
    includeIntermediateResponsesInFinal: false,
    extra: {
      judge_model_options: { judge_model: 'gemini-2.5-flash', judge_model_config: { temperature: 0 }, num_samples: 1 },
      evaluate_intermediate_nl_responses: evaluateIntermediate,
    },
  },
});

const between = (prompt: string, start: string, end: string): string => {
  const from = prompt.lastIndexOf(start) + start.length;
  return prompt.slice(from, prompt.indexOf(end, from));
};

/** A judge answering the segmenter with one sentence per label and the validator with those labels. */
function judgeFor(labels: Record<string, string[] | undefined>) {
  const contexts: Record<string, string> = {};
  const judge = createScriptedModel({
    rules: [
      {
        when: (request: LlmRequest) =>
          promptOf(request).startsWith(
            'You are a helpful and harmless AI assistant. You will be provided with a model-generated response.',
          ),
        respond: (request: LlmRequest) => {
          const response = between(promptOf(request), '**Response Begin**\n', '\n**Response End**');
          const sentences = (labels[response] ?? []).map((_, index) => `<sentence>${response}#${index}</sentence>`);
          return { text: sentences.join('') || 'no sentences' };
        },
      },
      {
        respond: (request: LlmRequest) => {
          const prompt = promptOf(request);
          const sentences = parseSentences(between(prompt, '**Sentences Begin**\n', '\n**Sentences End**'));
          const response = (sentences[0] ?? '').replace(/#\d+$/, '');
          contexts[response] = between(prompt, '**Context Begin**\n', '\n**Context End**');
          const blocks = sentences.map(
            (sentence, index) =>
              `sentence: ${sentence}\nlabel: ${labels[response]?.[index]}\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null`,
          );
          return { text: blocks.join('\n\n') };
        },
      },
    ],
  });
  return { judge, contexts };
}

function promptOf(request: LlmRequest): string {
  const part = request.messages[0]?.content[0];
  return part !== undefined && 'text' in part ? part.text : '';
}

const half = ['supported', 'unsupported'];

const simpleApp: AppDetails = {
  agentDetails: { root: { name: 'root', instructions: 'Root agent instructions.', toolDeclarations: [] } },
};
const simple = (events: InvocationEvent[], final?: string): Invocation => ({
  invocationId: '',
  appDetails: simpleApp,
  userContent: content([text('User query.')], 'user'),
  intermediateData: { invocationEvents: events },
  ...(final === undefined ? {} : { finalResponse: content([text(final)]) }),
  creationTimestamp: 0,
});
const simpleExpected: Invocation = {
  invocationId: '',
  appDetails: simpleApp,
  userContent: content([text('User query.')], 'user'),
  finalResponse: content([text('Final response.')]),
  creationTimestamp: 0,
};

describe('HallucinationsV1Evaluator (test_hallucinations_v1.py)', () => {
  describe('TestParseSentences', () => {
    it('test_parse_sentences_empty', () => expect(parseSentences('')).toEqual([]));
    it('test_parse_sentences_no_sentence', () => expect(parseSentences('This is a sentence.')).toEqual([]));
    it('test_parse_sentences_one_sentence', () =>
      expect(parseSentences('<sentence>This is a sentence.</sentence>')).toEqual(['This is a sentence.']));
    it('test_parse_sentences_multiple_sentences', () =>
      expect(parseSentences('<sentence>Sentence 1.</sentence><sentence>Sentence 2.</sentence>')).toEqual([
        'Sentence 1.',
        'Sentence 2.',
      ]));
    it('test_parse_sentences_with_bullets', () => {
      const value = `<sentence>There are three kinds of fruits:</sentence>
<sentence>1. Apples are red.</sentence>
<sentence>2. Bananas are green.</sentence>
<sentence>3. Pears are purple.</sentence>`;
      expect(parseSentences(value)).toEqual([
        'There are three kinds of fruits:',
        '1. Apples are red.',
        '2. Bananas are green.',
        '3. Pears are purple.',
      ]);
    });
    it('test_parse_sentences_with_newlines', () => {
      const value =
        "<sentence>This is a sentence with\n\n\nnewlines.</sentence>\n<sentence>This sentence won't be parsed because tag is misspelled</stenence>";
      expect(parseSentences(value)).toEqual(['This is a sentence with\n\n\nnewlines.']);
    });
  });

  describe('TestParseValidationResults', () => {
    it('test_parse_validation_results', () => {
      const value = `sentence: Apples are red.
label: supported
rationale: The context explicitly states that apples are red.
supporting_excerpt: Apples are red fruits.
contradicting_excerpt: null

sentence: Bananas are green.
label: contradictory
rationale: The context states that bananas are yellow, not green.
supporting_excerpt: null
contradicting_excerpt: Bananas are yellow fruits.

sentence: Pears are purple.
label: disputed
rationale: The context states that pears are purple but it also states that pears are blue.
supporting_excerpt: Pears are purple fruits
contradicting_excerpt: Pears are blue fruits
`;
      expect(parseValidationResults(value)).toEqual([
        {
          sentence: 'Apples are red.',
          label: 'supported',
          rationale: 'The context explicitly states that apples are red.',
          supportingExcerpt: 'Apples are red fruits.',
        },
        {
          sentence: 'Bananas are green.',
          label: 'contradictory',
          rationale: 'The context states that bananas are yellow, not green.',
          contradictingExcerpt: 'Bananas are yellow fruits.',
        },
        {
          sentence: 'Pears are purple.',
          label: 'disputed',
          rationale: 'The context states that pears are purple but it also states that pears are blue.',
          supportingExcerpt: 'Pears are purple fruits',
          contradictingExcerpt: 'Pears are blue fruits',
        },
      ]);
    });
    it('test_parse_validation_results_empty', () => expect(parseValidationResults('')).toEqual([]));
  });

  describe('TestEvaluateNlResponse', () => {
    const criterion = hallucinationsCriterion(metricOf(true));
    it('test_evaluate_nl_response_unexpected_labels', async () => {
      const judge = createScriptedModel([
        { text: '<sentence>sentence 1</sentence><sentence>sentence 2</sentence>' },
        {
          text: 'sentence: sentence 1\nlabel:\nrationale: r1\nsupporting_excerpt: null\ncontradicting_excerpt: null\n\nsentence: sentence 2\nlabel: unexpected\nrationale: r2\nsupporting_excerpt: null\ncontradicting_excerpt: null\n',
        },
      ]);
      expect(await evaluateNlResponse('nl', 'ctx', criterion, judge)).toBeUndefined();
    });
    it('test_evaluate_nl_response_missing_label', async () => {
      const judge = createScriptedModel([{ text: '<sentence>sentence 1</sentence>' }, { text: 'val_response' }]);
      expect(await evaluateNlResponse('nl', 'ctx', criterion, judge)).toBeUndefined();
    });
  });

  // `create_context_data`.
  const rootApp: AppDetails = {
    agentDetails: {
      root: {
        name: 'root',
        instructions: 'Root agent instructions.',
        toolDeclarations: [{ function_declarations: [{ name: 'tool1' }] }],
      },
    },
  };
  const call = (id: string | undefined, name: string, args: Record<string, unknown>): Part => ({
    functionCall: { ...(id === undefined ? {} : { id }), name, args },
  });
  const reply = (id: string | undefined, name: string, response: Record<string, unknown>): Part => ({
    functionResponse: { ...(id === undefined ? {} : { id }), name, response },
  });
  const contextEvents = [
    event('root', call('1', 'tool1', {})),
    event('root', reply('1', 'tool1', { result: 'tool1 response' })),
    event('root', text('Intermediate NL response.'), call('2', 'tool1', {})),
    event('root', reply('2', 'tool1', { result: 'tool1 response 2' })),
  ];
  const contextInvocation: Invocation = {
    invocationId: '',
    appDetails: rootApp,
    userContent: content([text('User query.')], 'user'),
    intermediateData: { invocationEvents: contextEvents },
    creationTimestamp: 0,
  };
  const header = (tools: string) => `Developer instructions:
root:
Root agent instructions.

User prompt:
User query.

Tool definitions:
{
  "tool_declarations": {
    "root": [
      {
        "function_declarations": [
          {
            "name": "${tools}"
          }
        ]
      }
    ]
  }
}
`;
  const firstStep = `
tool_calls:
[
  {
    "id": "1",
    "args": {},
    "name": "tool1"
  }
]

tool_outputs:
[
  {
    "id": "1",
    "name": "tool1",
    "response": {
      "result": "tool1 response"
    }
  }
]
`;

  describe('TestCreateContext', () => {
    it('test_create_context_for_intermediate_step', () => {
      const context = contextForStep(rootApp, contextInvocation, contextEvents.slice(0, 2));
      expect(context).toBe(header('tool1') + firstStep);
    });
    it('test_create_context_for_final_step', () => {
      const context = contextForStep(rootApp, contextInvocation, contextEvents);
      expect(context.trim()).toBe(
        (
          header('tool1') +
          firstStep +
          `
Intermediate NL response.

tool_calls:
[
  {
    "id": "2",
    "args": {},
    "name": "tool1"
  }
]

tool_outputs:
[
  {
    "id": "2",
    "name": "tool1",
    "response": {
      "result": "tool1 response 2"
    }
  }
]`
        ).trim(),
      );
    });
  });

  // `agent_tree_data`.
  const treeApp: AppDetails = {
    agentDetails: {
      root: {
        name: 'root',
        instructions: 'Root agent instructions.',
        toolDeclarations: [{ function_declarations: [{ name: 'tool_root' }] }],
      },
      agent1: {
        name: 'agent1',
        instructions: 'Agent1 instructions.',
        toolDeclarations: [{ function_declarations: [{ name: 'tool_agent1' }] }],
      },
      agent2: { name: 'agent2', instructions: 'Agent2 instructions.', toolDeclarations: [] },
    },
  };
  const treeUser = content([text('User query for agent tree.')], 'user');
  const treeFinal = content([text('Final agent tree response.')]);
  const treeInvocation: Invocation = {
    invocationId: '',
    appDetails: treeApp,
    userContent: treeUser,
    intermediateData: {
      invocationEvents: [
        event('root', text('Hi, I am root.')),
        event('root', call(undefined, 'tool_root', {})),
        event('root', reply(undefined, 'tool_root', { result: 'tool_root response' })),
        event('agent1', call(undefined, 'tool_agent1', { q: 1 })),
        event('agent1', reply(undefined, 'tool_agent1', { r: 2 })),
        event('agent2', text('Agent2 response.')),
      ],
    },
    finalResponse: treeFinal,
    creationTimestamp: 0,
  };
  const treeExpected: Invocation = {
    invocationId: '',
    appDetails: treeApp,
    userContent: treeUser,
    finalResponse: treeFinal,
    creationTimestamp: 0,
  };
  const treeContext0 = `Developer instructions:
root:
Root agent instructions.

agent1:
Agent1 instructions.

agent2:
Agent2 instructions.

User prompt:
User query for agent tree.

Tool definitions:
{
  "tool_declarations": {
    "root": [
      {
        "function_declarations": [
          {
            "name": "tool_root"
          }
        ]
      }
    ],
    "agent1": [
      {
        "function_declarations": [
          {
            "name": "tool_agent1"
          }
        ]
      }
    ],
    "agent2": []
  }
}`;
  const treeContext5 = `${treeContext0}

Hi, I am root.

tool_calls:
[
  {
    "args": {},
    "name": "tool_root"
  }
]

tool_outputs:
[
  {
    "name": "tool_root",
    "response": {
      "result": "tool_root response"
    }
  }
]

tool_calls:
[
  {
    "args": {
      "q": 1
    },
    "name": "tool_agent1"
  }
]

tool_outputs:
[
  {
    "name": "tool_agent1",
    "response": {
      "r": 2
    }
  }
]`;
  const treeContext6 = `${treeContext5}

Agent2 response.`;

  describe('TestEvaluateInvocationsAgentTree', () => {
    it('test_evaluate_invocations_multi_agents', async () => {
      const { judge, contexts } = judgeFor({
        'Hi, I am root.': ['supported'],
        'Agent2 response.': half,
        'Final agent tree response.': ['contradictory'],
      });
      const result = await evaluateHallucinationsV1(metricOf(true), judge, [treeInvocation], [treeExpected]);
      expect(contexts['Hi, I am root.']?.trim()).toBe(treeContext0);
      expect(contexts['Agent2 response.']?.trim()).toBe(treeContext5);
      expect(contexts['Final agent tree response.']?.trim()).toBe(treeContext6);
      expect(result.overallScore).toBe(0.5);
      expect(result.perInvocationResults).toHaveLength(1);
      expect(result.perInvocationResults[0]?.score).toBe(0.5);
      // The request: the prompt as one user message, the judge model and its config.
      expect(judge.requests[0]?.config).toEqual({ model: 'gemini-2.5-flash', temperature: 0 });
    });

    it('test_evaluate_invocations_agent_tree_skip_intermediate', async () => {
      const { judge, contexts } = judgeFor({ 'Final agent tree response.': ['contradictory'] });
      const result = await evaluateHallucinationsV1(metricOf(false), judge, [treeInvocation], [treeExpected]);
      expect(Object.keys(contexts)).toEqual(['Final agent tree response.']);
      expect(contexts['Final agent tree response.']?.trim()).toBe(treeContext6);
      expect(result.overallScore).toBe(0);
      expect(result.perInvocationResults[0]?.score).toBe(0);
    });
  });

  // `time_weather_data`; the contexts ADK's tests expect are read from the test file itself
  // (test/fixtures/adk-judge/hallucinations-contexts.json, its `expected_context…` strings by test).
  const CONTEXTS = JSON.parse(readFileSync('test/fixtures/adk-judge/hallucinations-contexts.json', 'utf8')) as Record<
    string,
    string
  >;
  const response1 =
    'The time in San Francisco is currently 10:30am PST. The date is September 21, 2025. I will now get the weather.';
  const response2 =
    'It is currently September 19, 2025, 10:30am PST in San Francisco. The weather is 65F with partly cloudy skies.';
  const weather: Invocation = {
    invocationId: '',
    appDetails: {
      agentDetails: {
        root: {
          name: 'root',
          instructions: 'You are an agent that can get the current time and weather.',
          toolDeclarations: [{ function_declarations: [{ name: 'get_current_time' }, { name: 'get_weather' }] }],
        },
      },
    },
    userContent: content([text('Get the current time and weather of San Francisco.')], 'user'),
    intermediateData: {
      invocationEvents: [
        event('root', call(undefined, 'get_current_time', { location: 'San Francisco, CA' })),
        event('root', reply(undefined, 'get_current_time', { time: '10:30 AM PST Sep 19, 2025' })),
        event(
          'root',
          text(response1),
          call(undefined, 'get_weather', { location: 'San Francisco, CA', time: '10:30 AM PST Sep 19, 2025' }),
        ),
        event('root', reply(undefined, 'get_weather', { weather: 'Partly cloudy, 65F' })),
      ],
    },
    finalResponse: content([text(response2)]),
    creationTimestamp: 0,
  };

  describe('TestEvaluateInvocationsTimeWeather', () => {
    it('test_evaluate_invocations_time_weather', async () => {
      const { judge, contexts } = judgeFor({
        [response1]: ['supported', 'contradictory', 'supported'],
        [response2]: ['supported', 'supported'],
      });
      const result = await evaluateHallucinationsV1(metricOf(true), judge, [weather], [weather]);
      const name = 'test_evaluate_invocations_time_weather';
      expect(contexts[response1]?.trim()).toBe(CONTEXTS[`${name}.expected_context_1`]?.trim());
      expect(contexts[response2]?.trim()).toBe(CONTEXTS[`${name}.expected_context_2`]?.trim());
      expect(result.overallScore).toBeCloseTo(5 / 6, 15);
      expect(result.perInvocationResults[0]?.score).toBeCloseTo(5 / 6, 15);
    });

    it('test_evaluate_invocations_time_weather_skip_intermediate', async () => {
      const { judge, contexts } = judgeFor({ [response2]: ['supported', 'supported'] });
      const result = await evaluateHallucinationsV1(metricOf(false), judge, [weather], [weather]);
      expect(Object.keys(contexts)).toEqual([response2]);
      expect(contexts[response2]?.trim()).toBe(
        CONTEXTS['test_evaluate_invocations_time_weather_skip_intermediate.expected_context']?.trim(),
      );
      expect(result.overallScore).toBe(1);
      expect(result.perInvocationResults[0]?.score).toBe(1);
    });
  });

  it('test_evaluate_invocations_success_path', async () => {
    const actual = simple(
      [event('root', text('Intermediate NL response.')), event('root', text('Another intermediate NL response.'))],
      'Final response.',
    );
    const { judge } = judgeFor({
      'Intermediate NL response.': ['supported'],
      'Another intermediate NL response.': half,
      'Final response.': ['contradictory'],
    });
    const result = await evaluateHallucinationsV1(metricOf(true), judge, [actual], [simpleExpected]);
    expect(result.overallScore).toBe(0.5);
    expect(result.perInvocationResults[0]?.score).toBe(0.5);
    expect(result.perInvocationResults[0]?.evalStatus).toBe('PASSED');
  });

  it('test_evaluate_invocations_no_nl_response', async () => {
    const actual = simple([event('root', call(undefined, 'tool1', {}))]);
    const judge = createScriptedModel([]);
    const result = await evaluateHallucinationsV1(metricOf(true), judge, [actual], [simpleExpected]);
    expect(result.overallScore).toBeUndefined();
    expect(result.overallEvalStatus).toBe('NOT_EVALUATED');
    expect(result.perInvocationResults[0]).toMatchObject({ evalStatus: 'NOT_EVALUATED', rubricScores: [] });
    expect(result.perInvocationResults[0]?.score).toBeUndefined();
    expect(judge.requests).toHaveLength(0);
  });

  it('test_evaluate_all_invocations_not_evaluated', async () => {
    const actual = simple([event('root', text('Intermediate NL response.'))], 'Final response.');
    // Every judge call fails: ADK's `_evaluate_nl_response` catches it and gives no score.
    const judge = createScriptedModel([]);
    const result = await evaluateHallucinationsV1(
      metricOf(true),
      judge,
      [actual, actual],
      [simpleExpected, simpleExpected],
    );
    expect(result.perInvocationResults.map((one) => [one.score, one.evalStatus])).toEqual([
      [undefined, 'NOT_EVALUATED'],
      [undefined, 'NOT_EVALUATED'],
    ]);
    expect(result.overallScore).toBeUndefined();
    expect(result.overallEvalStatus).toBe('NOT_EVALUATED');
  });

  it('test_evaluate_invocations_partial_failure', async () => {
    const actual = simple([event('root', text('Intermediate NL response.'))], 'Final response.');
    // 4 of 5 sentences supported (ADK's mocked 0.8); the final response's segmenter finds no sentence.
    const { judge } = judgeFor({
      'Intermediate NL response.': ['supported', 'supported', 'not_applicable', 'supported', 'disputed'],
    });
    const result = await evaluateHallucinationsV1(metricOf(true), judge, [actual], [simpleExpected]);
    expect(result.overallScore).toBe(0.8);
    expect(result.perInvocationResults[0]?.score).toBe(0.8);
  });
});

describe('hallucinations_v1 in agentctx', () => {
  it('keeps ADK’s two prompts verbatim (SHA-256 of the stripped strings of hallucinations_v1.py L53–208)', () => {
    const sha = (value: string) => createHash('sha256').update(value).digest('hex');
    expect(sha(HALLUCINATIONS_V1_SEGMENTER_PROMPT)).toBe(
      'b57f6539758f22823156023e60e58f0f7c06e79a02988ccccc926fcb062f6eae',
    );
    expect(sha(HALLUCINATIONS_V1_VALIDATOR_PROMPT)).toBe(
      'fb661c97c1c55d0b3a23ff3eaa86bede95c03ac1fd716fdeaca87e5adeaa4998',
    );
  });

  it('sends the segmenter the response and the validator the context and the sentences, filled in as Python does', async () => {
    const { judge } = judgeFor({ 'Final response.': ['supported'] });
    await evaluateHallucinationsV1(metricOf(false), judge, [simpleNoApp()], undefined);
    expect(promptOf(judge.requests[0] as LlmRequest)).toBe(
      HALLUCINATIONS_V1_SEGMENTER_PROMPT.replace('{response}', 'Final response.'),
    );
    const context = 'Developer instructions:\n\n\nUser prompt:\nNone\n\nTool definitions:\nAgent has no tools.\n';
    expect(promptOf(judge.requests[1] as LlmRequest)).toBe(
      HALLUCINATIONS_V1_VALIDATOR_PROMPT.replace('{context}', context).replace(
        '{sentences}',
        '<sentence>Final response.#0</sentence>',
      ),
    );
  });

  it('steps: every text part of an event is a response of its own, with the same context', () => {
    const actual = simple([event('root', text('One.'), text('Two.'))], 'Three.');
    const steps = stepsToEvaluate(actual, hallucinationsCriterion(metricOf(true)));
    expect(steps.map((step) => step.nlResponse)).toEqual(['One.', 'Two.', 'Three.']);
    expect(steps[0]?.context).toBe(steps[1]?.context);
    expect(steps[2]?.context).toContain('One.\nTwo.\n');
  });

  it('runs through evaluateCase with a judge, without expected invocations needed', async () => {
    const { judge } = judgeFor({ 'Final response.': ['supported', 'not_applicable', 'unsupported'] });
    const actual = simple([], 'Final response.');
    const result = await evaluateCase({
      evalSetId: 'set',
      evalCase: { evalId: 'c', creationTimestamp: 0, conversation: [simpleExpected] },
      actual: [actual],
      metrics: [metricOf(false, 0.6)],
      sessionId: 's',
      userId: 'u',
      judge,
    });
    expect(result.overallEvalMetricResults[0]).toMatchObject({ evalStatus: 'PASSED', details: {} });
    expect(result.overallEvalMetricResults[0]?.score).toBeCloseTo(2 / 3, 15);
    expect(result.evalMetricResultPerInvocation[0]?.evalMetricResults[0]?.details).toEqual({ rubricScores: [] });
    const alone = await evaluate({ metric: metricOf(false, 0.7), actual: [actual], judge });
    expect(alone.overallEvalStatus).toBe('FAILED');
  });

  it('refuses a criterion whose evaluate_intermediate_nl_responses is not a boolean, with ADK’s criterion type', () => {
    const metric = metricOf(true);
    const bad: EvalMetric = {
      ...metric,
      criterion: {
        threshold: 0.5,
        includeIntermediateResponsesInFinal: false,
        extra: { evaluateIntermediateNlResponses: 'yes' },
      },
    };
    expect(() => hallucinationsCriterion(bad)).toThrow(
      'criterion.evaluate_intermediate_nl_responses: expected true or false',
    );
    try {
      hallucinationsCriterion(bad);
    } catch (error) {
      expect((error as { hint?: string }).hint).toBe(
        '`hallucinations_v1` metric expects a criterion of type `HallucinationsCriterion`.',
      );
    }
  });
});

function simpleNoApp(): Invocation {
  return {
    invocationId: '',
    userContent: { role: 'user', parts: [] },
    finalResponse: content([text('Final response.')]),
    creationTimestamp: 0,
  };
}
