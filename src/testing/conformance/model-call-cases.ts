import { expect, it } from 'vitest';
import type { ModelCallOutcome, NewModelCall } from '../../contracts/model-call.js';
import { modelCallFixtures, type CallLogSetup, type TwinLog } from './model-call-fixtures.js';
import { wireBodyCases } from './wire-body-cases.js';

export type { TwinLog } from './model-call-fixtures.js';

/**
 * The model-call lifecycle: a call is recorded `pending` before it is sent and completed once, with everything that
 * came back, exactly as given. The wire bodies it gives back are `wireBodyCases`'.
 */
export function modelCallCases(setup: CallLogSetup, twin: TwinLog | undefined): void {
  const { start, codeOf, newCall, wire, answered, full } = modelCallFixtures(setup);
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
  wireBodyCases(setup, twin);
}
