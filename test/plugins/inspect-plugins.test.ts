import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSystemBlock } from '../../src/engine/assembly/draft.js';
import { createRunner, GlobalInstructionPlugin, llmAgent, type Plugin } from '../../src/index.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { agentctx } from '../support/cli.js';

// Plugins as `agentctx inspect` shows them: a case file naming ADK's GlobalInstructionPlugin, and the recorded calls
// of a runner with a plugin of its own, each block attributed to the plugin that added it.

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-plugins-'));
  await writeFile(
    join(dir, 'case.yaml'),
    [
      'agent:',
      '  name: coordinator',
      '  instruction: Route the question.',
      '  sub_agents: [{ name: math_agent, description: Does arithmetic. }]',
      'plugins:',
      '  - globalInstruction: "Answer in {user:language}."',
      'state: { "user:language": French }',
      'events: [{ author: user, content: { role: user, parts: [{ text: "12 x 34?" }] } }]',
      '',
    ].join('\n'),
  );
  const store = createSqliteSessionStore({ path: join(dir, 'runs.db') });
  const audit: Plugin = {
    name: 'audit',
    processors: [
      {
        at: 'end',
        processor: {
          name: 'audit-note',
          process: (draft, context) =>
            withSystemBlock(draft, 'Requests are audited.', {
              kind: 'custom',
              processor: 'audit-note',
              agent: context.agent.name,
            }),
        },
      },
    ],
  };
  const runner = createRunner({
    agents: llmAgent({ name: 'helper', instruction: 'Help.' }),
    sessions: store,
    model: createScriptedModel([{ text: 'hi' }]),
    plugins: [new GlobalInstructionPlugin('Be kind.'), audit],
  });
  await runner.createSession({ userId: 'ann', sessionId: 's1' });
  for await (const _event of runner.run({ userId: 'ann', sessionId: 's1', message: 'hello' }));
  await store.close();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx inspect with plugins', () => {
  it('assembles a case file with GlobalInstructionPlugin first, state filled, attributed to the plugin', async () => {
    const result = await agentctx('inspect', join(dir, 'case.yaml'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /block 1 · global-instruction · coordinator\.globalInstruction · extension global_instruction \(GlobalInstructionPlugin 'global_instruction'\)\n│ Answer in French\./,
    );
    expect(result.stdout).toMatch(/↳ \{user:language\} → state 'user:language' \(user\) at 10–16/);
    expect(result.stdout).toMatch(/block 2 · instruction · coordinator\.instruction\n│ Route the question\./);
    const json = JSON.parse((await agentctx('inspect', join(dir, 'case.yaml'), '--json', '--provenance')).stdout) as {
      request: { system: string };
      trace: { processor: string; extension?: string }[];
    };
    expect(json.request.system.startsWith('Answer in French.\n\nRoute the question.\n\nYou are an agent.')).toBe(true);
    expect(json.trace.at(-1)).toEqual({
      processor: 'global_instruction',
      extension: 'global_instruction',
      systemBlocks: 1,
      tools: 0,
      messages: 0,
    });
  });

  it('shows a recorded call with each plugin’s block attributed to it', async () => {
    const result = await agentctx(
      'inspect',
      '--store',
      join(dir, 'runs.db'),
      '--app',
      'helper',
      '--user',
      'ann',
      '--session',
      's1',
      '--call',
      '1',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /block 1 · global-instruction · helper\.globalInstruction · extension global_instruction[^\n]*\n│ Be kind\./,
    );
    expect(result.stdout).toMatch(/block 4 · custom · helper · extension audit\n│ Requests are audited\./);
  });
});
