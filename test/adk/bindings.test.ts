import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratch } from '../reliability/support.js';
import { cli, expectCliError, repositoryRoot } from '../support/cli.js';

// `--bindings`: TypeScript for the Python an ADK agent file names, by dotted name — a function tool (declared from
// its Python source, as ADK declares it), callbacks, a `code:` agent and a custom agent class — so the file runs
// without Python. The samples are ADK's own (test/fixtures/adk-samples).

const tmp = scratch();
afterAll(() => tmp.cleanup());

const SAMPLES = join(repositoryRoot, 'test/fixtures/adk-samples/samples/contributing/samples');
const src = (path: string) => JSON.stringify(join(repositoryRoot, 'src', path));

// The bindings module a user writes, importing agentctx (here its source).
const BINDINGS = `
import { customAgent } from ${src('engine/agent/define-agent.ts')};
import { llmAgent } from ${src('engine/agent/define-agent.ts')};

const said = [];
export default {
  // A function tool: the model's arguments and the tool context; its declaration comes from the Python source.
  'tool_functions_config.tools.roll_die': ({ sides }, context) => {
    context.state.set('rolls', [...(context.state.get('rolls') ?? []), sides]);
    return sides;
  },
  // Callbacks, by the kind of the field that names them.
  'core_callback_config.callbacks.before_agent_callback1': () => void said.push('before agent'),
  'core_callback_config.callbacks.after_model_callback': ({ response }) => ({
    ...response,
    content: { role: 'model', parts: [{ text: 'changed by the bound callback' }] },
  }),
  // A code: sub-agent, as a definition.
  'sub_agents_config.life_agent.agent': llmAgent({ name: 'life_agent', description: 'Bound in TypeScript.', instruction: 'Live.' }),
  // A custom agent class: a function of the file's fields.
  'core_custom_agent_config.my_agents.MyCustomAgent': (fields) =>
    customAgent({
      name: fields.name,
      description: fields.description,
      async *run() {
        yield { content: { role: 'model', parts: [{ text: 'my_field is ' + fields.my_field }] } };
      },
    }),
};
`;

async function setup() {
  const dir = await tmp.files({ 'bindings.mjs': BINDINGS, 'script.yaml': '- text: ok\n' });
  return {
    bindings: join(dir, 'bindings.mjs'),
    run: (agent: string, script: string, ...extra: string[]) =>
      cli(['run', agent, '--model', `scripted:${script}`, '--store', 'memory', '--message', 'Hello', ...extra]),
    dir,
  };
}

describe('--bindings', () => {
  it("runs a Python function tool's TypeScript binding, declared from the Python source as ADK declares it", async () => {
    const { bindings, dir } = await setup();
    const agent = join(SAMPLES, 'tool_functions_config', 'root_agent.yaml');
    const inspected = await cli(['inspect', agent, '--json', '--bindings', bindings]);
    const declared = (JSON.parse(inspected.stdout) as { tools: { name: string; parameters: unknown }[] }).tools;
    expect(declared.find((tool) => tool.name === 'roll_die')?.parameters).toEqual({
      properties: { sides: { title: 'Sides', type: 'integer' } },
      required: ['sides'],
      title: 'roll_dieParams',
      type: 'object',
    });
    const script = join(dir, 'roll.yaml');
    await writeFile(script, '- functionCall: { name: roll_die, args: { sides: 20 } }\n- text: done\n');
    const ran = await cli([
      'run',
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      'memory',
      '--message',
      'roll',
      '--bindings',
      bindings,
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    // The bound function answered (20, not a random roll), and no Python ran: no stand-in warning.
    expect(ran.stdout).toContain('← roll_die: {"result":20}');
    expect(ran.stdout).toContain('state: rolls=[20]');
    expect(ran.stderr).not.toContain('stand-ins');
  });

  it('binds callbacks by the field that names them, and warns only for the unbound ones', async () => {
    const { bindings, run, dir } = await setup();
    const result = await run(
      join(SAMPLES, 'core_callback_config', 'root_agent.yaml'),
      join(dir, 'script.yaml'),
      '--bindings',
      bindings,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('changed by the bound callback');
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings.find((line) => line.includes('before_agent_callbacks'))).toMatch(
      /2 Python callbacks are not run \(core_callback_config\.callbacks\.before_agent_callback2, core_callback_config\.callbacks\.before_agent_callback3\)/,
    );
    expect(warnings.some((line) => line.includes('after_model_callbacks'))).toBe(false);
  });

  it('binds a code: agent and a custom agent class, which then run', async () => {
    const { bindings, run, dir } = await setup();
    const inspected = await cli([
      'inspect',
      join(SAMPLES, 'sub_agents_config', 'root_agent.yaml'),
      '--json',
      '--bindings',
      bindings,
    ]);
    expect((JSON.parse(inspected.stdout) as { system: string }).system).toContain(
      'Agent name: life_agent\nAgent description: Bound in TypeScript.',
    );
    const custom = await run(
      join(SAMPLES, 'core_custom_agent_config', 'root_agent.yaml'),
      join(dir, 'script.yaml'),
      '--bindings',
      bindings,
    );
    expect(custom.code, custom.stderr).toBe(0);
    expect(custom.stdout).toContain('[working_agent] my_field is my_field_value');
    expect(custom.stderr).not.toContain('warning:');
  });

  it('check reads a file with Python callbacks and classes, warning, as inspect does', async () => {
    const result = await cli(['check', join(SAMPLES, 'core_callback_config', 'root_agent.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning: '))).toHaveLength(6);
    const custom = await cli(['check', join(SAMPLES, 'core_custom_agent_config', 'root_agent.yaml')]);
    expect(custom.code).toBe(0);
    expect(custom.stderr).toMatch(/warning: .*is a Python agent class/);
  });

  it('says in one line what is wrong with a bindings module or a binding', async () => {
    const dir = await tmp.files({
      'none.mjs': 'export const other = 1;\n',
      'wrong.mjs': "export default { 'tool_functions_config.tools.roll_die': 42 };\n",
    });
    expectCliError(
      await cli([
        'inspect',
        join(SAMPLES, 'tool_functions_config', 'root_agent.yaml'),
        '--bindings',
        join(dir, 'none.mjs'),
      ]),
      /none\.mjs exports no bindings/,
    );
    expectCliError(
      await cli([
        'inspect',
        join(SAMPLES, 'tool_functions_config', 'root_agent.yaml'),
        '--bindings',
        join(dir, 'wrong.mjs'),
      ]),
      /the binding of 'tool_functions_config\.tools\.roll_die' is not a tool or a function/,
    );
  });
});
