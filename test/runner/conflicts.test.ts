import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Event } from '../../src/contracts/event.js';
import type { Model } from '../../src/contracts/model.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createRunner } from '../../src/presets/create-runner.js';

// Two runners (two processes, as far as each knows) share one store and one session, and their turns interleave.
const tick = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
const note = functionTool({
  name: 'note',
  description: 'Notes the turn.',
  parameters: z.object({ turn: z.string() }),
  execute: async ({ turn }, context) => {
    await tick();
    const count = (context.state.get('user:turns') as number | undefined) ?? 0;
    context.state.set('user:turns', count + 1);
    return { noted: turn };
  },
});

/** Calls `note` once for the user's message, then answers; waits a little at each call so writers interleave. */
const model: Model = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'interleaving',
  generate: async (request) => {
    await tick();
    const last = request.messages.at(-1);
    if (last?.content.some((part) => 'functionResponse' in part)) return { content: { role: 'model', parts: [{ text: 'noted' }] } };
    const text = last?.content.find((part): part is { text: string } => 'text' in part)?.text ?? '';
    return { content: { role: 'model', parts: [{ functionCall: { name: 'note', args: { turn: text } } }] } };
  },
};

describe('conflicting writers', () => {
  it('turns of one session from two runners at once all land, each event once, by reloading and retrying', async () => {
    const sessions = createInMemorySessionStore();
    let refused = 0;
    const append = sessions.appendEvent.bind(sessions);
    sessions.appendEvent = (input) => append(input).catch((error: unknown) => {
      refused += 1;
      throw error;
    });
    const agents = llmAgent({ name: 'scribe', tools: [note] });
    const runners = [createRunner({ agents, model, sessions }), createRunner({ agents, model, sessions })];
    await runners[0]?.createSession({ userId: 'u', sessionId: 's' });
    const turns = Array.from({ length: 8 }, (_, index) => `turn ${index}`);
    const results = await Promise.all(
      turns.map(async (message, index) => {
        const events: Event[] = [];
        for await (const event of (runners[index % 2] as (typeof runners)[0]).run({ userId: 'u', sessionId: 's', message })) events.push(event);
        return events;
      }),
    );
    const stored = (await sessions.getSession({ appName: 'scribe', userId: 'u', sessionId: 's' }))?.events ?? [];
    const ids = stored.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const events of results) {
      // Every event a client was given is stored, in the order it was given.
      const positions = events.map((event) => ids.indexOf(event.id));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(events.at(-1)?.content?.parts[0]).toEqual({ text: 'noted' });
    }
    expect(stored.filter((event) => event.content?.parts.some((part) => 'functionResponse' in part))).toHaveLength(turns.length);
    expect(refused).toBeGreaterThan(0);
    // The tool's read-modify-write of a shared key lost no increment: a stale one was refused and the tool ran again.
    expect((await sessions.getSession({ appName: 'scribe', userId: 'u', sessionId: 's' }))?.state['user:turns']).toBe(turns.length);
  });

  it('concurrent sessions of one user each count their turn in a user: key; none is lost', async () => {
    const sessions = createInMemorySessionStore();
    const runner = createRunner({ agents: llmAgent({ name: 'scribe', tools: [note] }), model, sessions });
    const ids = Array.from({ length: 6 }, (_, index) => `s${index}`);
    for (const sessionId of ids) await runner.createSession({ userId: 'u', sessionId });
    await Promise.all(ids.map(async (sessionId) => {
      for await (const _event of runner.run({ userId: 'u', sessionId, message: `hello from ${sessionId}` }));
    }));
    const state = (await sessions.getSession({ appName: 'scribe', userId: 'u', sessionId: 's0' }))?.state;
    expect(state?.['user:turns']).toBe(ids.length);
  });
});
