import { expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { ModelCallOutcome, NewModelCall, WireRecord } from '../../contracts/model-call.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { SessionKey } from '../../contracts/session.js';
import { openSession, startOver } from './log-sessions.js';

type Setup = () => Promise<{ store: ModelCallLog; app: string }>;

/** Another log over the same storage as the one given, as a second process would open it. */
export type TwinLog = (store: ModelCallLog) => ModelCallLog | Promise<ModelCallLog>;

/**
 * The model-call lifecycle: a call is recorded `pending` before it is sent and completed once, with everything that
 * came back, exactly as given.
 */
export function modelCallCases(setup: Setup, twin: TwinLog | undefined): void {
  const start = async () => {
    const { store, app } = await setup();
    const key: SessionKey = { appName: app, userId: 'u1', sessionId: 's1' };
    await openSession(store, key);
    return { store, app, key };
  };
  const codeOf = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(AgentctxError.isInstance(error), 'an AgentctxError').toBe(true);
    return { code: (error as AgentctxError).code, message: (error as AgentctxError).message };
  };
  const newCall = (n: number, text = `question ${n}`): NewModelCall => ({
    invocationId: `inv-${n}`,
    agent: 'a',
    timestamp: 1_700_000_000 + n,
    model: { provider: 'openai', modelId: 'gpt-test' },
    request: {
      system: 'S',
      tools: [],
      messages: [{ role: 'user', content: [{ text }] }],
      config: { model: 'gpt-test' },
    },
    provenance: {
      system: [
        {
          start: 0,
          end: 1,
          source: { kind: 'instruction', processor: 'instructions', agent: 'a', field: 'instruction' },
        },
      ],
      tools: [],
      messages: [[{ kind: 'history', processor: 'contents', agent: 'user', eventIds: [`e${n}`] }]],
    },
    editedByCallback: false,
  });
  const wire = (body: string, extra: Partial<WireRecord> = {}): WireRecord => ({
    url: 'https://api.example.test/v1/chat',
    method: 'POST',
    body,
    status: 200,
    attempts: 1,
    ...extra,
  });
  const answered = (body: string, n = 1): ModelCallOutcome => ({
    status: 'answered',
    latencyMs: 1000 + n,
    wire: wire(body),
    responseEventId: `ev-${n}`,
  });
  const full: ModelCallOutcome = {
    status: 'answered',
    latencyMs: 1234.5,
    firstTokenMs: 210.25,
    response: {
      content: {
        role: 'model',
        parts: [
          { text: 'héllo 👋 こんにちは', thought: true, thoughtSignature: 'c2ln' },
          { functionCall: { id: 'fc-1', name: 'lookup', args: { q: 'x', n: [1, { deep: null }] } } },
        ],
      },
      finishReason: 'STOP',
    },
    usage: {
      promptTokens: 100,
      outputTokens: 20,
      cachedTokens: 30,
      cacheWriteTokens: 10,
      reasoningTokens: 5,
      totalTokens: 120,
    },
    wire: wire(
      '{"model":"gpt-test","messages":[{"role":"user","content":"héllo 👋 \\u0000 こんにちは \\"quoted\\""}],"stream":true}\n',
      {
        status: 200,
        usage: {
          input_tokens: 100,
          output_tokens: 20,
          cache_read_input_tokens: 30,
          details: { reasoning: [5], note: 'ünï' },
        },
        attempts: 2,
      },
    ),
    responseEventId: 'ev-answer',
  };

  it('records a call pending before it is sent, then completes it with every outcome field exactly', async () => {
    const { store, key } = await start();
    const call = { ...newCall(1), parent: { callIndex: 7, functionCallId: 'fc-7', tool: 'researcher' } };
    const index = await store.recordModelCall({ ...key, call });
    expect(await store.getModelCall({ ...key, index })).toEqual({ ...call, index, status: 'pending' });
    await store.completeModelCall({ ...key, index, outcome: full });
    expect(await store.getModelCall({ ...key, index })).toEqual({ ...call, index, ...full });
    expect((await store.getModelCall({ ...key, index }))?.wire?.body).toBe(full.wire?.body);

    const failed: ModelCallOutcome = {
      status: 'failed',
      latencyMs: 12,
      error: 'HTTP 500: upstream exploded',
      response: { errorCode: 'server_error', errorMessage: 'exploded' },
      wire: wire('', { status: 500 }),
    };
    const second = await store.recordModelCall({ ...key, call: newCall(2) });
    await store.completeModelCall({ ...key, index: second, outcome: failed });
    expect(await store.getModelCall({ ...key, index: second })).toEqual({ ...newCall(2), index: second, ...failed });
    const third = await store.recordModelCall({ ...key, call: newCall(3) });
    await store.completeModelCall({
      ...key,
      index: third,
      outcome: { status: 'aborted', latencyMs: 0, error: 'cancelled' },
    });
    expect(await store.getModelCall({ ...key, index: third })).toEqual({
      ...newCall(3),
      index: third,
      status: 'aborted',
      latencyMs: 0,
      error: 'cancelled',
    });
  });

  it('keeps the warnings a call was recorded with, in its record and its summary', async () => {
    const { store, key } = await start();
    const warnings = [
      "toolset 'raw': tool 'bad_ref' is left out: its input schema is invalid",
      "tool definitions take 120 tokens, over this agent's budget of 20 ü",
    ];
    const index = await store.recordModelCall({ ...key, call: { ...newCall(1), warnings } });
    expect((await store.getModelCall({ ...key, index }))?.warnings).toEqual(warnings);
    expect((await store.listModelCalls(key))[0]?.warnings).toEqual(warnings);
    const plain = await store.recordModelCall({ ...key, call: newCall(2) });
    expect(await store.getModelCall({ ...key, index: plain })).not.toHaveProperty('warnings');
  });

  it('stores a call recorded with its status as it is, and will not complete it again', async () => {
    const { store, key } = await start();
    const call: NewModelCall = { ...newCall(1), ...full };
    const index = await store.recordModelCall({ ...key, call });
    expect(await store.getModelCall({ ...key, index })).toEqual({ ...call, index });
    expect(await codeOf(store.completeModelCall({ ...key, index, outcome: answered('{}') }))).toEqual({
      code: 'already_exists',
      message: 'Model call 1 of session s1 has already ended (answered); only a pending call can be completed.',
    });
    expect(await store.getModelCall({ ...key, index })).toEqual({ ...call, index });
  });

  it('keeps the outcome fields of a call recorded pending until its completion replaces them all, once', async () => {
    const { store, key } = await start();
    const early = {
      latencyMs: 5,
      usage: { promptTokens: 1 },
      wire: wire('{"early":true}'),
      responseEventId: 'ev-early',
    };
    const index = await store.recordModelCall({ ...key, call: { ...newCall(1), status: 'pending', ...early } });
    expect(await store.getModelCall({ ...key, index })).toEqual({ ...newCall(1), index, status: 'pending', ...early });
    await store.completeModelCall({ ...key, index, outcome: { status: 'failed', latencyMs: 7, error: 'late' } });
    expect(await store.getModelCall({ ...key, index })).toEqual({
      ...newCall(1),
      index,
      status: 'failed',
      latencyMs: 7,
      error: 'late',
    });
    expect((await codeOf(store.completeModelCall({ ...key, index, outcome: answered('{}') }))).code).toBe(
      'already_exists',
    );
    expect((await store.listModelCalls(key)).map((summary) => summary.status)).toEqual(['failed']);
  });

  it('refuses to complete a call twice, an unknown call, or a call of an unknown session', async () => {
    const { store, key } = await start();
    const index = await store.recordModelCall({ ...key, call: newCall(1) });
    await store.completeModelCall({
      ...key,
      index,
      outcome: { status: 'timed_out', latencyMs: 30_000, error: 'no answer within 30000 ms' },
    });
    expect(await codeOf(store.completeModelCall({ ...key, index, outcome: answered('{}') }))).toEqual({
      code: 'already_exists',
      message: 'Model call 1 of session s1 has already ended (timed_out); only a pending call can be completed.',
    });
    expect((await store.getModelCall({ ...key, index }))?.status).toBe('timed_out');
    expect(await codeOf(store.completeModelCall({ ...key, index: 2, outcome: answered('{}') }))).toEqual({
      code: 'not_found',
      message: 'Model call 2 of session s1 not found.',
    });
    expect(
      (await codeOf(store.completeModelCall({ ...key, sessionId: 'ghost', index: 1, outcome: answered('{}') }))).code,
    ).toBe('not_found');
    expect((await codeOf(store.completeModelCall({ ...key, index: 0, outcome: answered('{}') }))).code).toBe(
      'not_found',
    );
  });

  it('refuses an outcome that is pending, has no status or cannot be stored as JSON, writing nothing of it', async () => {
    const { store, key } = await start();
    const index = await store.recordModelCall({ ...key, call: newCall(1) });
    const bad = [
      { status: 'pending', latencyMs: 1 },
      { status: 'done', latencyMs: 1 },
      { status: 'answered', latencyMs: Number.NaN },
      { status: 'answered', latencyMs: 1, wire: { ...wire('x'), usage: { f: () => 1 } } },
    ];
    for (const outcome of bad)
      expect(
        (await codeOf(store.completeModelCall({ ...key, index, outcome: outcome as ModelCallOutcome }))).code,
      ).toBe('invalid_input');
    expect(
      (await codeOf(store.recordModelCall({ ...key, call: { ...newCall(2), status: 'later' as never } }))).code,
    ).toBe('invalid_input');
    expect(await store.getModelCall({ ...key, index })).toEqual({ ...newCall(1), index, status: 'pending' });
    expect(await store.listModelCalls(key)).toHaveLength(1);
  });

  it('lists calls with their status, latency, usage, model and parent, and without request, response or wire', async () => {
    const { store, key } = await start();
    const parent = { callIndex: 1, functionCallId: 'fc-1', tool: 'researcher' };
    await store.recordModelCall({ ...key, call: newCall(1) });
    await store.completeModelCall({ ...key, index: 1, outcome: full });
    await store.recordModelCall({ ...key, call: { ...newCall(2), agent: 'researcher', parent } });
    const summaries = await store.listModelCalls(key);
    const { request, provenance: _provenance, ...first } = newCall(1);
    const { request: _request2, provenance: _provenance2, ...second } = { ...newCall(2), agent: 'researcher', parent };
    const { response: _response, wire: _wire, ...ended } = full;
    expect(summaries).toEqual([
      { ...first, ...ended, index: 1, requestChars: JSON.stringify(request).length },
      { ...second, index: 2, status: 'pending', requestChars: JSON.stringify(request).length },
    ]);
    for (const summary of summaries)
      for (const field of ['request', 'provenance', 'response', 'wire']) expect(summary).not.toHaveProperty(field);
  });

  it('keeps a call that was never completed readable, with its request, as a process killed during it leaves it', async () => {
    const { store, key } = await start();
    await store.recordModelCall({ ...key, call: newCall(1) });
    await store.completeModelCall({ ...key, index: 1, outcome: answered('{"first":true}') });
    const request = {
      system: 'S',
      tools: [],
      messages: [{ role: 'user' as const, content: [{ text: 'the question the crash cut off ✂️' }] }],
      config: {},
    };
    const index = await store.recordModelCall({ ...key, call: { ...newCall(2), request } });
    const readers = twin === undefined ? [store] : [store, await twin(store)];
    for (const reader of readers) {
      expect((await reader.listModelCalls(key)).map((summary) => summary.status)).toEqual(['answered', 'pending']);
      const pending = await reader.getModelCall({ ...key, index });
      expect(pending).toEqual({ ...newCall(2), request, index, status: 'pending' });
      expect(pending).not.toHaveProperty('latencyMs');
    }
  });

  it('gives back the exact wire body of 30 consecutive calls whose bodies grow', async () => {
    const { store, key } = await start();
    const bodies = growingBodies(30);
    for (const [n, body] of bodies.entries()) {
      const index = await store.recordModelCall({ ...key, call: newCall(n + 1) });
      await store.completeModelCall({ ...key, index, outcome: answered(body, index) });
    }
    for (const [n, body] of bodies.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('gives back exact wire bodies that are empty, repeated, unrelated, or cut inside a character', async () => {
    const { store, key } = await start();
    const long = `{"messages":[${'"héllo 👋 こんにちは",'.repeat(40)}"end"]}`;
    const bodies = [
      long,
      long,
      '',
      long,
      'completely different text that shares nothing whatsoever with what came before it, not even its first letter',
      `${long.slice(0, 200)}\u0000${long.slice(200)}`,
      // Differs from the body before in the low half of a surrogate pair: the difference starts inside a character.
      `${long.slice(0, 200)}\u0000${long.slice(200)}`.replace('👋', '👍'),
      `lone \ud800 surrogate ${long}`,
      long,
    ];
    for (const [n, body] of bodies.entries()) {
      const index = await store.recordModelCall({ ...key, call: newCall(n + 1) });
      await store.completeModelCall({ ...key, index, outcome: answered(body, index) });
    }
    for (const [n, body] of bodies.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('gives back a call recorded with its wire body after the fact, and later bodies built on it', async () => {
    const { store, key } = await start();
    const bodies = growingBodies(4);
    for (const [n, body] of bodies.entries())
      await store.recordModelCall({ ...key, call: { ...newCall(n + 1), ...answered(body, n + 1) } });
    for (const [n, body] of bodies.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('completes calls out of order, in parallel, and after the session was deleted and made again', async () => {
    const { store, key } = await start();
    const bodies = growingBodies(8);
    const indexes = await Promise.all(
      bodies.map((_body, n) => store.recordModelCall({ ...key, call: newCall(n + 1) })),
    );
    await store.completeModelCall({ ...key, index: 5, outcome: answered(bodies[4] as string, 5) });
    await Promise.all(
      [3, 1, 8, 2].map((index) =>
        store.completeModelCall({ ...key, index, outcome: answered(bodies[index - 1] as string, index) }),
      ),
    );
    for (const index of [7, 6, 4])
      await store.completeModelCall({ ...key, index, outcome: answered(bodies[index - 1] as string, index) });
    for (const index of indexes)
      expect((await store.getModelCall({ ...key, index }))?.wire?.body).toBe(bodies[index - 1]);

    await startOver(store, key);
    expect(await store.listModelCalls(key)).toEqual([]);
    expect(await store.getModelCall({ ...key, index: 1 })).toBeUndefined();
    expect((await codeOf(store.completeModelCall({ ...key, index: 1, outcome: answered('{}') }))).code).toBe(
      'not_found',
    );
    const other = growingBodies(3, 'again');
    for (const [n, body] of other.entries()) {
      const index = await store.recordModelCall({ ...key, call: newCall(n + 1) });
      await store.completeModelCall({ ...key, index, outcome: answered(body, index) });
    }
    for (const [n, body] of other.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  if (twin !== undefined) {
    it('completes through a second store a call the first recorded, and both give back every body exactly', async () => {
      const { store: first, key } = await start();
      const second = await twin(first);
      const bodies = growingBodies(12);
      for (const [n, body] of bodies.entries()) {
        // Calls alternate between the stores, and each is completed by the store that did not record it.
        const [recorder, completer] = n % 3 === 0 ? [first, second] : [second, first];
        const index = await recorder.recordModelCall({ ...key, call: newCall(n + 1) });
        await completer.completeModelCall({ ...key, index, outcome: answered(body, index) });
      }
      for (const reader of [first, second])
        for (const [n, body] of bodies.entries())
          expect((await reader.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
      expect((await codeOf(second.completeModelCall({ ...key, index: 2, outcome: answered('{}') }))).code).toBe(
        'already_exists',
      );
    });

    it('gives back the exact body when the call a store would build on was deleted and made again by another store', async () => {
      const { store: first, key } = await start();
      const second = await twin(first);
      const shared = growingBodies(3);
      for (const [n, body] of shared.entries()) {
        await first.recordModelCall({ ...key, call: newCall(n + 1) });
        await first.completeModelCall({ ...key, index: n + 1, outcome: answered(body, n + 1) });
      }
      // The second store makes the session again, with calls of the same times and body lengths but other text.
      await startOver(second, key);
      const replaced = shared.map((body) => body.replace(/turn/g, 'TURN'));
      for (const [n, body] of replaced.entries()) {
        await second.recordModelCall({ ...key, call: newCall(n + 1) });
        await second.completeModelCall({ ...key, index: n + 1, outcome: answered(body, n + 1) });
      }
      const next = growingBodies(4)[3] as string;
      const index = await first.recordModelCall({ ...key, call: newCall(4) });
      await first.completeModelCall({ ...key, index, outcome: answered(next, index) });
      for (const reader of [first, second]) {
        expect((await reader.getModelCall({ ...key, index }))?.wire?.body).toBe(next);
        for (const [n, body] of replaced.entries())
          expect((await reader.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
      }
    });
  }
}

/** Provider-style bodies of consecutive calls: the history grows at its end; model, tools and options repeat around it. */
function growingBodies(count: number, seed = 'turn'): string[] {
  const history: { role: string; content: string }[] = [];
  const tools = [
    {
      name: 'lookup',
      description: 'Looks things up — «vite» ✓',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    },
  ];
  return Array.from({ length: count }, (_, n) => {
    history.push({
      role: n % 2 === 0 ? 'user' : 'assistant',
      content: `${seed} ${n}: ${'ünïcödé 漢字 🎉 '.repeat(n % 5)}${'x'.repeat(n * 7)}`,
    });
    return JSON.stringify({ model: 'gpt-test', messages: history, tools, temperature: 0.2, stream: true });
  });
}
