import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx, expectOneLineError } from '../support/cli.js';

// One agent-file format, the one `run` takes, accepted by every command that takes a definition; a case file is an
// envelope around it (`agent:` inline or a path), and a command given one where it expects the other uses it.

let dir = '';
let script = '';
const AGENT = 'examples/docs-check/agent.yaml';
const CASE = 'examples/docs-check/loaded-memory-on.yaml';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-format-'));
  script = join(dir, 'script.yaml');
  await writeFile(script, 'rules:\n  - respond: { text: fine }\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one agent-file format', () => {
  it('inspect, diff, check and compact take an agent file as the case of that agent in an empty session', async () => {
    const inspected = await agentctx('inspect', AGENT, '--json');
    expect(inspected.code).toBe(0);
    expect((JSON.parse(inspected.stdout) as { system: string }).system).toContain('You are a documentation assistant');
    // The agent file and a case of it with no state and no events give the same request, byte for byte.
    await writeFile(join(dir, 'bare-case.yaml'), `agent: ${join(process.cwd(), AGENT)}\n`);
    const diff = await agentctx('diff', AGENT, join(dir, 'bare-case.yaml'));
    expect(diff.stdout).toContain('the requests are identical');
    expect(diff.code).toBe(0);
    const checked = await agentctx('check', 'examples/coordinator.yaml', '--json');
    expect(checked.code).toBe(0);
    expect(
      (JSON.parse(checked.stdout) as { templates: { name: string }[] }).templates.map((template) => template.name),
    ).toEqual(['coordinator.instruction', 'math_agent.instruction']);
    const compacted = await agentctx('compact', AGENT, '--dry-run', '--interval', '2', '--overlap', '0', '--json');
    expect(compacted.code).toBe(0);
  });

  it('run and check take a case file: run uses its agent, check its agent with its state', async () => {
    const ran = await agentctx('run', CASE, '--model', `scripted:${script}`, '--store', 'memory', '--message', 'hi');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('[docs_assistant] fine');
    await writeFile(
      join(dir, 'greeting-case.yaml'),
      'agent:\n  name: greeter\n  instruction: "Greet {user:name}."\nstate:\n  "user:name": Ann\n',
    );
    const checked = await agentctx('check', join(dir, 'greeting-case.yaml'));
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('│ Greet Ann.');
  });

  it('check lints an agent file: each warning names the agent, the field, the text and the fix', async () => {
    await writeFile(
      join(dir, 'lint.yaml'),
      'name: desk\ninstruction: "You are desk. Send maths to math_agent and searches to web_agent."\nsubAgents:\n  - { name: math_agent, description: Does arithmetic. }\n  - { name: web_agent }\n',
    );
    const human = await agentctx('check', join(dir, 'lint.yaml'));
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('context lint: 4 warnings');
    expect(human.stdout).toContain('⚠ desk.instruction "You are desk." [self-introduction]');
    expect(human.stdout).toMatch(/fix: Keep only when to hand over/);
    const json = JSON.parse((await agentctx('check', join(dir, 'lint.yaml'), '--json')).stdout) as {
      warnings: { rule: string; agent: string; field: string; text: string; fix: string }[];
    };
    expect(json.warnings.map((warning) => [warning.rule, warning.agent, warning.field, warning.text])).toEqual([
      ['description-missing', 'desk', 'description', ''],
      ['self-introduction', 'desk', 'instruction', 'You are desk.'],
      ['transfer-list', 'desk', 'instruction', 'math_agent, web_agent'],
      ['description-missing', 'web_agent', 'description', ''],
    ]);
    expect((await agentctx('check', 'examples/draft-and-review/pipeline.yaml')).stdout).toContain('✓ context lint');
  });

  it('names mistakes inside the agent of a case by their plain path', async () => {
    await writeFile(join(dir, 'bad-case.yaml'), 'agent:\n  name: a\n  tools: [ghost]\n');
    expectOneLineError(
      await agentctx('inspect', join(dir, 'bad-case.yaml')),
      2,
      /agent\.tools\[0\]: tool 'ghost' has no implementation here/,
    );
    await writeFile(join(dir, 'bad-agent.yaml'), 'name: a\ntools: [ghost]\n');
    expectOneLineError(
      await agentctx('inspect', join(dir, 'bad-agent.yaml')),
      2,
      /bad-agent\.yaml: tools\[0\]: tool 'ghost' has no implementation here/,
    );
  });
});
