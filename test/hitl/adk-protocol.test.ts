import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { testClock } from '../runner/helpers.js';

// A confirmation over ADK's API server protocol, as ADK's dev UI exchanges it (issue 48): the paused run's events
// carry the adk_request_confirmation call and its long-running id; the UI's answer (a function response wrapping the
// ToolConfirmation as JSON text) resumes the run, which runs the tool once.

const servers: AgentctxServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

type AdkEvent = {
  author: string;
  content?: { parts: Record<string, unknown>[] };
  actions: Record<string, unknown>;
  longRunningToolIds: string[];
};

async function start() {
  let moved = 0;
  const transfer = functionTool({
    name: 'transfer',
    description: 'Moves money.',
    jsonSchema: { type: 'object', properties: { amount: { type: 'number' } } },
    requireConfirmation: true,
    execute: ({ amount }: { amount: number }) => {
      moved += 1;
      return { moved: amount };
    },
  });
  const model = createScriptedModel([
    { functionCall: { name: 'transfer', args: { amount: 500 } } },
    { text: 'Moved 500.' },
    { text: 'Nothing more to do.' },
  ]);
  const runner = createRunner({
    agents: llmAgent({ name: 'bank', tools: [transfer] }),
    model,
    sessions: createInMemorySessionStore(),
    ...testClock(),
  });
  const server = createAdkServer({
    runners: [runner],
    version: 'test',
    onError: (error) => {
      throw error;
    },
  });
  servers.push(server);
  const { url } = await server.listen(0);
  const run = async (newMessage: unknown) => {
    const response = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appName: 'bank', userId: 'u1', sessionId: 's1', newMessage }),
    });
    return { status: response.status, events: (await response.json()) as AdkEvent[] };
  };
  await fetch(`${url}/apps/bank/users/u1/sessions/s1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  return { run, moved: () => moved };
}

describe('a confirmation over ADK’s protocol', () => {
  it('pauses with ADK’s adk_request_confirmation event, and the dev UI’s answer runs the tool once', async () => {
    const { run, moved } = await start();
    const first = await run({ role: 'user', parts: [{ text: 'Move 500' }] });
    expect(first.status).toBe(200);
    const request = first.events.find((event) =>
      (event.content?.parts ?? []).some(
        (part) => (part['functionCall'] as { name?: string } | undefined)?.name === 'adk_request_confirmation',
      ),
    );
    const call = request?.content?.parts[0]?.['functionCall'] as { id: string; args: Record<string, unknown> };
    expect(request?.longRunningToolIds).toEqual([call.id]);
    expect(call.args['toolConfirmation']).toEqual({
      hint: 'Please approve or reject the tool call transfer() by responding with a FunctionResponse with an expected ToolConfirmation payload.',
      confirmed: false,
    });
    expect(moved()).toBe(0);

    const answer = {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: call.id,
            name: 'adk_request_confirmation',
            response: { response: '{"confirmed":true}' },
          },
        },
      ],
    };
    const second = await run(answer);
    expect(second.status).toBe(200);
    expect(second.events.map((event) => JSON.stringify(event.content?.parts))).toEqual([
      JSON.stringify([
        {
          functionResponse: {
            id: (call.args['originalFunctionCall'] as { id: string }).id,
            name: 'transfer',
            response: { moved: 500 },
          },
        },
      ]),
      JSON.stringify([{ text: 'Moved 500.' }]),
    ]);
    expect(moved()).toBe(1);
    // The same answer again (a second tab, a retry) is refused, and runs nothing more.
    expect((await run(answer)).status).toBe(409);
    expect(moved()).toBe(1);
  });
});
