import { afterEach, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { EmbedResponse } from '../../src/contracts/model.js';
import type { Plugin } from '../../src/index.js';
import { costOfCalls } from '../../src/analysis/cost/session-cost.js';
import { formatCallTree } from '../../src/cli/format-call.js';
import { createStyle } from '../../src/cli/style.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { fakeServers, localOpenAIEmbedder } from './fake-server.js';

// Issue 45, part 1: an embedding call made during an invocation (context.embed) is recorded in the call log like a
// model call — operation `embeddings`, the texts, the usage, the exact wire body — and priced like one.

const { serve, closeAll } = fakeServers();
afterEach(() => closeAll());

describe('context.embed', () => {
  it('records the call in the session, with its texts, usage and wire, and prices it', async () => {
    const usage = { prompt_tokens: 6, total_tokens: 6 };
    const server = await serve(() => ({
      json: {
        data: [
          { index: 0, embedding: [0.1] },
          { index: 1, embedding: [0.2] },
        ],
        usage,
      },
    }));
    const embedder = localOpenAIEmbedder(server.url);
    let vectors: EmbedResponse | undefined;
    const remember: Plugin = {
      name: 'remember',
      hooks: {
        beforeRun: async ({ context }) =>
          void (vectors = await context.embed(embedder, ['first note', 'second note'], {
            agent: 'helper',
            purpose: 'document',
          })),
      },
    };
    const runner = createRunner({
      agents: llmAgent({ name: 'helper', instruction: 'Help.' }),
      model: createScriptedModel([{ text: 'ok' }]),
      plugins: [remember],
      telemetry: undefined,
    });
    await runner.createSession({ userId: 'u', sessionId: 's' });
    for await (const _event of runner.run({ userId: 'u', sessionId: 's', message: 'hi' })) void _event;
    expect(vectors?.embeddings).toEqual([[0.1], [0.2]]);

    const key = { appName: 'helper', userId: 'u', sessionId: 's' };
    const calls = await runner.sessions.listModelCalls(key);
    expect(calls.map((call) => [call.index, call.operation, call.agent, call.status])).toEqual([
      [1, 'embeddings', 'helper', 'answered'],
      [2, undefined, 'helper', 'answered'],
    ]);
    const recorded = await runner.sessions.getModelCall({ ...key, index: 1 });
    expect(recorded?.request.messages).toEqual([
      { role: 'user', content: [{ text: 'first note' }, { text: 'second note' }] },
    ]);
    expect(recorded?.model).toEqual({ provider: 'openai', modelId: 'text-embedding-3-small' });
    expect(recorded?.usage).toEqual({ promptTokens: 6, outputTokens: 0, totalTokens: 6 });
    expect(recorded?.wire?.body).toBe(server.received[0]?.rawBody);
    const table = {
      currency: 'USD' as const,
      perTokens: 1_000_000,
      models: [
        {
          provider: 'openai',
          model: 'text-embedding-3-small',
          input: 0.02,
          output: 0.02,
          source: 'https://example.test',
          date: '2026-12-07',
        },
      ],
    };
    expect(costOfCalls([calls[0] as (typeof calls)[number]], table).total.usd).toBeCloseTo((6 * 0.02) / 1_000_000, 12);
    // inspect's list of the session's calls says which one embedded.
    const listed = formatCallTree(calls, 's', createStyle(false)).split('\n');
    expect(listed.find((line) => line.trimStart().startsWith('1 '))).toMatch(
      /^\s+1 {2}answered +helper embeddings {2}/,
    );
    expect(listed.find((line) => line.trimStart().startsWith('2 '))).not.toContain('embeddings');
  });

  it('refuses a model that cannot embed, and records a failed call as failed', async () => {
    const failing = await serve(() => ({ status: 400, json: { error: { message: 'bad input' } } }));
    const embedder = localOpenAIEmbedder(failing.url);
    const errors: unknown[] = [];
    const plugin: Plugin = {
      name: 'tries',
      hooks: {
        beforeRun: async ({ context }) => {
          await context.embed(createScriptedModel([]), ['x']).catch((error: unknown) => errors.push(error));
          await context.embed(embedder, ['x']).catch((error: unknown) => errors.push(error));
        },
      },
    };
    const runner = createRunner({
      agents: llmAgent({ name: 'helper' }),
      model: createScriptedModel([{ text: 'ok' }]),
      plugins: [plugin],
      telemetry: undefined,
    });
    await runner.createSession({ userId: 'u', sessionId: 's' });
    for await (const _event of runner.run({ userId: 'u', sessionId: 's', message: 'hi' })) void _event;
    expect(AgentctxError.isInstance(errors[0]) && errors[0].message).toBe(
      'Invalid embedding call: model: scripted:scripted cannot embed (it has no embed method)',
    );
    expect(AgentctxError.isInstance(errors[1]) && errors[1].code).toBe('model_error');
    const calls = await runner.sessions.listModelCalls({ appName: 'helper', userId: 'u', sessionId: 's' });
    expect(calls.map((call) => [call.operation, call.status])).toEqual([
      ['embeddings', 'failed'],
      [undefined, 'answered'],
    ]);
  });
});
