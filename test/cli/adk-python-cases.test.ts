import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx } from '../support/cli.js';

// ADK Python 2.0.0 unit tests, written as agentctx cases and run through the CLI as a user would.

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-adk-cases-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function caseFile(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function json(...args: string[]): Promise<unknown> {
  const result = await agentctx(...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe('ADK Python unit tests as cases', () => {
  it('test_llm_request.py::test_append_instructions_content_empty_text_parts — empty static parts leave no blank line', async () => {
    const file = await caseFile('static.json', '{"agent":{"name":"a","static_instruction":["x","","y"]}}');
    const request = (await json('inspect', file, '--json')) as { system: string };
    expect(request.system).toBe('x\n\ny\n\nYou are an agent. Your internal name is "a".');
  });

  const PAIR = `
events:
  - { author: user, content: { role: user, parts: [{ text: hi }] } }
  - { author: a, content: { role: model, parts: [{ functionCall: { id: adk-1, name: lookup, args: {} } }] } }
  - { author: a, content: { role: user, parts: [{ functionResponse: { id: adk-1, name: lookup, response: { ok: true } } }] } }
`;
  type Messages = {
    messages: { content: ({ functionCall?: { id?: string } } & { functionResponse?: { id?: string } })[] }[];
  };
  const ids = (request: Messages) =>
    request.messages
      .flatMap((message) => message.content.map((part) => part.functionCall?.id ?? part.functionResponse?.id))
      .filter((id) => id !== undefined);

  it('test_contents.py::test_adk_function_call_ids_preserved_for_anthropic_model — inspect keeps adk- ids for a Claude model', async () => {
    for (const profile of ['agentctx', 'adk']) {
      const file = await caseFile(
        `claude-${profile}.yaml`,
        `agent: { name: a, model: claude-sonnet-4-20250514, instruction: Help. }\nprofile: ${profile}\n${PAIR}`,
      );
      expect(ids((await json('inspect', file, '--json')) as Messages)).toEqual(['adk-1', 'adk-1']);
      const human = await agentctx('inspect', file);
      expect(human.stdout).toContain('call lookup({}) id=adk-1');
    }
  });

  it('strips generated ids for Gemini (pairs by order) and keeps them for a model of the parent agent', async () => {
    const gemini = await caseFile(
      'gemini.yaml',
      `agent: { name: a, model: gemini-2.5-flash, instruction: Help. }\n${PAIR}`,
    );
    expect(ids((await json('inspect', gemini, '--json')) as Messages)).toEqual([]);
    const inherited = await caseFile(
      'inherited.yaml',
      `agent: { name: root, model: anthropic:claude-opus-4, instruction: Route., sub_agents: [{ name: a, instruction: Help. }] }\ncurrentAgent: a\n${PAIR}`,
    );
    expect(ids((await json('inspect', inherited, '--json')) as Messages)).toEqual(['adk-1', 'adk-1']);
  });

  it('compaction: a token-threshold plan that summarizes a call whose response stays raw prints the plan and what ADK would then fail on', async () => {
    const file = await caseFile(
      'split.yaml',
      `agent: { name: a, instruction: Help. }
adkCompatibility: true
eventsCompactionConfig: { compaction_interval: 999, overlap_size: 0, token_threshold: 50, event_retention_size: 0 }
events:
  - { author: user, content: { role: user, parts: [{ text: e1 }] } }
  - { author: a, content: { role: model, parts: [{ functionCall: { id: call-a, name: f, args: {} } }] } }
  - { author: a, content: { role: model, parts: [{ functionCall: { id: call-b, name: f, args: {} } }] } }
  - { author: a, content: { role: user, parts: [{ functionResponse: { id: call-a, name: f, response: { ok: 1 } } }] }, usageMetadata: { promptTokenCount: 100 } }
`,
    );
    const output = (await json('compact', file, '--dry-run', '--json')) as {
      compactions: {
        eventIds: string[];
        trigger: string;
        promptTokens: number;
        tokensAfter?: number;
        requestAfter?: { error: string };
      }[];
    };
    expect(output.compactions).toHaveLength(1);
    const [plan] = output.compactions;
    expect(plan).toMatchObject({ eventIds: ['e1', 'e2'], trigger: 'token_threshold', promptTokens: 100 });
    expect(plan?.tokensAfter).toBeUndefined();
    expect(plan?.requestAfter?.error).toMatch(/No function call event found for function responses ids: \{'call-a'\}/);
    const human = await agentctx('compact', file, '--dry-run');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('summarizes 2 events');
    expect(human.stdout).toContain('after this compaction no request can be built');
  });
});
