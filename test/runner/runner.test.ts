import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, describeEvents, runnerWithSession } from './helpers.js';

const add = functionTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
});

const setup = runnerWithSession;

describe('runner', () => {
  it('answers a message: stores the user event and the answer, and records the exact request', async () => {
    const model = createScriptedModel([{ text: 'Hello Ada.', usage: { promptTokens: 12, outputTokens: 3 } }]);
    const sessions = createInMemorySessionStore();
    const runner = await setup({ agents: llmAgent({ name: 'greeter', instruction: 'Greet.' }), model, sessions });
    const events = await collect(runner, { message: 'Hi' });
    expect(describeEvents(events)).toEqual(['user: Hi', 'greeter: Hello Ada.']);
    const session = await sessions.getSession({ appName: 'greeter', userId: 'u1', sessionId: 's1' });
    expect(session?.events.map((event) => event.id)).toEqual(events.map((event) => event.id));
    const calls = await sessions.listModelCalls({ appName: 'greeter', userId: 'u1', sessionId: 's1' });
    expect(calls).toHaveLength(1);
    const call = await sessions.getModelCall({ appName: 'greeter', userId: 'u1', sessionId: 's1', index: 1 });
    expect(call?.request).toEqual(model.requests[0]);
    expect(call).toMatchObject({
      agent: 'greeter',
      responseEventId: events[1]?.id,
      usage: { promptTokens: 12, outputTokens: 3 },
      editedByCallback: false,
    });
    expect(call?.provenance.system[0]?.source.kind).toBe('instruction');
  });

  it('runs tools, validates their arguments, and lets the model recover from errors', async () => {
    const broken = functionTool({
      name: 'broken',
      description: 'Always fails.',
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const model = createScriptedModel([
      { functionCall: { name: 'add', args: { a: 'two', b: 3 } } },
      { functionCall: { name: 'broken', args: {} } },
      { functionCall: { name: 'nope', args: {} } },
      { functionCall: { name: 'add', args: { a: 2, b: 3 } } },
      { text: 'The sum is 5.' },
    ]);
    const runner = await setup({ agents: llmAgent({ name: 'calc', tools: [add, broken] }), model });
    const lines = describeEvents(await collect(runner, { message: 'Add 2 and 3' }));
    expect(lines).toEqual([
      'user: Add 2 and 3',
      'calc: call add({"a":"two","b":3})',
      expect.stringMatching(
        /^calc: add → \{"error":"Invalid arguments for tool 'add': a: .*Call it again with arguments that match its parameters\."\}$/,
      ),
      'calc: call broken({})',
      'calc: broken → {"error":"Tool \'broken\' failed: disk on fire"}',
      'calc: call nope({})',
      'calc: nope → {"error":"Tool \'nope\' is not available. Available tools: add, broken."}',
      'calc: call add({"a":2,"b":3})',
      'calc: add → {"sum":5}',
      'calc: The sum is 5.',
    ]);
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toEqual(['add', 'broken']);
    expect(model.requests[1]?.tools[0]?.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('runs parallel calls at the same time and answers them in call order, with their ids', async () => {
    const started: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = functionTool({
      name: 'wait',
      description: 'Waits.',
      parameters: z.object({ label: z.string() }),
      execute: async ({ label }) => {
        started.push(label);
        if (started.length === 3) release();
        await gate;
        return { label };
      },
    });
    const model = createScriptedModel([
      {
        functionCalls: [
          { name: 'wait', args: { label: 'a' }, id: 'c1' },
          { name: 'wait', args: { label: 'b' } },
          { name: 'wait', args: { label: 'c' }, id: 'c3' },
        ],
      },
      { text: 'done' },
    ]);
    const runner = await setup({ agents: llmAgent({ name: 'agent', tools: [slow] }), model });
    const events = await collect(runner, { message: 'go' });
    const responses = events[2]?.content?.parts.map((part) =>
      'functionResponse' in part ? part.functionResponse : undefined,
    );
    const calls = events[1]?.content?.parts.map((part) => ('functionCall' in part ? part.functionCall.id : undefined));
    expect(responses?.map((response) => response?.response)).toEqual([{ label: 'a' }, { label: 'b' }, { label: 'c' }]);
    expect(responses?.map((response) => response?.id)).toEqual(calls);
    expect(calls?.[1]).toMatch(/^adk-/);
  });

  it('stops an invocation at maxLlmCalls with a clear error event', async () => {
    const model = createScriptedModel({ fallback: { functionCall: { name: 'add', args: { a: 1, b: 1 } } } });
    const runner = await setup({ agents: llmAgent({ name: 'looper', tools: [add] }), model, maxLlmCalls: 3 });
    const events = await collect(runner, { message: 'loop' });
    const last = events.at(-1);
    expect(last).toMatchObject({
      errorCode: 'max_llm_calls',
      errorMessage: expect.stringContaining('limit of 3 model calls'),
    });
    expect(model.requests).toHaveLength(3);
  });

  it('ends the invocation with an error event when the model call fails', async () => {
    const model = createScriptedModel([]);
    const runner = await setup({ agents: llmAgent({ name: 'a' }), model });
    const events = await collect(runner, { message: 'hi' });
    expect(events.at(-1)).toMatchObject({
      errorCode: 'model_error',
      errorMessage: expect.stringMatching(
        /^The model call failed \(call 1 of this invocation, agent 'a'\): The script has no answer for call 1/,
      ),
    });
  });

  it('reports a missing state key as an error event naming the processor and agent', async () => {
    const runner = await setup({
      agents: llmAgent({ name: 'reviewer', instruction: 'Review {draft_text}.' }),
      model: createScriptedModel([]),
    });
    const events = await collect(runner, { message: 'review' });
    expect(events.at(-1)).toMatchObject({
      errorCode: 'missing_state_key',
      errorMessage: expect.stringMatching(
        /^Processor 'instructions' failed for agent 'reviewer': Context variable not found: `draft_text`\./,
      ),
    });
  });

  it('refuses to start without a session or without a model, writing nothing', async () => {
    const sessions = createInMemorySessionStore();
    const runner = createRunner({ agents: llmAgent({ name: 'a', model: 'gemini-2.5-flash' }), sessions });
    await expect(collect(runner, { message: 'hi' })).rejects.toThrow(/Session s1 of user u1 not found in app a\./);
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    await expect(collect(runner, { message: 'hi' })).rejects.toThrow(
      /No model is available for 'gemini-2.5-flash' \(agent 'a'\)/,
    );
    expect((await sessions.getSession({ appName: 'a', userId: 'u1', sessionId: 's1' }))?.events).toEqual([]);
  });

  it('streams partial events that are shown but never stored', async () => {
    const sessions = createInMemorySessionStore();
    const runner = await setup({
      agents: llmAgent({ name: 'a' }),
      model: createScriptedModel([{ text: 'one two three' }]),
      sessions,
      streaming: true,
    });
    const events = await collect(runner, { message: 'count' });
    expect(describeEvents(events)).toEqual([
      'user: count',
      'a (partial): one ',
      'a (partial): two ',
      'a (partial): three',
      'a: one two three',
    ]);
    expect((await sessions.getSession({ appName: 'a', userId: 'u1', sessionId: 's1' }))?.events).toHaveLength(2);
  });
});
