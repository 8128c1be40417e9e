import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx, agentctxWith, expectOneLineError } from '../support/cli.js';

let dir = '';

// What ADK Python builds for seed 000's coordinator, written out from the spec's templates (§3, §5, §6.3).
const ADK_COORDINATOR_SYSTEM = [
  'ユーザの質問内容を分析し、最適なエージェントに転送してください。',
  'You are an agent. Your internal name is "coordinator". The description about you is "ユーザのリクエストを適切なエージェントに振り分けるコーディネータ".',
  `
You have a list of other agents to transfer to:


Agent name: math_agent
Agent description: 数学的な計算を行うエージェント


If you are the best to answer the question according to your description,
you can answer it.

If another agent is better for answering the question according to its
description, call \`transfer_to_agent\` function to transfer the question to that
agent. When transferring, do not generate any text other than the function
call.

**NOTE**: the only available agents for \`transfer_to_agent\` function are
\`math_agent\`.
`,
].join('\n\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-inspect-'));
  const write = (name: string, text: string) => writeFile(join(dir, name), text);
  await write('bad.yaml', 'agent:\n  name: a\n  instruction: [unclosed\n');
  await write('missing-key.yaml', 'agent:\n  name: reviewer\n  instruction: "Review {draft_text}."\n');
  await write('duplicate.yaml', 'agent:\n  name: root\n  subAgents:\n    - name: twin\n    - name: twin\n');
  await write('unknown-agent.yaml', 'agent:\n  name: root\ncurrentAgent: nobody\n');
  await write('agent-file.yaml', 'name: solo\ninstruction: From a file.\n');
  await write('by-path.yaml', 'agent: agent-file.yaml\nstate: {}\n');
  await write(
    'bad-event.yaml',
    'agent:\n  name: a\nevents:\n  - author: user\n    content: {role: assistant, parts: [{text: hi}]}\n',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx inspect', () => {
  it("prints, for seed 000's coordinator, exactly the system text ADK builds", async () => {
    const result = await agentctx('inspect', 'examples/coordinator.yaml', '--json');
    expect(result.code).toBe(0);
    const request = JSON.parse(result.stdout) as {
      system: string;
      tools: { name: string }[];
      messages: unknown[];
      config: unknown;
    };
    expect(request.system).toBe(ADK_COORDINATOR_SYSTEM);
    expect(Object.keys(request)).toEqual(['system', 'tools', 'messages', 'config']);
    expect(request.tools.map((tool) => tool.name)).toEqual(['transfer_to_agent']);
    expect(request.config).toEqual({ model: 'gemini-2.5-flash' });
  });

  it('prints each section with its source', async () => {
    const result = await agentctx('inspect', 'examples/coordinator.yaml');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/SYSTEM · 3 blocks/);
    expect(result.stdout).toMatch(/block 1 · instruction · coordinator\.instruction/);
    expect(result.stdout).toMatch(/block 2 · identity · coordinator\.name, description/);
    expect(result.stdout).toMatch(/block 3 · transfer · coordinator \(targets math_agent, with their descriptions\)/);
    expect(result.stdout).toMatch(/messages\[0\] user\n.*content\[0\] · history · user · event e1/);
  });

  it('prints the request with its provenance and trace on request', async () => {
    const result = await agentctx('inspect', 'examples/coordinator.yaml', '--json', '--provenance');
    const output = JSON.parse(result.stdout) as { provenance: { system: unknown[] }; trace: { processor: string }[] };
    expect(output.provenance.system).toHaveLength(3);
    expect(output.trace.map((step) => step.processor)).toEqual([
      'instructions',
      'identity',
      'skills-listing',
      'contents',
      'context-blocks',
      'output-schema',
      'agent-transfer',
      'tools',
      'finalize',
    ]);
  });

  it('finds every place a text occurs, with its path and source', async () => {
    const result = await agentctx('inspect', 'examples/coordinator.yaml', '--find', 'math_agent');
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .split('\n')
        .slice(0, 3)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['system', 'system', 'tools[0].parameters']);
    expect(result.stdout).toMatch(/3 occurrences of "math_agent"/);
    const missing = await agentctx('inspect', 'examples/coordinator.yaml', '--find', 'nowhere to be seen');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/not found/);
  });

  it('asks another agent with --agent, and reads the agent from a file the case names', async () => {
    const math = await agentctx('inspect', 'examples/coordinator.yaml', '--agent', 'math_agent', '--json');
    expect((JSON.parse(math.stdout) as { system: string }).system).toMatch(
      /transfer to your parent agent coordinator\.\n$/,
    );
    const byPath = await agentctx('inspect', join(dir, 'by-path.yaml'), '--json');
    expect((JSON.parse(byPath.stdout) as { system: string }).system).toBe(
      'From a file.\n\nYou are an agent. Your internal name is "solo".',
    );
  });

  it('builds byte-identical JSON in separate processes', async () => {
    const first = await agentctxWith(
      { TZ: 'UTC', LANG: 'C' },
      'inspect',
      'examples/coordinator.yaml',
      '--json',
      '--provenance',
    );
    const second = await agentctxWith(
      { TZ: 'Asia/Tokyo', LANG: 'ja_JP.UTF-8' },
      'inspect',
      'examples/coordinator.yaml',
      '--json',
      '--provenance',
    );
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it('reports bad input in one line and exits 2', async () => {
    expectOneLineError(
      await agentctx('inspect', join(dir, 'bad.yaml')),
      2,
      /^error: Invalid .*bad\.yaml: line \d+, column \d+/,
    );
    expectOneLineError(
      await agentctx('inspect', join(dir, 'missing-key.yaml')),
      2,
      /^error: Processor 'instructions' failed for agent 'reviewer': Context variable not found: `draft_text`\. Set state key 'draft_text'/,
    );
    expectOneLineError(
      await agentctx('inspect', join(dir, 'duplicate.yaml')),
      2,
      /agent\.twin: the name is used twice/,
    );
    expectOneLineError(
      await agentctx('inspect', join(dir, 'unknown-agent.yaml')),
      2,
      /currentAgent: no agent named 'nobody'; the agents are root/,
    );
    expectOneLineError(
      await agentctx('inspect', 'examples/coordinator.yaml', '--agent', 'nobody'),
      2,
      /No agent named 'nobody' in the tree\. The agents are: coordinator, math_agent\./,
    );
    expectOneLineError(
      await agentctx('inspect', join(dir, 'bad-event.yaml')),
      2,
      /events\[0\]\.content\.role: expected 'user' or 'model'/,
    );
    expectOneLineError(await agentctx('inspect', 'nope.yaml'), 2, /Cannot read nope\.yaml/);
  });
});
