import { join } from 'node:path';
import { expect } from 'vitest';
import type { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { parseDocument } from '../../src/engine/config/parse-document.js';
import { agentFromConfig } from '../../src/presets/agent-files.js';
import { defineRows } from '../reliability/rows.js';
import { caught, expectTyped, scratch } from '../reliability/support.js';
import { cli, expectCliError } from '../support/cli.js';

// Part 1, agent definitions: keys and values that are also names of what every JavaScript object inherits
// (`__proto__`, `constructor`, `toString`, `hasOwnProperty`, `valueOf`) are read as the text they are. An unknown
// one is refused by the name written in the file, at every level the reader renames keys (the agent's fields, ADK's
// snake_case spellings, `generate_content_config`, an `AgentTool`'s `args`, a file named by `config_path`), and a
// value naming one (an agent class, a tool) finds nothing instead of an inherited function.

const tmp = scratch();
// Run after the rows (through defineRows, so the table writer can import this file outside vitest).
const cleanUp = () => tmp.cleanup();

const SCRIPT = ['--model', 'scripted:examples/draft-and-review/script.yaml', '--store', 'memory', '--message', 'hi'];
/** `agentctx run` on agent files (the first is the agent). */
const run = async (files: Record<string, string>) =>
  cli(['run', join(await tmp.files(files), Object.keys(files)[0] as string), ...SCRIPT]);

/** Every issue of reading `yaml` as an agent file, as `path: message`; none may show how JavaScript prints an object or a function. */
async function issues(yaml: string, files: Record<string, string> = {}): Promise<string[]> {
  const dir = await tmp.files(files);
  const value = await parseDocument(yaml, { filename: 'agent.yaml' });
  const error = await caught(() =>
    agentFromConfig(value, {
      filename: join(dir, 'agent.yaml'),
      load: async (reference) => ({
        value: await parseDocument(files[reference] ?? '', { filename: reference }),
        filename: reference,
      }),
    }),
  );
  expectTyped(error, { code: 'invalid_input', message: /./ });
  const found = (error as ValidationError).issues.map(
    (issue) => `${issue.path}: ${issue.message.replace(/; allowed: .*$/, '')}`,
  );
  expect(found.join('\n')).not.toMatch(/\[object Object\]|native code|_Proto__|function /);
  return found;
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'agent.proto-keys',
      entry: 'agent definition',
      tried:
        '`__proto__`, `constructor`, `toString`, `hasOwnProperty`, `valueOf` as keys: of the agent, of a sub-agent, in `generate_content_config`, in an `AgentTool`\u2019s `args`, in a declared tool, in a file named by `config_path`',
      expected:
        'each `unknown field` at its path, named as written (`__proto__: unknown field`, `generate_content_config.__proto__`), never `"[object Object]"`, `"function Object() { [native code] }"` or `_Proto__`; CLI: one line, exit 2',
      run: async () => {
        // The YAML reader keeps these as the object's own keys; without that, the row would test nothing.
        const parsed = (await parseDocument('__proto__: { a: 1 }\nconstructor: 2\n', { filename: 'x.yaml' })) as Record<
          string,
          unknown
        >;
        expect([Object.hasOwn(parsed, '__proto__'), Object.hasOwn(parsed, 'constructor')]).toEqual([true, true]);
        const yaml = [
          'name: helper',
          'instruction: Help.',
          '__proto__: { isAdmin: true }',
          'constructor: 1',
          'toString: x',
          'generate_content_config: { temperature: 0.1, __proto__: 1, constructor: 2, max_output_tokens: 5 }',
          'tools:',
          '  - { name: find, description: Finds., constructor: 1 }',
          '  - { name: AgentTool, args: { agent: { name: inner }, __proto__: 1 } }',
          'sub_agents:',
          '  - { name: child, hasOwnProperty: 1, valueOf: 2 }',
          '  - { config_path: other.yaml }',
          '',
        ].join('\n');
        expect(await issues(yaml, { 'other.yaml': 'name: other\n__proto__: 1\n' })).toEqual([
          '__proto__: unknown field',
          'constructor: unknown field',
          'toString: unknown field',
          'sub_agents[0].hasOwnProperty: unknown field',
          'sub_agents[0].valueOf: unknown field',
          'other.yaml: __proto__: unknown field',
          'tools[0].constructor: unknown field',
          'tools[1].args.__proto__: unknown field',
          'generate_content_config.__proto__: unknown field',
          'generate_content_config.constructor: unknown field',
        ]);
        expectCliError(
          await run({ 'agent.yaml': 'name: helper\n__proto__: { isAdmin: true }\n' }),
          /agent\.yaml: __proto__: unknown field; allowed: name,/,
        );
        expectCliError(
          await run({ 'agent.json': '{"name": "helper", "constructor": {"x": 1}}' }),
          /agent\.json: constructor: unknown field; allowed: name,/,
        );
        expectCliError(
          await run({ 'agent.yaml': 'name: helper\ngenerate_config: { __proto__: 1 }\n' }),
          /generate_config: unknown field \(did you mean 'generateConfig'\?\)/,
        );
      },
    },
    {
      id: 'agent.proto-values',
      entry: 'agent definition',
      tried:
        '`agent_class: constructor` and `toString`, `tools: [constructor, toString, { name: __proto__ }]`, `valueOf` beside ADK\u2019s `model_code`',
      expected:
        "refused as what they are: `agent_class: 'constructor' is not an agent class of ADK 2.5.0, …`; `tool 'constructor' has no implementation here`; never an inherited function taken for a class or a tool",
      run: async () => {
        expect(await issues('name: helper\nagent_class: constructor\ninstruction: Help.\n')).toEqual([
          "agent_class: 'constructor' is not an agent class of ADK 2.5.0, which refuses the file too; use one of LlmAgent, Agent, SequentialAgent, ParallelAgent, LoopAgent",
        ]);
        expect(await issues('name: helper\nagent_class: toString\n')).toEqual([
          "agent_class: 'toString' is not an agent class of ADK 2.5.0, which refuses the file too; use one of LlmAgent, Agent, SequentialAgent, ParallelAgent, LoopAgent",
        ]);
        expect(await issues('name: helper\ntools: [constructor, toString, { name: __proto__ }]\n')).toEqual([
          "tools[0]: tool 'constructor' has no implementation here; declare it with a description (and parameters) to inspect it",
          "tools[1]: tool 'toString' has no implementation here; declare it with a description (and parameters) to inspect it",
          "tools[2]: tool '__proto__' has no implementation here; declare it with a description (and parameters) to inspect it",
        ]);
        expect(await issues('name: helper\ninstruction: Help.\nvalueOf: 1\nmodel_code: x\n')).toEqual([
          expect.stringMatching(/^model_code: names Python code that builds a model/) as unknown as string,
          'valueOf: unknown field',
        ]);
        expectCliError(
          await run({ 'agent.yaml': 'name: helper\ntools: [constructor]\n' }),
          /tools\[0\]: tool 'constructor' has no implementation here/,
        );
      },
    },
  ],
  { afterAll: cleanUp },
);
