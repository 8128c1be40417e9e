import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createServer } from '../../src/server/create-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { testClock } from '../runner/helpers.js';

// A confirmation over agentctx's own HTTP API (issue 48): the turn's stream carries the request (a long-running
// adk_request_confirmation call) and ends; the answer is the next turn's message, and a second answer to the same
// request is refused with 409 before anything is written.

const servers: AgentctxServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

type Streamed = { event: string; data: Record<string, unknown> };

function parseSse(text: string): Streamed[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.includes('data: '))
    .map((chunk) => ({
      event: /^event: (\w+)/m.exec(chunk)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? '{}') as Record<string, unknown>,
    }));
}

describe('a confirmation over agentctx’s API', () => {
  it('streams the request, resumes on the answer sent as the next message, and refuses a second answer', async () => {
    let moved = 0;
    const transfer = functionTool({
      name: 'transfer',
      description: 'Moves money.',
      requireConfirmation: true,
      execute: () => {
        moved += 1;
        return { moved: true };
      },
    });
    const runner = createRunner({
      agents: llmAgent({ name: 'bank', tools: [transfer] }),
      model: createScriptedModel([{ functionCall: { name: 'transfer', args: {} } }, { text: 'Done.' }]),
      ...testClock(),
    });
    const server = createServer({ runner });
    servers.push(server);
    const { url } = await server.listen(0);
    const session = `${url}/apps/bank/users/u1/sessions/s1`;
    await fetch(`${url}/apps/bank/users/u1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 's1' }),
    });
    const turn = async (message: unknown) =>
      parseSse(
        await (
          await fetch(`${session}/run`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message }),
          })
        ).text(),
      );

    const first = await turn('move it');
    const request = first.find((item) => JSON.stringify(item.data).includes('adk_request_confirmation'));
    const id = (request?.data['longRunningToolIds'] as string[] | undefined)?.[0];
    expect(id).toMatch(/^adk-/);
    expect(first.at(-1)?.event).toBe('done');
    expect(moved).toBe(0);

    const answer = {
      role: 'user',
      parts: [{ functionResponse: { id, name: 'adk_request_confirmation', response: { confirmed: true } } }],
    };
    const second = await turn(answer);
    expect(second.map((item) => item.event)).toEqual(['event', 'event', 'event', 'done']);
    expect(JSON.stringify(second[1]?.data)).toContain('"moved":true');
    expect(JSON.stringify(second[2]?.data)).toContain('Done.');
    expect(moved).toBe(1);

    const third = await fetch(`${session}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: answer }),
    });
    expect(third.status).toBe(409);
    expect(await third.json()).toMatchObject({ error: { code: 'stale_session' } });
    expect(moved).toBe(1);
  });
});
