import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { NewModelCall } from '../../contracts/model-call.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { SessionKey } from '../../contracts/session.js';
import { createEvent } from '../../engine/session/create-event.js';
import { isSessionStore } from './is-session-store.js';
import { openSession, startOver } from './log-sessions.js';
import { modelCallCases, type TwinLog } from './model-call-cases.js';

export type ModelCallLogSuiteOptions = {
  /** Shown in the test names. */
  name: string;
  /** A new, empty, isolated log (or a store that is also one) whose clock and ids come from `clock`. */
  create: (clock: { now: () => number; newId: () => string }) => ModelCallLog | Promise<ModelCallLog>;
  /** Another log over the same storage as one `create` made, as a second process would open it; cases about two logs sharing storage run only when given. */
  twin?: TwinLog | undefined;
};

/**
 * The behaviour every `ModelCallLog` must have; run it against your implementation with vitest. A store that is also
 * the session store (`SessionStoreWithCallLog`) runs it too, with its own cases: deleting a session deletes its calls,
 * and an answer's event and its call's completion are one write.
 */
export function testModelCallLog(options: ModelCallLogSuiteOptions): void {
  describe(`ModelCallLog contract: ${options.name}`, () => {
    const setup = async () => {
      let time = 1_700_000_000;
      let counter = 0;
      const store = await options.create({ now: () => (time += 1), newId: () => `id-${++counter}` });
      return { store, app: 'contract_app' };
    };
    const codeOf = async (promise: Promise<unknown>): Promise<string> => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(AgentctxError.isInstance(error), 'an AgentctxError').toBe(true);
      return (error as AgentctxError).code;
    };
    const request = {
      system: 'S',
      tools: [],
      messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }],
      config: { model: 'm' },
    };
    const provenance = {
      system: [
        {
          start: 0,
          end: 1,
          source: { kind: 'instruction' as const, processor: 'instructions', agent: 'a', field: 'instruction' },
        },
      ],
      tools: [],
      messages: [[{ kind: 'history' as const, processor: 'contents', agent: 'user', eventIds: ['e1'] }]],
    };
    const pending = (n: number): NewModelCall => ({
      invocationId: `inv-${n}`,
      agent: 'a',
      timestamp: n,
      request,
      provenance,
      editedByCallback: false,
      status: 'pending',
    });

    it('records model calls per session, numbered from 1, and lists them without their requests', async () => {
      const { store, app } = await setup();
      const key = { appName: app, userId: 'u1', sessionId: 's1' };
      await openSession(store, key);
      const call = {
        invocationId: 'inv-1',
        agent: 'a',
        timestamp: 5,
        request,
        provenance,
        editedByCallback: false,
        status: 'answered' as const,
        usage: { promptTokens: 3 },
      };
      expect(await store.recordModelCall({ ...key, call })).toBe(1);
      expect(await store.recordModelCall({ ...key, call: { ...call, agent: 'b', responseEventId: 'ev-9' } })).toBe(2);
      expect(await store.getModelCall({ ...key, index: 1 })).toEqual({ ...call, index: 1 });
      expect((await store.getModelCall({ ...key, index: 2 }))?.responseEventId).toBe('ev-9');
      expect(await store.getModelCall({ ...key, index: 3 })).toBeUndefined();
      const summaries = await store.listModelCalls(key);
      expect(summaries.map((summary) => [summary.index, summary.agent, summary.requestChars])).toEqual([
        [1, 'a', JSON.stringify(request).length],
        [2, 'b', JSON.stringify(request).length],
      ]);
      expect(summaries[0]).not.toHaveProperty('request');
      expect(await store.listModelCalls({ ...key, sessionId: 'other' })).toEqual([]);
      await startOver(store, key);
      expect(await store.listModelCalls(key)).toEqual([]);
    });

    it('forgets the calls of one session on deleteModelCalls, and numbers the next from 1', async () => {
      const { store, app } = await setup();
      const key = { appName: app, userId: 'u1', sessionId: 's1' };
      const other = { ...key, sessionId: 's2' };
      for (const each of [key, other]) await openSession(store, each);
      for (const n of [1, 2]) await store.recordModelCall({ ...key, call: pending(n) });
      await store.recordModelCall({ ...other, call: pending(3) });
      await store.deleteModelCalls(key);
      await store.deleteModelCalls(key);
      expect(await store.listModelCalls(key)).toEqual([]);
      expect(
        await codeOf(store.completeModelCall({ ...key, index: 1, outcome: { status: 'answered', latencyMs: 1 } })),
      ).toBe('not_found');
      expect((await store.listModelCalls(other)).map((summary) => summary.invocationId)).toEqual(['inv-3']);
      expect(await store.recordModelCall({ ...key, call: pending(4) })).toBe(1);
      if (isSessionStore(store)) expect(await store.getSession(key)).toBeDefined();
    });

    it('keeps what a call was: an embeddings call says so, a chat call says nothing', async () => {
      const { store, app } = await setup();
      const key = { appName: app, userId: 'u1', sessionId: 's1' };
      await openSession(store, key);
      const embedding = {
        ...pending(1),
        operation: 'embeddings' as const,
        request: {
          system: '',
          tools: [],
          messages: [{ role: 'user' as const, content: [{ text: 'a' }, { text: 'b' }] }],
          config: { model: 'text-embedding-3-small' },
        },
        provenance: { system: [], tools: [], messages: [[]] },
      };
      await store.recordModelCall({ ...key, call: embedding });
      await store.recordModelCall({ ...key, call: pending(2) });
      expect((await store.getModelCall({ ...key, index: 1 }))?.operation).toBe('embeddings');
      expect(await store.getModelCall({ ...key, index: 2 })).not.toHaveProperty('operation');
      expect((await store.listModelCalls(key)).map((summary) => summary.operation)).toEqual(['embeddings', undefined]);
    });

    it('keeps the model a call is billed as, apart from the one that answered', async () => {
      const { store, app } = await setup();
      const key = { appName: app, userId: 'u1', sessionId: 's1' };
      await openSession(store, key);
      const billedAs = { provider: 'anthropic', modelId: 'claude-sonnet-4-6' };
      await store.recordModelCall({
        ...key,
        call: { ...pending(1), model: { provider: 'scripted', modelId: 'demo', billedAs } },
      });
      await store.recordModelCall({
        ...key,
        call: { ...pending(2), model: { provider: 'scripted', modelId: 'demo' } },
      });
      expect((await store.getModelCall({ ...key, index: 1 }))?.model).toEqual({
        provider: 'scripted',
        modelId: 'demo',
        billedAs,
      });
      expect((await store.getModelCall({ ...key, index: 2 }))?.model).toEqual({
        provider: 'scripted',
        modelId: 'demo',
      });
      expect((await store.listModelCalls(key)).map((summary) => summary.model)).toEqual([
        { provider: 'scripted', modelId: 'demo', billedAs },
        { provider: 'scripted', modelId: 'demo' },
      ]);
    });

    it('gives back every call of a long session exactly, when consecutive calls share their history', async () => {
      const { store, app } = await setup();
      const key = { appName: app, userId: 'u1', sessionId: 's1' };
      await openSession(store, key);
      const messages: { role: 'user' | 'model'; content: { text: string }[] }[] = [];
      const sources: { kind: 'history'; processor: string; agent: string; eventIds: string[] }[][] = [];
      const recorded = [];
      for (let call = 0; call < 40; call++) {
        // Messages are reused between calls, as a runner does; call 17 starts over (a rewritten history).
        if (call === 17)
          messages.splice(0, messages.length, { role: 'user', content: [{ text: 'rewritten' }] }),
            sources.splice(0, sources.length, [
              { kind: 'history', processor: 'contents', agent: 'user', eventIds: ['r'] },
            ]);
        messages.push({
          role: call % 2 === 0 ? 'user' : 'model',
          content: [{ text: `turn ${call} ${'x'.repeat(call)}` }],
        });
        sources.push([{ kind: 'history', processor: 'contents', agent: 'a', eventIds: [`e${call}`] }]);
        const request = { system: `S${call}`, tools: [], messages: [...messages], config: {} };
        const provenance = { system: [], tools: [], messages: [...sources] };
        recorded.push(JSON.parse(JSON.stringify({ request, provenance })) as unknown);
        expect(
          await store.recordModelCall({
            ...key,
            call: {
              invocationId: `inv${call}`,
              agent: 'a',
              timestamp: call,
              request,
              provenance,
              editedByCallback: false,
            },
          }),
        ).toBe(call + 1);
      }
      for (let call = 0; call < 40; call++) {
        const record = await store.getModelCall({ ...key, index: call + 1 });
        expect({ request: record?.request, provenance: record?.provenance }).toEqual(recorded[call]);
      }
      const summaries = await store.listModelCalls(key);
      expect(summaries.map((summary) => summary.requestChars)).toEqual(
        recorded.map((entry) => JSON.stringify((entry as { request: unknown }).request).length),
      );
    });

    modelCallCases(setup, options.twin);

    describe('a log that is also the session store', () => {
      const combined = async (skip: () => void) => {
        const { store, app } = await setup();
        if (!isSessionStore(store)) skip();
        const key: SessionKey = { appName: app, userId: 'u1', sessionId: 's1' };
        return { store: store as ModelCallLog & SessionStore, key };
      };

      it('refuses a call of a session it does not have, and deletes the calls with the session', async (context) => {
        const { store, key } = await combined(() => context.skip());
        expect(await codeOf(store.recordModelCall({ ...key, sessionId: 'ghost', call: pending(1) }))).toBe('not_found');
        await store.createSession(key);
        await store.recordModelCall({ ...key, call: pending(1) });
        await store.deleteSession(key);
        expect(await store.listModelCalls(key)).toEqual([]);
        await store.createSession(key);
        expect(await store.listModelCalls(key)).toEqual([]);
        expect(await store.recordModelCall({ ...key, call: pending(2) })).toBe(1);
      });

      it('appends an answer and completes its call in one write, or writes neither', async (context) => {
        const { store, key } = await combined(() => context.skip());
        const session = await store.createSession(key);
        const stale = structuredClone(session);
        const index = await store.recordModelCall({ ...key, call: pending(1) });
        const answer = createEvent(
          { author: 'a', invocationId: 'inv-1', content: { role: 'model', parts: [{ text: 'yes' }] } },
          { newId: () => 'answer', now: () => 10 },
        );
        await store.appendEvent({
          session,
          event: answer,
          completeModelCall: { index, outcome: { status: 'answered', latencyMs: 5, responseEventId: 'answer' } },
        });
        expect((await store.getModelCall({ ...key, index }))?.status).toBe('answered');
        expect((await store.getSession(key))?.events.map((event) => event.id)).toEqual(['answer']);

        const second = await store.recordModelCall({ ...key, call: pending(2) });
        const late = createEvent({ author: 'a', invocationId: 'inv-2' }, { newId: () => 'late', now: () => 11 });
        expect(
          await codeOf(
            store.appendEvent({
              session: stale,
              event: late,
              completeModelCall: {
                index: second,
                outcome: { status: 'answered', latencyMs: 5, responseEventId: 'late' },
              },
            }),
          ),
        ).toBe('stale_session');
        expect((await store.getModelCall({ ...key, index: second }))?.status).toBe('pending');
        expect((await store.getSession(key))?.events.map((event) => event.id)).toEqual(['answer']);

        // A completion that cannot be written (the call ended already) leaves the event unwritten too.
        const current = (await store.getSession(key)) as NonNullable<Awaited<ReturnType<typeof store.getSession>>>;
        const again = createEvent({ author: 'a', invocationId: 'inv-1' }, { newId: () => 'again', now: () => 12 });
        expect(
          await codeOf(
            store.appendEvent({
              session: current,
              event: again,
              completeModelCall: { index, outcome: { status: 'answered', latencyMs: 6 } },
            }),
          ),
        ).toBe('already_exists');
        expect((await store.getSession(key))?.events.map((event) => event.id)).toEqual(['answer']);
      });
    });
  });
}
