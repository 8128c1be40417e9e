import { describe, expect, it } from 'vitest';
import { llmAgent, sequentialAgent } from '../../engine/agent/define-agent.js';
import { functionTool } from '../../engine/tools/function-tool.js';
import { createRunner } from '../../presets/create-runner.js';
import { parseScript } from './parse-script.js';
import { createScriptedModel } from './scripted-model.js';

async function runOnce(
  agents: Parameters<typeof createRunner>[0]['agents'],
  scriptYamlValue: unknown,
  message: string,
  state: Record<string, unknown> = {},
) {
  const model = createScriptedModel(parseScript(scriptYamlValue, 'script.yaml'));
  const runner = createRunner({ agents, model });
  const session = await runner.createSession({ userId: 'u', state });
  const events = [];
  for await (const event of runner.run({ userId: 'u', sessionId: session.id, message })) events.push(event);
  const texts = events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      'text' in part && event.author !== 'user' ? [`${event.author}: ${part.text}`] : [],
    ),
  );
  return { texts, events, model };
}

describe('scripted model rules', () => {
  it("matches the user's own last message, not another agent's turn retold as a user message", async () => {
    const writer = llmAgent({ name: 'writer', instruction: 'Write.' });
    const reviewer = llmAgent({ name: 'reviewer', instruction: 'Review.' });
    // The writer's answer mentions "poem"; the reviewer sees it retold ("For context: [writer] said: …").
    const { texts } = await runOnce(
      sequentialAgent({ name: 'pipeline', subAgents: [writer, reviewer] }),
      {
        rules: [
          { when: { agent: 'writer' }, respond: { text: 'Here is a poem about the sea.' } },
          { when: { agent: 'reviewer', lastUserText: 'poem' }, respond: { text: 'wrong: matched the retold turn' } },
          { when: { agent: 'reviewer', lastUserText: 'story' }, respond: { text: 'reviewed the story request' } },
        ],
      },
      'Write a story, please.',
    );
    expect(texts).toEqual(['writer: Here is a poem about the sea.', 'reviewer: reviewed the story request']);
  });

  it('matches on the agent’s own call number, tool results and state', async () => {
    const lookup = functionTool({
      name: 'lookup',
      description: 'Looks up.',
      jsonSchema: { type: 'object', properties: {} },
      execute: () => ({ found: 'the blue door' }),
    });
    const agent = llmAgent({ name: 'finder', instruction: 'Find.', tools: [lookup] });
    const { texts } = await runOnce(
      agent,
      {
        rules: [
          { when: { toolResultContains: 'blue door', state: { mood: 'terse' } }, respond: { text: 'Blue door.' } },
          { when: { toolResultContains: 'blue door' }, respond: { text: 'It is the blue door, I think.' } },
          { when: { agentCall: 1 }, respond: { functionCall: { name: 'lookup' } } },
        ],
      },
      'Which door?',
      { mood: 'terse' },
    );
    expect(texts).toEqual(['finder: Blue door.']);
  });

  it('refuses a script that would loop, naming the rule and the call', async () => {
    const lookup = functionTool({
      name: 'lookup',
      description: 'Looks up.',
      jsonSchema: { type: 'object', properties: {} },
      execute: () => ({ found: 'nothing' }),
    });
    const agent = llmAgent({ name: 'finder', instruction: 'Find.', tools: [lookup] });
    const { events, model } = await runOnce(
      agent,
      { rules: [{ when: { agent: 'finder' }, respond: { functionCall: { name: 'lookup', args: { q: 'x' } } } }] },
      'Go',
    );
    // The first call answers the user; the 20 after it each follow the tool's result.
    expect(model.requests.length).toBe(21);
    expect(events.at(-1)?.errorMessage).toMatch(
      /The script loops: rule 1 answered agent 'finder' with lookup\(\{"q":"x"\}\) 20 times in a row, each right after its result/,
    );
  });

  it('reads the new conditions from a file, and refuses mistyped ones with a suggestion', () => {
    expect(
      parseScript(
        { rules: [{ when: { agentCall: 2, toolResultContains: 'x', state: { a: 1 } }, respond: { text: 'y' } }] },
        's.yaml',
      ).rules?.[0]?.when,
    ).toEqual({ agentCall: 2, toolResultContains: 'x', state: { a: 1 } });
    expect(() => parseScript({ rules: [{ when: { agentcall: 2 }, respond: { text: 'y' } }] }, 's.yaml')).toThrow(
      /rules\[0\]\.when\.agentcall: unknown field \(did you mean 'agentCall'\?\)/,
    );
    expect(() => parseScript({ rules: [{ when: { state: 3 }, respond: { text: 'y' } }] }, 's.yaml')).toThrow(
      /rules\[0\]\.when\.state/,
    );
  });

  it('answers from what the request holds: requestContains sees history and tool results, requestLacks its absence', async () => {
    const lookup = functionTool({
      name: 'lookup',
      description: 'Looks up the code.',
      jsonSchema: { type: 'object', properties: {} },
      execute: () => ({ code: 'K-7' }),
    });
    const script = {
      rules: [
        { when: { requestContains: 'K-7', requestLacks: 'forbidden' }, respond: { text: 'The code is K-7.' } },
        { when: { requestLacks: 'K-7' }, respond: { functionCall: { name: 'lookup' } }, times: 1 },
      ],
      fallback: { text: 'I do not know the code.' },
    };
    const found = await runOnce(llmAgent({ name: 'a', instruction: 'Help.', tools: [lookup] }), script, 'Code?');
    expect(found.texts).toEqual(['a: The code is K-7.']);
    // The system text counts too: here it holds the word the first rule must not see.
    const refused = await runOnce(
      llmAgent({ name: 'a', instruction: 'Never say forbidden things.', tools: [lookup] }),
      script,
      'Code?',
    );
    expect(refused.texts).toEqual(['a: I do not know the code.']);
  });
});
