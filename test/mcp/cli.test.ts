import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { agentctx, agentctxWith, cli, expectCliError, expectOneLineError } from '../support/cli.js';
import { EVERYTHING_JS } from './helpers.js';

const RAW_SERVER_JS = fileURLToPath(new URL('./fixtures/raw-server.mjs', import.meta.url));

// MCP servers declared in an agent file, through the built CLI as a user runs it: the run calls a server's tool, the
// process ends when the command does (the server with it), and `inspect` names each definition's server.

const folder = await mkdtemp(join(tmpdir(), 'agentctx-mcp-cli-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

const agentFile = (extra: string) => `name: helper
instruction: Use the tools.
mcp:
  - name: everything
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(EVERYTHING_JS)}, stdio]
    tool_filter: [get-sum, echo]
${extra}`;

describe('MCP servers in an agent file', () => {
  it('runs a turn that calls a server tool, then inspect shows each definition with its server and the tokens by source', async () => {
    const agent = join(folder, 'agent.yaml');
    const script = join(folder, 'script.yaml');
    const store = join(folder, 'run.db');
    await writeFile(agent, agentFile('toolBudget: 20\n'));
    await writeFile(script, '- functionCall: { name: get-sum, args: { a: 2, b: 3 } }\n- text: It is 5.\n');
    const run = await agentctx(
      'run',
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--session',
      's1',
      '--message',
      'What is 2 + 3?',
    );
    // The budget warning of its two model calls, said once.
    expect(run.stderr).toMatch(
      /^session s1 \(app helper, user user\)\nwarning: tool definitions take \d+ tokens, over this agent's budget of 20: MCP everything \d+ \(2 tools\)\. Defer the largest [^\n]*\n$/,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[helper] It is 5.');

    const inspect = await agentctx('inspect', agent, '--store', store, '--session', 's1', '--call', '1', '--tokens');
    expect(inspect.code).toBe(0);
    // Declared order (the filter's), each with its server and its name there; the sum by source; the budget warning.
    expect(inspect.stdout).toMatch(
      /tools\[0\] get-sum · tool · helper\.toolsets\[0\]\.tools\[0\] · MCP server everything, tool get-sum/,
    );
    expect(inspect.stdout).toMatch(
      /tools\[1\] echo · tool · helper\.toolsets\[0\]\.tools\[1\] · MCP server everything, tool echo/,
    );
    expect(inspect.stdout).toMatch(/by source: MCP everything \d+ \(2\)/);
    const json = await agentctx(
      'inspect',
      agent,
      '--store',
      store,
      '--session',
      's1',
      '--call',
      '2',
      '--json',
      '--provenance',
    );
    const call = JSON.parse(json.stdout) as {
      request: { messages: { content: { functionResponse?: { response: unknown } }[] }[] };
      provenance: { tools: { tool?: unknown }[] };
    };
    expect(call.provenance.tools.map((source) => source.tool)).toEqual([
      { kind: 'mcp', toolset: 'everything', server: 'everything', name: 'get-sum' },
      { kind: 'mcp', toolset: 'everything', server: 'everything', name: 'echo' },
    ]);
    const responses = call.request.messages.flatMap((message) =>
      message.content.flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse.response])),
    );
    expect(responses).toEqual([{ result: 'The sum of 2 and 3 is 5.' }]);

    // The agent's next request, assembled by inspect, which starts the server when asked to: over its budget of 20
    // tokens, said so. Without --start-mcp it is refused in one line naming the flag.
    const refused = await agentctx('inspect', agent);
    expectCliError(
      refused,
      /would start the MCP server 'everything' \(.*\); it is started only when you ask\. Add --start-mcp/,
    );
    const planned = await agentctx('inspect', agent, '--start-mcp');
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(
      /warning: tool definitions take \d+ tokens, over this agent's budget of 20: MCP everything \d+ \(2 tools\)\./,
    );
  }, 120_000);

  it('inspect asks at a terminal before starting a server (once), starts it on yes, refuses on no; ADK_ALLOW_CONFIG_STDIO_MCP_SERVERS=1 consents', async () => {
    const agent = join(folder, 'asked.yaml');
    await writeFile(agent, agentFile(''));
    const questions: string[] = [];
    const asking = (answer: boolean) => (question: string) => {
      questions.push(question);
      return answer;
    };
    const yes = await cli(['inspect', agent, '--json'], { ask: asking(true) });
    expect({ code: yes.code, stderr: yes.stderr }).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(yes.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual([
      'get-sum',
      'echo',
    ]);
    expect(questions).toEqual([
      expect.stringMatching(/^Start the MCP server 'everything' \(.*\) to list its tools\? \[y\/N\] $/),
    ]);
    const no = await cli(['inspect', agent], { ask: asking(false) });
    expectCliError(no, /would start the MCP server 'everything' .*Add --start-mcp/);
    expect(questions).toHaveLength(2);
    const allowed = await agentctxWith({ ADK_ALLOW_CONFIG_STDIO_MCP_SERVERS: '1' }, 'inspect', agent, '--json');
    expect({ code: allowed.code, stderr: allowed.stderr }).toEqual({ code: 0, stderr: '' });
  }, 120_000);

  it('says, in run (text and --json), the recorded call and inspect, which tools a server listed that were left out', async () => {
    const agent = join(folder, 'bad-schemas.yaml');
    const script = join(folder, 'ok-script.yaml');
    const store = join(folder, 'bad-schemas.db');
    await writeFile(
      agent,
      `name: raw_user\ninstruction: Use the tools.\nmcp:\n  - name: raw\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(RAW_SERVER_JS)}, --bad-schemas]\n`,
    );
    await writeFile(script, '- functionCall: { name: ok, args: {} }\n- text: Done.\n');
    const left = "toolset 'raw': tool 'bad_ref' is left out: its input schema is invalid";
    const run = await agentctx(
      'run',
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--session',
      's1',
      '--message',
      'Go.',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[raw_user] Done.');
    expect(run.stderr).toContain(`warning: ${left}`);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toHaveLength(3);
    const json = await agentctx(
      'run',
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--session',
      's2',
      '--message',
      'Go.',
      '--json',
    );
    const warnings = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { warning?: string })
      .flatMap((line) => (line.warning === undefined ? [] : [line.warning]));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain(left);
    const inspect = await agentctx('inspect', agent, '--store', store, '--session', 's1', '--call', '1');
    expect(inspect.stdout).toContain(`warning: ${left}`);
    const recorded = JSON.parse(
      (await agentctx('inspect', agent, '--store', store, '--session', 's1', '--call', '1', '--json', '--provenance'))
        .stdout,
    ) as { warnings: string[] };
    expect(recorded.warnings).toHaveLength(3);
  }, 120_000);

  it('reads ADK\u2019s McpToolset config in tools (stdio_connection_params, tool_filter, tool_name_prefix) into the same toolset', async () => {
    const agent = join(folder, 'adk.yaml');
    const script = join(folder, 'adk-script.yaml');
    const store = join(folder, 'adk.db');
    await writeFile(
      agent,
      `name: helper
instruction: Use the tools.
tools:
  - name: McpToolset
    args:
      stdio_connection_params:
        server_params:
          command: ${JSON.stringify(process.execPath)}
          args: [${JSON.stringify(EVERYTHING_JS)}, stdio]
        timeout: 30
      tool_filter: [echo]
      tool_name_prefix: ev
`,
    );
    await writeFile(script, '- functionCall: { name: ev_echo, args: { message: hi } }\n- text: Done.\n');
    const run = await agentctx(
      'run',
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--session',
      's1',
      '--message',
      'Echo hi.',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[helper] Done.');
    const json = await agentctx(
      'inspect',
      agent,
      '--store',
      store,
      '--session',
      's1',
      '--call',
      '2',
      '--json',
      '--provenance',
    );
    const call = JSON.parse(json.stdout) as {
      request: { tools: { name: string }[]; messages: { content: { functionResponse?: { response: unknown } }[] }[] };
      provenance: { tools: { tool?: unknown }[] };
    };
    expect(call.request.tools.map((tool) => tool.name)).toEqual(['ev_echo']);
    expect(call.provenance.tools.map((source) => source.tool)).toEqual([
      { kind: 'mcp', toolset: 'ev', server: 'ev', name: 'echo' },
    ]);
    const responses = call.request.messages.flatMap((message) =>
      message.content.flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse.response])),
    );
    expect(responses).toEqual([{ result: 'Echo: hi' }]);
  }, 120_000);

  it('refuses what agentctx does not do in ADK\u2019s McpToolset config, saying what to use instead', async () => {
    const agent = join(folder, 'adk-bad.yaml');
    await writeFile(
      agent,
      'name: helper\ntools:\n  - name: McpToolset\n    args:\n      sse_connection_params: { url: "http://127.0.0.1:1/sse" }\n      auth_scheme: { type: oauth2 }\n',
    );
    expectOneLineError(
      await agentctx('check', agent),
      2,
      /tools\[0\]\.args\.auth_scheme: is not supported by agentctx: put the credentials in streamable_http_connection_params\.headers.*tools\[0\]\.args\.sse_connection_params: SSE is deprecated in MCP and not supported/,
    );
    await writeFile(agent, 'name: helper\ntools:\n  - name: McpToolset\n    args:\n      tool_filter: [a]\n');
    expectOneLineError(
      await agentctx('check', agent),
      2,
      /tools\[0\]\.args: needs exactly one of stdio_server_params, stdio_connection_params, sse_connection_params, streamable_http_connection_params/,
    );
  }, 60_000);

  it('refuses a bad mcp entry in one line, naming the field, before anything starts', async () => {
    const agent = join(folder, 'bad.yaml');
    await writeFile(agent, 'name: helper\nmcp:\n  - name: files\n    url: ftp://nowhere\n    tools: read\n');
    const result = await agentctx('check', agent);
    expectOneLineError(
      result,
      2,
      /mcp\[0\]\.url: expected an http:\/\/ or https:\/\/ URL, got "ftp:\/\/nowhere".*mcp\[0\]\.tools: expected a list of tool names/,
    );
  }, 60_000);
});
