import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { examplesText } from '../../src/features/adk-tools/example-tool.js';
import { scratch } from '../reliability/support.js';
import { cli, expectCliError } from '../support/cli.js';

// ADK's ExampleTool (tools/example_tool.py, examples/example_util.py at 2.5.0): few-shot examples appended to the
// system text, read from an agent file's `{ name: ExampleTool, args: { examples } }` or from a Python module's literal
// `ExampleTool(examples=[…])` without running it. The conversion cases translate ADK 2.5.0's
// tests/unittests/examples/test_example_util.py, for its three models (a Gemini 2 model, another, none).

const tmp = scratch();
afterAll(() => tmp.cleanup());

const roll = {
  input: { role: 'user' as const, parts: [{ text: 'Roll a die.' }, { text: 'A 6-sided one.' }] },
  output: [
    {
      role: 'model' as const,
      parts: [{ functionCall: { name: 'roll_die', args: { sides: 6, unit: 'd', fair: true } } }],
    },
    { role: 'user' as const, parts: [{ functionResponse: { name: 'roll_die', response: { result: 4 } } }] },
    { role: 'model' as const, parts: [{ text: 'I rolled a 4.' }] },
    { role: 'model' as const, parts: [{ text: 'Again?' }] },
  ],
};

/** `inspect --json` of an agent file's root, asked "Hello" (or `message`), under the adk profile. */
async function systemOf(files: Record<string, string>, message: unknown = [{ text: 'Hello' }]) {
  const caseFile = {
    agent: 'agent.yaml',
    profile: 'adk',
    events: [{ author: 'user', content: { role: 'user', parts: message } }],
  };
  const dir = await tmp.files({ ...files, 'case.json': JSON.stringify(caseFile) });
  return cli(['inspect', join(dir, 'case.json'), '--json']);
}

describe("ADK's ExampleTool", () => {
  it("writes calls, responses and roles as ADK's text does, with plain fences for Gemini 2 models", () => {
    const text = examplesText([roll], 'gemini-2.5-flash');
    expect(text).toBe(
      [
        '<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n',
        'EXAMPLE 1:\nBegin example\n[user]\nRoll a die.\nA 6-sided one.\n',
        "[model]\n```\nroll_die(sides=6, unit='d', fair=True)\n```\n",
        "[user]\n```\n{'will_continue': None, 'scheduling': None, 'parts': None, 'id': None, 'name': 'roll_die', 'response': {'result': 4}}\n```\n",
        '[model]\nI rolled a 4.\nAgain?\n',
        'End example\n\nEnd few-shot\n<EXAMPLES>',
      ].join(''),
    );
  });

  it('fences calls as tool_code and responses as tool_outputs for other models', () => {
    const text = examplesText([roll], 'openai:gpt-4o');
    expect(text).toContain("```tool_code\nroll_die(sides=6, unit='d', fair=True)\n```\n");
    expect(text).toContain("```tool_outputs\n{'will_continue': None");
    expect(examplesText([roll], undefined)).toContain('```\nroll_die(');
  });

  it('an example without input parts still opens with [user]; one without input text writes an empty line', () => {
    expect(examplesText([{ input: undefined, output: [] }], undefined)).toContain(
      'EXAMPLE 1:\nBegin example\n[user]\nEnd example\n\n',
    );
    expect(
      examplesText([{ input: { role: 'user', parts: [{ functionCall: { name: 'f' } }] }, output: [] }], undefined),
    ).toContain('[user]\n\nEnd example');
  });

  const agentWithExamples = [
    'name: root',
    'model: gemini-2.5-flash',
    'instruction: Answer.',
    'tools:',
    '  - name: ExampleTool',
    '    args:',
    '      examples:',
    '        - input: { role: user, parts: [{ text: "Is 7 prime?" }] }',
    '          output:',
    '            - role: model',
    '              parts:',
    '                - function_call: { name: check_prime, args: { nums: [7] } }',
    '            - role: model',
    '              parts: [{ text: "Yes." }]',
    '',
  ].join('\n');

  it("an agent file's ExampleTool entry puts the examples at the end of the system text, and declares no tool", async () => {
    const result = await systemOf({ 'agent.yaml': agentWithExamples });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const request = JSON.parse(result.stdout) as { system: string; tools: unknown[] };
    expect(request.system).toBe(
      'Answer.\n\nYou are an agent. Your internal name is "root".\n\n' +
        examplesText(
          [
            {
              input: { role: 'user', parts: [{ text: 'Is 7 prime?' }] },
              output: [
                { role: 'model', parts: [{ functionCall: { name: 'check_prime', args: { nums: [7] } } }] },
                { role: 'model', parts: [{ text: 'Yes.' }] },
              ],
            },
          ],
          'gemini-2.5-flash',
        ),
    );
    expect(request.system).toContain('check_prime(nums=[7])');
    expect(request.tools).toEqual([]);
  });

  it('adds nothing when the user message does not start with text, as ADK does', async () => {
    const result = await systemOf({ 'agent.yaml': agentWithExamples }, [
      { inlineData: { mimeType: 'image/png', data: 'AA==' } },
      { text: 'what is this?' },
    ]);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { system: string }).system).not.toContain('<EXAMPLES>');
  });

  it("reads a Python module's ExampleTool from its literal constructor call, without running the module", async () => {
    const result = await systemOf({
      'agent.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: Answer.\ntools:\n  - name: tools_pkg.examples.shots\n',
      'tools_pkg/__init__.py': '',
      'tools_pkg/examples.py': [
        'from google.adk.examples.example import Example',
        'from google.adk.tools.example_tool import ExampleTool',
        'from google.genai import types',
        'raise RuntimeError("never run")',
        'shots = ExampleTool([',
        '    Example(input=types.UserContent("Hi"), output=[types.ModelContent(parts=[types.Part.from_text(text="Hello!")])]),',
        '    Example(input=types.Content(role="user", parts=[types.Part(text="Call it")]),',
        '            output=[types.ModelContent([types.Part.from_function_call(name="f", args={"x": None})])]),',
        '])',
      ].join('\n'),
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const { system } = JSON.parse(result.stdout) as { system: string };
    expect(system).toContain('EXAMPLE 1:\nBegin example\n[user]\nHi\n[model]\nHello!\nEnd example');
    expect(system).toContain('EXAMPLE 2:\nBegin example\n[user]\nCall it\n[model]\n```\nf(x=None)\n```\nEnd example');
  });

  it('refuses, in one line each, an example provider, examples that are not literals and tool objects of other classes', async () => {
    const dir = await tmp.files({
      'agent.yaml': [
        'name: root',
        'model: gemini-2.5-flash',
        'tools:',
        '  - name: ExampleTool',
        '    args: { examples: my_pkg.provider }',
        '  - name: my_pkg.made.dynamic',
        '  - name: my_pkg.made.search',
        '',
      ].join('\n'),
      'my_pkg/__init__.py': '',
      'my_pkg/made.py':
        'EXAMPLES = []\ndynamic = ExampleTool(examples=EXAMPLES)\nsearch = VertexAiSearchTool(data_store_id="x")\n',
    });
    const result = await cli(['check', join(dir, 'agent.yaml')]);
    expectCliError(result, /names an example provider \(a BaseExampleProvider object in Python code\)/);
    expect(result.stderr).toMatch(/'my_pkg\.made\.dynamic' is made with arguments that are not literals \(examples\)/);
    expect(result.stderr).toMatch(
      /'my_pkg\.made\.search' is a VertexAiSearchTool object, which agentctx does not read/,
    );
  });
});

// ADK's tests/unittests/examples/test_example_util.py at 2.5.0, each for "gemini-2.5-flash", "llama3_vertex_agent" and
// no model: the pieces of text are ADK's constants (_EXAMPLES_INTRO, _EXAMPLE_START, …).
const INTRO =
  '<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n';
const END = 'End few-shot\n<EXAMPLES>';
const one = (body: string) => `${INTRO}EXAMPLE 1:\nBegin example\n[user]\ntest_input\n${body}End example\n\n${END}`;
const input = { role: 'user' as const, parts: [{ text: 'test_input' }] };
const model = (...texts: string[]) => ({ role: 'model' as const, parts: texts.map((text) => ({ text })) });
const user = (...texts: string[]) => ({ role: 'user' as const, parts: texts.map((text) => ({ text })) });
const args = { test_string_argument: 'test_value', test_int_argument: 1 };

describe.each([['gemini-2.5-flash'], ['llama3_vertex_agent'], [undefined]])(
  "ADK's example_util tests, model %s",
  (name) => {
    const gemini2 = name === undefined || name.includes('gemini-2');
    it('test_text_only_example_conversion', () => {
      expect(examplesText([{ input, output: [model('test_output')] }], name)).toBe(one('[model]\ntest_output\n'));
    });
    it('test_multi_part_text_example_conversion', () => {
      expect(examplesText([{ input, output: [model('test_output_1', 'test_output_2', 'test_output_3')] }], name)).toBe(
        one('[model]\ntest_output_1\ntest_output_2\ntest_output_3\n'),
      );
    });
    it('test_example_conversion_prefix_insertion', () => {
      const output = [model('test_output_1'), user('test_output_2'), model('test_output_3')];
      expect(examplesText([{ input, output }], name)).toBe(
        one('[model]\ntest_output_1\n[user]\ntest_output_2\n[model]\ntest_output_3\n'),
      );
    });
    it('test_example_conversion_output_clumping', () => {
      const output = [model('test_output_1'), model('test_output_2'), user('test_output_3'), user('test_output_4')];
      expect(examplesText([{ input, output }], name)).toBe(
        one('[model]\ntest_output_1\ntest_output_2\n[user]\ntest_output_3\ntest_output_4\n'),
      );
    });
    it('test_empty_examples_list_conversion', () => {
      expect(examplesText([], name)).toBe(`${INTRO}${END}`);
    });
    it('test_example_conversion_with_function_call', () => {
      const output = [{ role: 'model' as const, parts: [{ functionCall: { name: 'test_function', args } }] }];
      expect(examplesText([{ input, output }], name)).toBe(
        one(
          `[model]\n${gemini2 ? '```\n' : '```tool_code\n'}test_function(test_string_argument='test_value', test_int_argument=1)\n\`\`\`\n`,
        ),
      );
    });
    it('test_example_conversion_with_function_response', () => {
      const output = [
        { role: 'model' as const, parts: [{ functionResponse: { name: 'test_function', response: args } }] },
      ];
      // ADK prints the response object's __dict__; its fields are google-genai's FunctionResponse's.
      expect(examplesText([{ input, output }], name)).toBe(
        one(
          `[model]\n${gemini2 ? '```\n' : '```tool_outputs\n'}{'will_continue': None, 'scheduling': None, 'parts': None, 'id': None, 'name': 'test_function', 'response': {'test_string_argument': 'test_value', 'test_int_argument': 1}}\n\`\`\`\n`,
        ),
      );
    });
  },
);
