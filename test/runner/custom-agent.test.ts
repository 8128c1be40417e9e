import { describe, expect, it } from 'vitest';
import type { Content } from '../../src/contracts/content.js';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { customAgent, llmAgent, loopAgent, sequentialAgent } from '../../src/engine/agent/define-agent.js';
import { agentTool } from '../../src/engine/tools/agent-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import { api, parseSse, resources } from '../server/helpers.js';
import { collect, describeEvents, runnerWithSession } from './helpers.js';

// Issue 45, part 4: an open agent kind. A custom agent's logic is code (ADK's BaseAgent subclass); workflow agents,
// transfers, agent tools and the servers run it like any other agent.

const say = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const textOf = (message: unknown) => JSON.stringify(message);

/** Two specialists that answer from a script, and a router that picks one by the user's words, writing its choice to state. */
function routerTree() {
  const model = createScriptedModel({
    rules: [
      { when: (_request, call) => call.agentName === 'billing', respond: { text: 'Refund sent.' } },
      { respond: { text: 'Happy to help.' } },
    ],
  });
  const billing = llmAgent({ name: 'billing', instruction: 'Handle billing.' });
  const support = llmAgent({ name: 'support', instruction: 'Help.' });
  const router = customAgent({
    name: 'router',
    description: 'Routes to billing or support.',
    subAgents: [billing, support],
    async *run(agent) {
      const target = /refund|invoice/i.test(textOf(agent.userContent)) ? 'billing' : 'support';
      agent.state.set('routed_to', target);
      yield { content: say(`Routing to ${target}.`) };
      yield* agent.runSubAgent(target);
    },
  });
  return { router, model };
}

describe('customAgent', () => {
  it('runs its code as the root: its replies are its events (with the state it wrote), its sub-agent answers', async () => {
    const { router, model } = routerTree();
    const runner = await runnerWithSession({ agents: router, model });
    const events = await collect(runner, { message: 'I want a refund' });
    expect(describeEvents(events)).toEqual([
      'user: I want a refund',
      'router: Routing to billing.',
      'billing: Refund sent.',
    ]);
    expect(events[1]?.actions.stateDelta).toEqual({ routed_to: 'billing' });
    const stored = await runner.sessions.getSession({ appName: 'router', userId: 'u1', sessionId: 's1' });
    expect(stored?.events.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(stored?.state).toEqual({ routed_to: 'billing' });
    // The next turn routes again, and sees what was said before.
    expect(describeEvents(await collect(runner, { message: 'thanks' })).slice(1)).toEqual([
      'router: Routing to support.',
      'support: Happy to help.',
    ]);
  });

  it('runs in a sequential and a loop agent, and ends the loop when it escalates', async () => {
    const counter = customAgent({
      name: 'counter',
      async *run(agent) {
        const count = Number(agent.state.get('count') ?? 0) + 1;
        agent.state.set('count', count);
        yield count >= 3 ? { content: say(`done at ${count}`), escalate: true } : { content: say(`count ${count}`) };
      },
    });
    const runner = await runnerWithSession({
      agents: sequentialAgent({ name: 'flow', subAgents: [loopAgent({ name: 'again', subAgents: [counter] })] }),
      model: createScriptedModel([]),
    });
    expect(describeEvents(await collect(runner, { message: 'go' }))).toEqual([
      'user: go',
      'counter: count 1',
      'counter: count 2',
      'counter: done at 3',
    ]);
  });

  it('is a transfer target of an LLM agent, and hands over itself with transferToAgent', async () => {
    const model = createScriptedModel({
      rules: [
        {
          when: (_request, call) => call.agentName === 'front',
          respond: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'gate' } } },
          times: 1,
        },
        { when: (_request, call) => call.agentName === 'closer', respond: { text: 'Closed.' } },
        { respond: { text: 'unexpected' } },
      ],
    });
    const gate = customAgent({
      name: 'gate',
      description: 'Checks the request, then hands it to closer.',
      async *run() {
        yield { content: say('Checked.'), transferToAgent: 'closer' };
        yield { content: say('never stored') };
      },
    });
    const front = llmAgent({
      name: 'front',
      instruction: 'Route.',
      subAgents: [gate, llmAgent({ name: 'closer', instruction: 'Close.' })],
    });
    const runner = await runnerWithSession({ agents: front, model });
    const events = await collect(runner, { message: 'close my ticket' });
    expect(describeEvents(events)).toEqual([
      'user: close my ticket',
      'front: call transfer_to_agent({"agent_name":"gate"})',
      'front: transfer_to_agent → {"result":null}',
      'gate: Checked.',
      'closer: Closed.',
    ]);
    expect(events[3]?.actions.transferToAgent).toBe('closer');
    // The transfer tool offered the custom agent by its description.
    const request = model.requests[0];
    expect(request?.system).toContain(
      'Agent name: gate\nAgent description: Checks the request, then hands it to closer.',
    );
  });

  it('runs as an agent tool: its last text is the result, its state comes back', async () => {
    const shout = customAgent({
      name: 'shout',
      description: 'Shouts the request.',
      async *run(agent) {
        agent.state.set('shouted', true);
        const first = agent.userContent?.parts[0];
        yield { content: say(first !== undefined && 'text' in first ? first.text.toUpperCase() : '') };
      },
    });
    const model = createScriptedModel({
      rules: [
        { when: (request) => textOf(request.messages.at(-1)).includes('functionResponse'), respond: { text: 'Done.' } },
        { respond: { functionCall: { name: 'shout', args: { request: 'hello' } } } },
      ],
    });
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'host', instruction: 'Use shout.', tools: [agentTool(shout)] }),
      model,
    });
    const events = await collect(runner, { message: 'shout hello' });
    expect(describeEvents(events)[2]).toBe('host: shout → {"result":"HELLO"}');
    expect((await runner.sessions.getSession({ appName: 'host', userId: 'u1', sessionId: 's1' }))?.state).toEqual({
      shouted: true,
    });
  });

  it('stores state written after its last reply on an event of its own, and names an unknown sub-agent', async () => {
    const quiet = customAgent({
      name: 'quiet',
      subAgents: [llmAgent({ name: 'helper' })],
      async *run(agent) {
        agent.state.set('seen', 1);
        if (textOf(agent.userContent).includes('missing')) yield* agent.runSubAgent('nobody');
      },
    });
    const runner = await runnerWithSession({ agents: quiet, model: createScriptedModel([]) });
    const events = await collect(runner, { message: 'hi' });
    expect(events.map((event) => [event.author, event.content, event.actions.stateDelta])).toEqual([
      ['user', { role: 'user', parts: [{ text: 'hi' }] }, {}],
      ['quiet', undefined, { seen: 1 }],
    ]);
    const error = await collect(runner, { message: 'missing' }).catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error) && [error.code, error.message, error.hint]).toEqual([
      'not_found',
      "Agent 'quiet' has no sub-agent 'nobody'.",
      'Its sub-agents are: helper.',
    ]);
  });

  it('is refused without a run function or with a bad name, naming each problem', () => {
    expect(() => customAgent({ name: 'not ok', run: undefined as never })).toThrow(
      'Invalid agent \'not ok\': name: "not ok" is not a valid agent name: use a letter or underscore, then letters, digits or underscores; run: expected a function (an async generator of replies and events)',
    );
  });
});

describe('a custom agent behind the servers', () => {
  const res = resources();

  it("answers agentctx's run and ADK's /run, and is a node of ADK's agent graph", async () => {
    const { router, model } = routerTree();
    const runner = await runnerWithSession({ agents: router, model, telemetry: undefined });
    const own = api((await res.serve({ runner })).url);
    const frames = parseSse(
      await (await own.run('/apps/router/users/u1/sessions/s1', { message: 'invoice please' })).text(),
    );
    expect(frames.map((frame) => (frame.data as { author?: string }).author)).toEqual([
      'user',
      'router',
      'billing',
      undefined,
    ]);

    const adk = createAdkServer({ runners: [runner], onError: () => undefined });
    const { url } = await adk.listen(0);
    try {
      const client = api(url);
      const ran = await client.post('/run', {
        appName: 'router',
        userId: 'u1',
        sessionId: 's1',
        newMessage: { role: 'user', parts: [{ text: 'hello' }] },
      });
      expect((ran.json as { author: string }[]).map((event) => event.author)).toEqual(['router', 'support']);
      const graph = await client.get('/dev/apps/router/build_graph');
      expect(graph.status).toBe(200);
      expect(JSON.stringify(graph.json)).toMatch(/"name":"router".*"sub_agents":\[\{"name":"billing"/);
    } finally {
      await adk.close();
      await res.cleanup();
    }
  });
});
