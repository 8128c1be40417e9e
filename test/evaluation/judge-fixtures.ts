import type { Content } from '../../src/contracts/content.js';
import type { Invocation, Rubric } from '../../src/contracts/evaluation.js';

// The invocation whose rubric prompts test/fixtures/adk-judge/rubric-prompts.golden.json holds as ADK 2.5.0 formats
// them (made in Python: ADK's templates, `str.format`, pydantic 2.13.4's `model_dump_json` over models with genai's
// fields): texts and tool calls with non-ASCII characters and floats, a call without response, app details with a null.

const say = (text: string, role: Content['role'] = 'model'): Content => ({ role, parts: [{ text }] });
const rubric = (rubricId: string, textProperty: string, type?: string): Rubric => ({
  rubricId,
  rubricContent: { textProperty },
  ...(type === undefined ? {} : { type }),
});

export const GOLDEN_INVOCATION: Invocation = {
  invocationId: 'i1',
  userContent: say('Weather in Zürich?', 'user'),
  intermediateData: {
    invocationEvents: [
      { author: 'agent1', content: say('Let me check.') },
      {
        author: 'agent1',
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Zürich', n: 2, ratio: 0.25 } } }],
        },
      },
      {
        author: 'agent1',
        content: {
          role: 'user',
          parts: [{ functionResponse: { id: 'c1', name: 'get_weather', response: { temp: 21.5 } } }],
        },
      },
      { author: 'agent1', content: { role: 'model', parts: [{ functionCall: { id: 'c2', name: 'get_time' } }] } },
    ],
  },
  finalResponse: say('It is 21.5°C.'),
  creationTimestamp: 0,
  appDetails: {
    agentDetails: {
      agent1: {
        name: 'agent1',
        instructions: 'Answer about the weather.',
        toolDeclarations: [
          {
            function_declarations: [
              {
                name: 'get_weather',
                description: 'Weather in a city, é',
                parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
                response: null,
              },
            ],
          },
        ],
      },
    },
  },
  rubrics: [
    rubric('r2', 'Does it give the unit?', 'FINAL_RESPONSE_QUALITY'),
    rubric('t1', 'Is get_weather called with the city?', 'TOOL_USE_QUALITY'),
  ],
};
