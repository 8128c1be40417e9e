import { describe, expect, it } from 'vitest';
import { withSystemBlock } from '../../src/engine/assembly/draft.js';
import {
  createRunner,
  functionTool,
  llmAgent,
  ValidationError,
  type Event,
  type Extension,
  type Model,
  type Plugin,
} from '../../src/index.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { collect, describeEvents, testClock } from '../runner/helpers.js';

// A plugin written as a user would: a processor of its own and hooks into the run, registered on the runner.

async function setup(options: Omit<Parameters<typeof createRunner<SessionStoreWithCallLog>>[0], 'now' | 'newId'>) {
  const runner = createRunner({ ...testClock(), ...options });
  await runner.createSession({ userId: 'u1', sessionId: 's1', state: { 'user:tone': 'warm' } });
  return runner;
}

function tonePlugin(log: string[]): Plugin {
  return {
    name: 'tone',
    processors: [
      {
        after: 'identity',
        processor: {
          name: 'tone',
          process: (draft, context) =>
            withSystemBlock(draft, `Keep a ${String(context.state['user:tone'])} tone.`, {
              kind: 'custom',
              processor: 'tone',
              agent: context.agent.name,
              field: 'state user:tone',
            }),
        },
      },
    ],
    hooks: {
      onUserMessage: ({ message }) => ({
        role: 'user',
        parts: message.parts.map((part) => ('text' in part ? { text: part.text.trim() } : part)),
      }),
      beforeRun: ({ context }) => void log.push(`beforeRun ${context.invocationId}`),
      beforeAgent: ({ agent }) => void log.push(`beforeAgent ${agent.name}`),
      beforeModel: ({ request }) => void log.push(`beforeModel ${request.messages.length}`),
      afterModel: ({ response }) => void log.push(`afterModel ${response.finishReason ?? 'done'}`),
      beforeTool: ({ tool }) => void log.push(`beforeTool ${tool.name}`),
      afterTool: ({ tool, result }) => void log.push(`afterTool ${tool.name} ${JSON.stringify(result)}`),
      afterAgent: ({ agent }) => void log.push(`afterAgent ${agent.name}`),
      onEvent: ({ event }) =>
        event.author === 'user' ? undefined : { ...event, errorMessage: 'seen by the tone plugin' },
      afterRun: ({ context }) => void log.push(`afterRun ${context.events.length}`),
    },
  };
}

const add = functionTool({
  name: 'add',
  description: 'Adds.',
  jsonSchema: { type: 'object' },
  execute: (args: Record<string, unknown>) => ({ sum: Number(args['a']) + Number(args['b']) }),
});

describe('a plugin of your own', () => {
  it('adds its block to every request, attributed to it, and its hooks run around agents, model calls and tools', async () => {
    const log: string[] = [];
    const model = createScriptedModel([{ functionCall: { name: 'add', args: { a: 2, b: 3 } } }, { text: 'It is 5.' }]);
    const runner = await setup({
      agents: llmAgent({ name: 'helper', instruction: 'Help.', tools: [add] }),
      model,
      plugins: [tonePlugin(log)],
    });
    const handed = await collect(runner, { message: '  2 + 3?  ' });
    expect(model.requests[0]?.system).toBe(
      'Help.\n\nYou are an agent. Your internal name is "helper".\n\nKeep a warm tone.',
    );
    expect(log).toEqual([
      'beforeRun e-id1',
      'beforeAgent helper',
      'beforeModel 1',
      'afterModel done',
      'beforeTool add',
      'afterTool add {"sum":5}',
      'beforeModel 3',
      'afterModel done',
      'afterAgent helper',
      'afterRun 4',
    ]);
    // The caller got what onEvent handed over; storage kept the events as they were.
    expect(
      handed
        .filter((event) => event.author !== 'user')
        .every((event) => event.errorMessage === 'seen by the tone plugin'),
    ).toBe(true);
    const stored = await runner.sessions.getSession({ appName: 'helper', userId: 'u1', sessionId: 's1' });
    expect(stored?.events.map((event) => event.errorMessage)).toEqual([undefined, undefined, undefined, undefined]);
    expect(stored?.events[0]?.content).toEqual({ role: 'user', parts: [{ text: '2 + 3?' }] });
    const call = await runner.sessions.getModelCall({ appName: 'helper', userId: 'u1', sessionId: 's1', index: 1 });
    expect(call?.provenance.system.at(-1)?.source).toEqual({
      kind: 'custom',
      processor: 'tone',
      agent: 'helper',
      field: 'state user:tone',
      extension: 'tone',
    });
  });

  it('answers for the model when a beforeModel hook returns a response, before the agent’s own callbacks', async () => {
    const model = createScriptedModel([{ text: 'from the model' }]);
    let callbackRan = false;
    const agent = llmAgent({ name: 'helper', callbacks: { beforeModel: () => void (callbackRan = true) } });
    const cached: Plugin = {
      name: 'cache',
      hooks: { beforeModel: () => ({ content: { role: 'model', parts: [{ text: 'from the cache' }] } }) },
    };
    const runner = await setup({ agents: agent, model, plugins: [cached] });
    expect(describeEvents(await collect(runner, { message: 'hi' }))).toEqual(['user: hi', 'helper: from the cache']);
    expect(model.requests).toHaveLength(0);
    expect(callbackRan).toBe(false);
  });

  it('runs an agent’s own extension hooks after the plugins’, and only for that agent', async () => {
    const order: string[] = [];
    const own: Extension = { name: 'own', hooks: { beforeModel: ({ agent }) => void order.push(`own ${agent.name}`) } };
    const plugin: Plugin = {
      name: 'everywhere',
      hooks: { beforeModel: ({ agent }) => void order.push(`plugin ${agent.name}`) },
    };
    const math = llmAgent({ name: 'math_agent', description: 'Does arithmetic.' });
    const root = llmAgent({ name: 'coordinator', subAgents: [math], extensions: [own] });
    const model = createScriptedModel({
      rules: [
        {
          when: { agent: 'coordinator' },
          respond: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'math_agent' } } },
        },
        { when: { agent: 'math_agent' }, respond: { text: '408' } },
      ],
    });
    const runner = await setup({ agents: root, model, plugins: [plugin] });
    await collect(runner, { message: '12 × 34?' });
    expect(order).toEqual(['plugin coordinator', 'own coordinator', 'plugin math_agent']);
  });

  it('ends the invocation with beforeRun’s answer, as the agent that would have run', async () => {
    const model = createScriptedModel([{ text: 'never' }]);
    const closed: Plugin = {
      name: 'closed',
      hooks: { beforeRun: () => ({ role: 'model', parts: [{ text: 'We are closed today.' }] }) },
    };
    const runner = await setup({ agents: llmAgent({ name: 'helper' }), model, plugins: [closed] });
    expect(describeEvents(await collect(runner, { message: 'hi' }))).toEqual([
      'user: hi',
      'helper: We are closed today.',
    ]);
    expect(model.requests).toHaveLength(0);
  });

  it('lets onModelError stand in for a failed call, and onToolError for a failed tool', async () => {
    const failing: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'down',
      generate: () => Promise.reject(new Error('the provider is down')),
    };
    const fallback: Plugin = {
      name: 'fallback',
      hooks: {
        onModelError: ({ error }) => ({
          content: { role: 'model', parts: [{ text: `fallback after: ${(error as Error).message}` }] },
        }),
      },
    };
    const runner = await setup({ agents: llmAgent({ name: 'helper' }), model: failing, plugins: [fallback] });
    expect(describeEvents(await collect(runner, { message: 'hi' }))).toEqual([
      'user: hi',
      'helper: fallback after: the provider is down',
    ]);

    const broken = functionTool({
      name: 'broken',
      description: 'Fails.',
      execute: () => Promise.reject(new Error('disk full')),
    });
    const softened: Plugin = {
      name: 'softened',
      hooks: { onToolError: ({ tool, error }) => ({ unavailable: tool.name, reason: (error as Error).message }) },
    };
    const toolRunner = await setup({
      agents: llmAgent({ name: 'helper', tools: [broken] }),
      model: createScriptedModel([{ functionCall: { name: 'broken', args: {} } }, { text: 'ok' }]),
      plugins: [softened],
    });
    expect(describeEvents(await collect(toolRunner, { message: 'go' }))).toContain(
      'helper: broken → {"unavailable":"broken","reason":"disk full"}',
    );
  });

  it('offers an extension’s tools after the agent’s own, and runs them', async () => {
    const greet = functionTool({ name: 'greet', description: 'Greets.', execute: () => ({ greeting: 'hello' }) });
    const model = createScriptedModel([{ functionCall: { name: 'greet', args: {} } }, { text: 'done' }]);
    const runner = await setup({
      agents: llmAgent({ name: 'helper', tools: [add], extensions: [{ name: 'greeter', tools: [greet] }] }),
      model,
    });
    expect(describeEvents(await collect(runner, { message: 'hi' }))).toContain('helper: greet → {"greeting":"hello"}');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['add', 'greet']);
    const call = await runner.sessions.getModelCall({ appName: 'helper', userId: 'u1', sessionId: 's1', index: 1 });
    expect(call?.provenance.tools[1]).toMatchObject({ kind: 'tool', extension: 'greeter', field: 'greeter.tools[0]' });
  });

  it('names the extension when a hook fails', async () => {
    const faulty: Plugin = { name: 'faulty', hooks: { beforeModel: () => Promise.reject(new Error('oops')) } };
    const runner = await setup({
      agents: llmAgent({ name: 'helper' }),
      model: createScriptedModel([{ text: 'hi' }]),
      plugins: [faulty],
    });
    const events: Event[] = [];
    await expect(async () => {
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'hi' })) events.push(event);
    }).rejects.toThrow("Extension 'faulty' failed in its beforeModel hook: oops");
  });

  it('refuses extensions it cannot use: run-level hooks on an agent, names twice, a placement without its anchor', async () => {
    expect(() =>
      llmAgent({ name: 'helper', extensions: [{ name: 'x', hooks: { afterRun: () => undefined } }] }),
    ).toThrow(/extensions\[0\]\.hooks\.afterRun: concerns the whole invocation, so it needs a runner/);
    expect(() =>
      createRunner({ agents: llmAgent({ name: 'helper' }), plugins: [{ name: 'p' }, { name: 'p' }] }),
    ).toThrow(ValidationError);
    const lost: Plugin = {
      name: 'lost',
      processors: [{ after: 'nowhere', processor: { name: 'lost', process: (draft) => draft } }],
    };
    const runner = await setup({
      agents: llmAgent({ name: 'helper' }),
      model: createScriptedModel([{ text: 'hi' }]),
      plugins: [lost],
    });
    const events = await collect(runner, { message: 'hi' });
    expect(events.at(-1)?.errorMessage).toMatch(
      /extension 'lost': processors\.lost: goes after 'nowhere', which the pipeline does not have/,
    );
  });
});
