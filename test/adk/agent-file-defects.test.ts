import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../providers/fake-server.js';
import { scratch } from '../reliability/support.js';
import { agentctxWith, cli, expectCliError, repositoryRoot } from '../support/cli.js';

// Defects found trying ADK's agent files from outside (issue 47): each test failed before its fix.

const tmp = scratch();
afterAll(() => tmp.cleanup());
const folder = (files: Record<string, string>) => tmp.files(files);

/** The root agent file of one of ADK's samples (test/fixtures/adk-samples). */
const sample = (name: string) =>
  join(repositoryRoot, 'test/fixtures/adk-samples/samples/contributing/samples', name, 'root_agent.yaml');

/** `agentctx run` of an agent file on a scripted model that answers "ok", in memory. */
async function runOnce(agent: string) {
  const dir = await folder({ 'script.yaml': 'responses:\n  - text: ok\n' });
  return cli(['run', agent, '--model', `scripted:${join(dir, 'script.yaml')}`, '--store', 'memory', '--message', 'hi']);
}

describe("ADK's agent files, from outside", () => {
  it('inspect of a workflow root names the agents under it that call a model, and how to ask one', async () => {
    const root = sample('multi_agent_seq_config');
    const dir = await folder({ 'case.yaml': `agent: ${root}\n` });
    const result = await cli(['inspect', join(dir, 'case.yaml')]);
    expectCliError(result, /'CodePipelineAgent' is a sequential agent, which calls no model/);
    expect(result.stderr).toContain('CodeWriterAgent, CodeReviewerAgent, CodeRefactorerAgent (inspect --agent <name>');
    const asked = await cli(['inspect', join(dir, 'case.yaml'), '--agent', 'CodeWriterAgent']);
    expect({ code: asked.code, stderr: asked.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('a config_path that names no file says which file named it and where it is read from', async () => {
    const dir = await folder({
      'agents/root.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: hi\nsub_agents:\n  - config_path: helpers/helper.yaml\n',
      'case.yaml': 'agent: agents/root.yaml\n',
    });
    const result = await cli(['inspect', join(dir, 'case.yaml')]);
    expectCliError(
      result,
      /sub_agents\[0\]\.config_path: no file helpers\/helper\.yaml: a config_path is read from the folder of the file that names it \(.*agents\/root\.yaml\)/,
    );
    expect(result.stderr).not.toMatch(/Cannot read .*Cannot read/);
  });

  it('inspect of an agent file takes --state, so an agent with a required placeholder is inspected without a case file', async () => {
    const dir = await folder({
      'agent.yaml': "name: root\nmodel: gemini-2.5-flash\ninstruction: 'Hello {user_name}, you have {count} items'\n",
      'state.json': '{"user_name": "Ada", "count": 3}',
    });
    const without = await cli(['inspect', join(dir, 'agent.yaml')]);
    expectCliError(without, /Context variable not found: `user_name`/);
    const result = await cli(['inspect', join(dir, 'agent.yaml'), '--state', join(dir, 'state.json'), '--json']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(result.stdout) as { system: string }).system).toMatch(/^Hello Ada, you have 3 items/);
    expectCliError(
      await cli(['inspect', join(dir, 'agent.yaml'), '--session', 's1', '--state', join(dir, 'state.json')]),
      /--state goes with a case or agent file/,
    );
  });

  it('run says at start which declared tools have no implementation, before the model calls one', async () => {
    const dir = await folder({
      'agent.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: hi\ntools:\n  - name: lookup\n    description: Looks a word up.\n',
      'script.yaml': 'responses:\n  - text: ok\n',
    });
    const result = await cli([
      'run',
      join(dir, 'agent.yaml'),
      '--model',
      `scripted:${join(dir, 'script.yaml')}`,
      '--store',
      'memory',
      '--message',
      'hi',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: a tool is declared without an implementation, so a call of it answers the model with an error: lookup (root).',
    );
    const bound = await runOnce(sample('core_basic_config'));
    expect(bound.stderr).not.toContain('warning');
  });

  it('lists every problem of a file and of the files it names, grouped by file and by message, with their count', async () => {
    const dir = await folder({
      'root.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: hi\nbogus1: 1\nbogus2: 2\ntools:\n  - name: a.b.c\n  - name: d.e.f\nsub_agents:\n  - config_path: sub.yaml\n',
      'sub.yaml': 'name: sub\nmodel: gemini-2.5-flash\ninstruction: y\nbogus3: 3\ntools:\n  - name: g.h.i\n',
    });
    const result = await cli(['inspect', join(dir, 'root.yaml')]);
    expectCliError(result, /^error: Invalid .*root\.yaml: 6 problems: bogus1, bogus2: unknown field; allowed: /);
    for (const name of ["'a.b.c'", "'d.e.f'", "'g.h.i'", 'bogus3']) expect(result.stderr).toContain(name);
    expect(result.stderr).toMatch(/ \| .*sub\.yaml: bogus3: unknown field/);
    expect(result.stderr).not.toContain('more)');
    // With --json, the same problems on stdout, one entry each, with the file it is in.
    const json = await cli(['check', join(dir, 'root.yaml'), '--json']);
    expect(json.code).toBe(2);
    const { error } = JSON.parse(json.stdout) as {
      error: { code: string; problems: { file: string; path: string; message: string }[] };
    };
    expect(error.code).toBe('invalid_input');
    expect(error.problems).toHaveLength(6);
    expect(
      error.problems.filter((problem) => problem.file.endsWith('sub.yaml')).map((problem) => problem.path),
    ).toEqual(['bogus3', 'tools[0]']);
    expect(error.problems[0]).toEqual({ file: '', path: 'bogus1', message: expect.stringMatching(/^unknown field/) });
  });

  it("google_search named in an agent file goes on the Gemini wire as Gemini's built-in tool; an OpenAI model refuses it in one line, naming the model", async () => {
    const gemini = await startFakeServer(() => ({
      json: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Found it.' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
      },
    }));
    try {
      const root = sample('tool_builtin_config');
      const env = {
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${gemini.url}/v1`,
      };
      const run = await agentctxWith(env, 'run', root, '--store', 'memory', '--message', 'Who won?');
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('session') });
      expect(run.stdout).toContain('Found it.');
      const body = gemini.received[0]?.body as { tools?: unknown[] };
      expect(body.tools).toEqual([{ googleSearch: {} }]);
      const refused = await agentctxWith(
        env,
        'run',
        root,
        '--store',
        'memory',
        '--model',
        'openai:gpt-4.1',
        '--message',
        'Who won?',
      );
      expect(refused.code).not.toBe(0);
      expect(`${refused.stdout}${refused.stderr}`).toMatch(
        /'googleSearch' is a built-in tool of google, which Chat Completions cannot run \(model gpt-4\.1\)/,
      );
      expect(gemini.received).toHaveLength(1);
    } finally {
      await gemini.close();
    }
  });

  it('a file with Python callbacks loads: inspect and run warn once per kind, naming each callback and what to write instead', async () => {
    const root = sample('core_callback_config');
    for (const [command, result] of [
      ['inspect', await cli(['inspect', root])],
      ['run', await runOnce(root)],
    ] as const) {
      expect(result.code, command).toBe(0);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
      expect(warnings, command).toHaveLength(6);
      expect(warnings[0]).toMatch(
        /^warning: .*core_callback_config\/root_agent\.yaml: before_agent_callbacks: 3 Python callbacks are not run \(core_callback_config\.callbacks\.before_agent_callback1, .*\); agentctx runs no Python callbacks: bind each to a TypeScript beforeAgent callback with --bindings \(\{ 'core_callback_config\.callbacks\.before_agent_callback1': \(args\) => … \}\), or write the agent in a JavaScript or TypeScript module with llmAgent\(\{ callbacks: \{ beforeAgent: … \} \}\)/,
      );
    }
  });

  it('a code: sub-agent is read from the literal constructor that makes it, without running its module', async () => {
    const dir = await folder({
      'my_app/__init__.py': '',
      'my_app/agents.py': [
        'from google.adk.agents import LlmAgent',
        'raise RuntimeError("never run")',
        'helper = LlmAgent(name="helper", description="Helps" " a lot", instruction="Help.")',
        'PROMPT = "x"',
        'dynamic = LlmAgent(name="dynamic", instruction=PROMPT)',
        '',
      ].join('\n'),
      'my_app/root.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: Route.\nsub_agents:\n  - code: my_app.agents.helper\n',
      'my_app/bad.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: Route.\nsub_agents:\n  - code: my_app.agents.dynamic\n',
    });
    const result = await cli(['inspect', join(dir, 'my_app', 'root.yaml'), '--json']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(result.stdout) as { system: string }).system).toContain(
      'Agent name: helper\nAgent description: Helps a lot',
    );
    expectCliError(
      await cli(['inspect', join(dir, 'my_app', 'bad.yaml')]),
      /sub_agents\[0\]\.code: 'my_app\.agents\.dynamic' is made with arguments that are not literals \(instruction\)/,
    );
  });

  it('an agent_class that is a Python class loads as an agent that fails when it runs, with a warning naming the binding', async () => {
    const root = sample('core_custom_agent_config');
    const result = await runOnce(root);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^warning: .*agentClass: 'core_custom_agent_config\.my_agents\.MyCustomAgent' is a Python agent class, which agentctx does not run; 'working_agent' loads as an agent that fails when it runs: write it as customAgent\(\{ name: 'working_agent', run \}\)/,
    );
    expect(lines.at(-1)).toBe(
      "error: Agent 'working_agent' is the Python class core_custom_agent_config.my_agents.MyCustomAgent, which agentctx does not run. Write it as customAgent({ name: 'working_agent', run }), bound with --bindings ({ 'core_custom_agent_config.my_agents.MyCustomAgent': (fields) => customAgent(…) }).",
    );
  });

  it('run and serve take --profile adk: state values reach the instruction as ADK writes them (Python str())', async () => {
    const dir = await folder({
      'agent.yaml': "name: root\nmodel: gemini-2.5-flash\ninstruction: 'Prefs {prefs} {flag}'\n",
      'state.json': '{"prefs": {"ok": true, "n": null}, "flag": false}',
      'script.yaml': 'responses:\n  - text: ok\n',
    });
    const store = join(dir, 'sessions.db');
    const systemOf = async (session: string, profile: string[]) => {
      const ran = await cli([
        'run',
        join(dir, 'agent.yaml'),
        '--model',
        `scripted:${join(dir, 'script.yaml')}`,
        '--store',
        store,
        '--state',
        join(dir, 'state.json'),
        '--session',
        session,
        '--message',
        'hi',
        ...profile,
      ]);
      expect(ran.code).toBe(0);
      const shown = await cli([
        'inspect',
        '--app',
        'root',
        '--session',
        session,
        '--store',
        store,
        '--call',
        '1',
        '--json',
      ]);
      return (JSON.parse(shown.stdout) as { system: string }).system.split('\n')[0];
    };
    expect(await systemOf('adk', ['--profile', 'adk'])).toBe("Prefs {'ok': True, 'n': None} False");
    expect(await systemOf('default', [])).toBe('Prefs {"ok":true,"n":null} false');
    expectCliError(
      await cli(['run', join(dir, 'agent.yaml'), '--store', 'memory', '--message', 'hi', '--profile', 'bogus']),
      /--profile must be agentctx or adk, got 'bogus'/,
    );
  });

  it('check says what ADK itself would refuse in a file written in its spelling (an inline sub-agent), and nothing for agentctx spelling', async () => {
    const dir = await folder({
      'adk.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: Route.\nsub_agents:\n  - name: helper\n    description: Helps.\n    instruction: Help.\n',
      'own.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: Route.\nsubAgents:\n  - name: helper\n    description: Helps.\n    instruction: Help.\n',
    });
    const adk = await cli(['check', join(dir, 'adk.yaml'), '--json']);
    expect((JSON.parse(adk.stdout) as { adkRefusals: string[] }).adkRefusals).toEqual([
      'sub_agents[0]: ADK takes a sub-agent as { config_path } or { code } only, and refuses one written inline; move it to a file of its own',
    ]);
    expect((await cli(['check', join(dir, 'adk.yaml')])).stdout).toContain(
      '⚠ ADK would refuse this file: sub_agents[0]: ',
    );
    expect(
      (JSON.parse((await cli(['check', join(dir, 'own.yaml'), '--json'])).stdout) as { adkRefusals: string[] })
        .adkRefusals,
    ).toEqual([]);
  });

  it("ADK's LongRunningFunctionTool is declared with ADK's note, and runs (the pause and the answer: test/hitl)", async () => {
    const root = sample('tool_human_in_the_loop_config');
    const inspected = await cli(['inspect', root, '--json']);
    const tools = (JSON.parse(inspected.stdout) as { tools: { name: string; description: string }[] }).tools;
    expect(tools.map((tool) => tool.name)).toEqual(['reimburse', 'ask_for_approval']);
    expect(tools[1]?.description).toBe(
      'Ask for approval for the reimbursement.\n\nNOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.',
    );
    expect((await runOnce(root)).code).toBe(0);
  });

  it('a file named under two parents builds as ADK builds it: one agent under each, its name finding the first', async () => {
    const dir = await folder({
      'root.yaml':
        'agent_class: SequentialAgent\nname: pipeline\nsub_agents:\n  - config_path: first.yaml\n  - config_path: second.yaml\n',
      'first.yaml':
        'name: first\nmodel: gemini-2.5-flash\ninstruction: One.\nsub_agents:\n  - config_path: shared.yaml\n',
      'second.yaml':
        'name: second\nmodel: gemini-2.5-flash\ninstruction: Two.\nsub_agents:\n  - config_path: shared.yaml\n',
      'shared.yaml': 'name: shared\nmodel: gemini-2.5-flash\ndescription: Shared help.\ninstruction: Help.\n',
    });
    for (const [agent, transfer] of [
      ['first', 'Agent name: shared'],
      ['second', 'Agent name: shared'],
      ['shared', 'transfer to your parent agent first'],
    ] as const) {
      const result = await cli(['inspect', join(dir, 'root.yaml'), '--agent', agent, '--json']);
      expect({ agent, code: result.code, stderr: result.stderr }).toEqual({ agent, code: 0, stderr: '' });
      expect((JSON.parse(result.stdout) as { system: string }).system).toContain(transfer);
    }
    // The sequence runs first, then second: each answers once.
    await writeFile(join(dir, 'two.yaml'), 'responses:\n  - text: one\n  - text: two\n');
    const ran = await cli([
      'run',
      join(dir, 'root.yaml'),
      '--model',
      `scripted:${join(dir, 'two.yaml')}`,
      '--store',
      'memory',
      '--message',
      'hi',
    ]);
    expect({ code: ran.code, stdout: ran.stdout }).toEqual({
      code: 0,
      stdout: expect.stringMatching(/first[^]*one[^]*second[^]*two/),
    });
  });

  it("an agent file's root names its profile (adk, and the Python whose repr it writes): inspect and run use it; --profile overrides the name", async () => {
    const dir = await folder({
      'agent.yaml':
        "profile: { name: adk, python: '3.13' }\nname: root\nmodel: gemini-2.5-flash\ninstruction: 'Mood: {mood}'\n",
      'state.json': JSON.stringify({ mood: { face: '\u{1FAE8}', ok: true } }),
      'script.yaml': '- text: fine\n',
    });
    const inspected = await cli(['inspect', join(dir, 'agent.yaml'), '--state', join(dir, 'state.json'), '--json']);
    expect({ code: inspected.code, stderr: inspected.stderr }).toEqual({ code: 0, stderr: '' });
    // Python 3.13 (Unicode 15.1) prints the face; the default 3.11 would write '\U0001fae8'.
    expect((JSON.parse(inspected.stdout) as { system: string }).system).toMatch(
      /^Mood: \{'face': '\u{1FAE8}', 'ok': True\}/u,
    );
    // Runs a turn in a session of its own, and gives the system text of its recorded call.
    const store = join(dir, 'run.db');
    const systemOfRun = async (session: string, ...extra: string[]) => {
      const agent = join(dir, 'agent.yaml');
      const script = `scripted:${join(dir, 'script.yaml')}`;
      const state = join(dir, 'state.json');
      const ran = await cli([
        'run',
        agent,
        '--model',
        script,
        '--store',
        store,
        '--session',
        session,
        '--state',
        state,
        '--message',
        'hi',
        ...extra,
      ]);
      expect(ran.code, ran.stderr).toBe(0);
      const call = await cli(['inspect', agent, '--session', session, '--call', 'last', '--json', '--store', store]);
      return (JSON.parse(call.stdout) as { system: string }).system;
    };
    expect(await systemOfRun('s1')).toBe(
      "Mood: {'face': '\u{1FAE8}', 'ok': True}\n\nYou are an agent. Your internal name is \"root\".",
    );
    expect(await systemOfRun('s2', '--profile', 'agentctx')).toMatch(/^Mood: \{"face":"\u{1FAE8}","ok":true\}/u);
  });

  it('refuses a profile in a file another one names, a Python it does not know (saying to quote it), and check says ADK would refuse the field', async () => {
    const dir = await folder({
      'root.yaml': 'profile: { name: adk, python: 3.10 }\nname: root\nsub_agents:\n  - config_path: sub.yaml\n',
      'sub.yaml': 'profile: adk\nname: sub\n',
    });
    const result = await cli(['check', join(dir, 'root.yaml')]);
    expectCliError(
      result,
      /profile\.python: expected one of '3\.10', '3\.11', '3\.12', '3\.13' \(a string: quote it in YAML\), got 3\.1/,
    );
    expect(result.stderr).toMatch(/sub\.yaml: profile: a profile is named by the root agent file only/);
    const adk = await folder({ 'agent.yaml': 'profile: adk\nname: root\nagent_class: LlmAgent\n' });
    expect((await cli(['check', join(adk, 'agent.yaml')])).stdout).toContain(
      '⚠ ADK would refuse this file: profile: ADK refuses fields it does not have',
    );
  });

  it("reports a file written in ADK's spelling in that spelling, and holds safety settings to google-genai's values", async () => {
    const dir = await folder({
      'adk.yaml': [
        'name: root',
        'model: gemini-2.5-flash',
        'generate_content_config:',
        '  temprature: 0.2',
        '  safety_settings:',
        '    - { category: HARM_CATEGORY_NOPE, threshold: "OFF" }',
        'sub_agents:',
        '  - config_path: sub.yaml',
        '',
      ].join('\n'),
      'sub.yaml': 'name: sub\noutput_key: x\ninclude_contents: sometimes\n',
    });
    const result = await cli(['check', join(dir, 'adk.yaml'), '--json']);
    const { error } = JSON.parse(result.stdout) as {
      error: { problems: { file: string; path: string; message: string }[] };
    };
    const byPath = Object.fromEntries(error.problems.map((problem) => [problem.path, problem]));
    expect(Object.keys(byPath).sort()).toEqual([
      'generate_content_config.safety_settings[0].category',
      'generate_content_config.temprature',
      'include_contents',
    ]);
    expect(byPath['generate_content_config.temprature']?.message).toMatch(
      /^unknown field \(did you mean 'temperature'\?\); allowed: temperature, top_p, top_k, max_output_tokens,/,
    );
    expect(byPath['generate_content_config.safety_settings[0].category']?.message).toMatch(
      /^expected one of HARM_CATEGORY_UNSPECIFIED, .*, got "HARM_CATEGORY_NOPE"$/,
    );
    expect(byPath['include_contents']?.file).toMatch(/sub\.yaml$/);
  });

  it("check says ADK would refuse an agent wrapped in agent: (agentctx's case-file form)", async () => {
    const dir = await folder({
      'wrapped.yaml': 'agent:\n  name: root\n  model: gemini-2.5-flash\n  instruction: Hi.\n  output_key: answer\n',
    });
    const result = await cli(['check', join(dir, 'wrapped.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '⚠ ADK would refuse this file: agent: ADK reads the agent at the top of its file; under agent: it is agentctx’s case-file form',
    );
  });

  it('names the output_schema and input_schema classes it cannot find', async () => {
    const dir = await folder({
      'agent.yaml':
        'name: root\nmodel: gemini-2.5-flash\noutput_schema: my_app.models.Answer\ninput_schema: my_app.models.Ask\n',
    });
    const result = await cli(['check', join(dir, 'agent.yaml')]);
    expectCliError(result, /output_schema: 'my_app\.models\.Answer' cannot be read: no module my_app\.models/);
    expect(result.stderr).toMatch(/input_schema: 'my_app\.models\.Ask' cannot be read: no module my_app\.models/);
  });

  it("ADK's get_user_choice is declared as ADK 2.5.0 declares it, and a run pauses on its call", async () => {
    const dir = await folder({
      'agent.yaml':
        'name: chooser\nmodel: gemini-2.5-flash\ninstruction: Offer choices.\ntools:\n  - name: get_user_choice\n',
    });
    const inspected = await cli(['inspect', join(dir, 'agent.yaml'), '--json']);
    expect(JSON.stringify((JSON.parse(inspected.stdout) as { tools: unknown[] }).tools)).toBe(
      JSON.stringify([
        {
          name: 'get_user_choice',
          description:
            'Provides the options to the user and asks them to choose one.\n\nNOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.',
          // pydantic 2.13.4's schema of `options: list[str]`, as ADK builds it.
          parameters: {
            properties: { options: { items: { type: 'string' }, title: 'Options', type: 'array' } },
            required: ['options'],
            title: 'get_user_choiceParams',
            type: 'object',
          },
        },
      ]),
    );
    // It returns nothing: the run pauses on its call until the person's choice arrives.
    const script = await folder({
      'script.yaml': '- functionCall: { name: get_user_choice, args: { options: [tea, coffee] } }\n',
    });
    const ran = await cli([
      'run',
      join(dir, 'agent.yaml'),
      '--model',
      `scripted:${join(script, 'script.yaml')}`,
      '--store',
      'memory',
      '--message',
      'hi',
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(
      /⏸ paused: get_user_choice \(call adk-[\w-]+\) waits for an answer; answer with: agentctx run /,
    );
  });
});
