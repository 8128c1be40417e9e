import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctxProcessWith, type CliResult, cli } from '../support/cli.js';
import { npxShim, samples } from './samples-support.js';

// Every one of ADK's Agent Config samples (test/fixtures/adk-samples) through `agentctx run --profile adk`, on a
// scripted model that plays each sample's part: its Python tools run through the bridge on this machine's python3
// (which has no google packages: the bridge's stand-ins serve their imports), its workflow agents take their turns,
// and the MCP samples list their tools from the recorded server. What ADK itself refuses, or what needs a later issue,
// stops in one line saying so.

type Expectation = {
  /** The scripted model's answers, in order. */
  script: string;
  code: number;
  /** What the run prints, in this order. */
  prints: RegExp[];
  /** A warning it gives on standard error. */
  warns?: RegExp;
};

const text = (answer: string) => `- text: ${answer}\n`;
const call = (name: string, args: string) => `- functionCall: { name: ${name}, args: ${args} }\n`;

const EXPECTED: Readonly<Record<string, Expectation>> = {
  A01: { script: text('ok'), code: 0, prints: [/\[assistant_agent\] ok/] },
  // roll_die writes the roll to state through tool_context; its Python callbacks are read, warned and not run.
  A02: {
    script: call('roll_die', '{ sides: 6 }') + text('rolled'),
    code: 0,
    prints: [/← roll_die: \{"result":[1-6]\}/, /state: rolls=\[[1-6]\]/, /\[hello_world_agent\] rolled/],
    warns:
      /^warning: Python tools run with agentctx's stand-ins for google\.adk and google\.genai\.types, which python3 does not have/m,
  },
  // A Python agent class: it loads, and its run fails in one line naming the TypeScript agent to write.
  A03: {
    script: text('unused'),
    code: 2,
    prints: [/Agent 'working_agent' is the Python class .*MyCustomAgent, which agentctx does not run/],
  },
  A04: { script: text('ok'), code: 0, prints: [/\[search_agent\] ok/] },
  A05: { script: text('ok'), code: 0, prints: [/\[root_agent\] ok/] },
  // The coordinator (with its ExampleTool) transfers; roll_agent's Python tool runs with the module's
  // google.adk.examples and google.genai imports served by stand-ins.
  A06: {
    script: call('transfer_to_agent', '{ agent_name: roll_agent }') + call('roll_die', '{ sides: 6 }') + text('rolled'),
    code: 0,
    prints: [/transfer to roll_agent/, /\[roll_agent\] ← roll_die: \{"result":[1-6]\}/, /\[roll_agent\] rolled/],
  },
  // The writer, then one round of the loop: the critic, then the refiner's exit_loop ends it.
  A07: {
    script: text('draft') + text('too short') + call('exit_loop', '{}'),
    code: 0,
    prints: [/\[InitialWriterAgent\] draft/, /\[CriticAgent\] too short/, /\[RefinerAgent\] ← exit_loop/, /escalate/],
  },
  A08: {
    script: text('code') + text('review') + text('refactored'),
    code: 0,
    prints: [/\[CodeWriterAgent\] code/, /\[CodeReviewerAgent\] review/, /\[CodeRefactorerAgent\] refactored/],
  },
  // The root hands the question to the sub-agent that a code: reference defines.
  A09: {
    script: call('transfer_to_agent', '{ agent_name: life_agent }') + text('live well'),
    code: 0,
    prints: [/transfer to life_agent/, /\[life_agent\] live well/],
  },
  A10: {
    script: call('web_search_agent', '{ request: news }') + text('found') + text('summed up'),
    code: 0,
    prints: [/← web_search_agent: \{"result":"found"\}/, /\[research_assistant_agent\] summed up/],
  },
  A11: { script: text('ok'), code: 0, prints: [/\[search_agent\] ok/] },
  A12: {
    script: call('check_prime', '{ nums: [2, 4, 7] }') + text('two primes'),
    code: 0,
    prints: [/← check_prime: \{"result":"2, 7 are prime numbers\."\}/, /two primes/],
  },
  // The long-running tool answers with its pending status; the client's answer comes later (test/hitl).
  A13: {
    script: call('ask_for_approval', '{ purpose: travel, amount: 500 }') + text('pending'),
    code: 0,
    prints: [/← ask_for_approval: \{"status":"pending","amount":500/, /\[reimbursement_agent\] pending/],
  },
  A14: { script: text('ok'), code: 0, prints: [/\[notion_agent\] ok/] },
  A15: { script: text('ok'), code: 0, prints: [/\[notion_agent\] ok/] },
  A16: { script: text('unused'), code: 2, prints: [/'GraphAgent' is not an agent class of ADK 2\.5\.0/] },
};

let dir = '';
let shim = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-adk-samples-run-'));
  shim = await npxShim(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("ADK's Agent Config samples, run on a scripted model", () => {
  it('has an expectation for every sample', () => {
    expect(Object.keys(EXPECTED)).toEqual(samples.map((sample) => sample.id));
  });

  for (const { id, root, note } of samples) {
    it(`${id} (${note})`, async () => {
      const expected = EXPECTED[id] as Expectation;
      const script = join(dir, `${id}.yaml`);
      await writeFile(script, expected.script);
      const args = ['run', root, '--model', `scripted:${script}`, '--store', 'memory', '--message', 'Hello'];
      const result: CliResult =
        id === 'A14' || id === 'A15'
          ? // The MCP server is a program the run starts: a process, with the recorded server as `npx`.
            await agentctxProcessWith(
              { PATH: `${shim}${delimiter}${process.env['PATH']}` },
              ...args,
              '--profile',
              'adk',
            )
          : await cli([...args, '--profile', 'adk']);
      const output = result.stdout + result.stderr;
      expect({ id, code: result.code }, output).toEqual({ id, code: expected.code });
      if (expected.warns !== undefined) expect(result.stderr).toMatch(expected.warns);
      let from = 0;
      for (const pattern of expected.prints) {
        const found = pattern.exec(output.slice(from));
        expect(found, `${id}: ${pattern} after ${JSON.stringify(output.slice(from, from + 300))}`).not.toBeNull();
        from += (found?.index ?? 0) + (found?.[0].length ?? 0);
      }
    });
  }
});
