import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { agentctxProcessWith, cli } from '../support/cli.js';
import { FIXTURES, npxShim, samples } from './samples-support.js';

// google/adk-python's own Agent Config samples (test/fixtures/adk-samples, with their licence note), against the
// requests ADK Python 2.5.0 itself built from them (expected-2.5.0/<id>/adk.json): for every LLM agent of a sample,
// `agentctx inspect --json` under the `adk` profile, with the sample's state and the user message "Hello", must give
// ADK's system instruction, function declarations, built-in tools, messages and generate-content config.
// The MCP samples (A14, A15) are compared against a server answering with the listing ADK saw.

type AdkDeclaration = { name: string; description?: string; parameters?: unknown; parameters_json_schema?: unknown };
type AdkRequest = {
  model: string;
  system: string;
  tools: AdkDeclaration[];
  builtin_tools: unknown[];
  messages: { role: string; parts: unknown[] }[];
  config: Record<string, unknown>;
  error?: string;
};
type Expected = { adk_version: string; requests?: Record<string, AdkRequest>; load_error?: string };
type AgentctxRequest = {
  system: string;
  tools: { name: string; description: string; parameters?: unknown }[];
  builtInTools?: { provider: string; type: string; settings?: Record<string, unknown> }[];
  messages: { role: string; content: unknown[] }[];
  config: Record<string, unknown>;
};

let dir = '';
let shim = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-adk-samples-'));
  shim = await npxShim(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectedOf(id: string): Promise<{ expected: Expected; state: Record<string, unknown> | undefined }> {
  const read = async (name: string) =>
    readFile(join(FIXTURES, 'expected-2.5.0', id, name), 'utf8').catch(() => undefined);
  const state = await read('state.json');
  return {
    expected: JSON.parse((await read('adk.json')) ?? '{}') as Expected,
    state: state === undefined ? undefined : (JSON.parse(state) as Record<string, unknown>),
  };
}

/** `agentctx inspect --json` of one agent of a sample, through a case file as a user writes one. */
async function inspect(
  id: string,
  root: string,
  agent: string | undefined,
  state: Record<string, unknown> | undefined,
  env?: Record<string, string>,
) {
  const file = join(dir, `${id}-${agent ?? 'root'}.yaml`);
  await writeFile(
    file,
    stringify({
      agent: root,
      // The acceptance's form: the adk profile, imitating the Python 3.11 ADK's reference requests ran on.
      profile: { name: 'adk', python: '3.11' },
      ...(agent === undefined ? {} : { currentAgent: agent }),
      ...(state === undefined ? {} : { state }),
      events: [{ author: 'user', content: { role: 'user', parts: [{ text: 'Hello' }] } }],
    }),
  );
  // An MCP sample's server is a program the CLI starts: run as a process, with `npx` on its PATH.
  return env === undefined
    ? cli(['inspect', file, '--json'])
    : agentctxProcessWith(env, 'inspect', file, '--json', '--start-mcp');
}

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * agentctx's request in the shape of ADK's dump: a declaration's schema is the JSON Schema ADK sends either way; a
 * built-in tool is `{ <its snake_case name>: settings }`, and config keys are snake_case, as the genai types dump them.
 */
function asAdk(request: AgentctxRequest) {
  const { model: _model, ...config } = request.config;
  return {
    system: request.system,
    tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, schema: tool.parameters })),
    builtin_tools: (request.builtInTools ?? []).map((tool) => ({ [snake(tool.type)]: tool.settings ?? {} })),
    messages: request.messages.map((message) => ({ role: message.role, parts: message.content })),
    config: Object.fromEntries(Object.entries(config).map(([key, value]) => [snake(key), value])),
  };
}

function expectedShape(request: AdkRequest) {
  return {
    system: request.system,
    tools: request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      schema: tool.parameters_json_schema ?? tool.parameters,
    })),
    builtin_tools: request.builtin_tools,
    messages: request.messages,
    config: request.config,
  };
}

describe("ADK's Agent Config samples, against ADK Python 2.5.0's own requests", () => {
  it('has every sample of the list, each with what ADK built', async () => {
    expect(samples.map((sample) => sample.id)).toEqual(
      Array.from({ length: 16 }, (_, index) => `A${String(index + 1).padStart(2, '0')}`),
    );
    for (const { id } of samples) expect((await expectedOf(id)).expected.adk_version, id).toBe('2.5.0');
  });

  for (const { id, root, note } of samples) {
    // The MCP samples start a server with `npx -y` (a download): inspect refuses to start it unless asked, and they are
    // compared once a recorded tools/list can stand in for the server (issue 47).
    if (id === 'A14' || id === 'A15') {
      it(`${id} (${note}): refused in one line naming --start-mcp, before anything starts`, async () => {
        const refused = await inspect(id, root, undefined, (await expectedOf(id)).state);
        expect(refused.code).toBe(2);
        expect(refused.stderr.trim().split('\n')).toEqual([
          expect.stringMatching(/would start the MCP server 'mcp_0' \(npx -y .*Add --start-mcp/),
        ]);
      });
      it(`${id} (${note}): with --start-mcp, the server's recorded tools/list, as ADK 2.5.0 sends it`, async () => {
        const { state } = await expectedOf(id);
        const expected = JSON.parse(
          await readFile(join(FIXTURES, 'expected-2.5.0', id, 'adk-with-mcp.json'), 'utf8'),
        ) as Expected;
        for (const [agent, adk] of Object.entries(expected.requests ?? {})) {
          // `npx` on the PATH is the recorded server (test/fixtures/adk-samples/mcp): the sample runs as it is,
          // without a download.
          const result = await inspect(id, root, agent, state, { PATH: `${shim}${delimiter}${process.env['PATH']}` });
          expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
          const got = asAdk(JSON.parse(result.stdout) as AgentctxRequest);
          expect(got, `${id} ${agent}`).toEqual(expectedShape(adk));
          expect(JSON.stringify(got.tools), `${id} ${agent}`).toBe(JSON.stringify(expectedShape(adk).tools));
        }
      });
      continue;
    }
    it(`${id} (${note})`, async () => {
      const { expected, state } = await expectedOf(id);
      if (expected.requests === undefined) {
        // ADK itself refused the file (A16's GraphAgent): agentctx refuses it too, in one line saying why.
        const refused = await inspect(id, root, undefined, state);
        expect(refused.code).toBe(2);
        expect(refused.stderr.trim().split('\n')).toEqual([
          expect.stringContaining("'GraphAgent' is not an agent class of ADK 2.5.0, which refuses the file too"),
        ]);
        return;
      }
      const agents = Object.keys(expected.requests);
      if (agents.length === 0) {
        // No agent of the sample calls a model (A03's custom Python class): it loads, and has no request to compare.
        const result = await inspect(id, root, undefined, state);
        expect(result.stderr).toMatch(/is a custom agent, which calls no model/);
        return;
      }
      for (const agent of agents) {
        const adk = expected.requests[agent] as AdkRequest;
        const result = await inspect(id, root, agent, state);
        // Warnings only (A02's Python callbacks, which agentctx reads but does not run), one line each.
        const errors = result.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('warning: '));
        expect({ agent, code: result.code, errors }).toEqual({ agent, code: 0, errors: [] });
        const got = asAdk(JSON.parse(result.stdout) as AgentctxRequest);
        expect(got, `${id} ${agent}`).toEqual(expectedShape(adk));
        // Byte for byte: the schemas' keys in ADK's order too (what reaches the wire).
        expect(JSON.stringify(got.tools), `${id} ${agent}`).toBe(JSON.stringify(expectedShape(adk).tools));
      }
    });
  }
});
