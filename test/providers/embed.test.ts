import { afterEach, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { WireRequest, WireResponse } from '../../src/contracts/model.js';
import { costOfCall } from '../../src/analysis/cost/call-cost.js';
import { createGeminiModel } from '../../src/models/gemini/index.js';
import { createOpenAIModel } from '../../src/models/openai/openai-model.js';
import { wrapModel } from '../../src/models/shared/wrap-model.js';
import { fakeServers, localOpenAIEmbedder } from './fake-server.js';

// Issue 45, part 1: an optional `embed(texts)` on models (text → vector, for semantic memory), on the OpenAI and Gemini
// adapters, through each provider's SDK to a local server speaking its protocol: the wire told, retried, priced.

const { serve, closeAll } = fakeServers();
afterEach(() => closeAll());

function observer() {
  const seen: { requests: WireRequest[]; responses: WireResponse[] } = { requests: [], responses: [] };
  return {
    seen,
    wire: {
      request: (sent: WireRequest) => void seen.requests.push(sent),
      response: (got: WireResponse) => void seen.responses.push(got),
    },
  };
}

describe('embed', () => {
  it('OpenAI: /v1/embeddings with floats asked for by name, vectors in the texts’ order, usage, the wire told, and a price from the table', async () => {
    const usage = { prompt_tokens: 7, total_tokens: 7 };
    const server = await serve(() => ({
      json: {
        object: 'list',
        model: 'text-embedding-3-small',
        data: [
          { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
          { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        ],
        usage,
      },
    }));
    const model = localOpenAIEmbedder(server.url);
    const { seen, wire } = observer();
    const answer = await model.embed?.(['hello', 'world'], { dimensions: 2, wire });
    expect(answer).toEqual({
      embeddings: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      usage: { promptTokens: 7, outputTokens: 0, totalTokens: 7 },
    });
    expect(server.received[0]?.url).toBe('/v1/embeddings');
    expect(server.received[0]?.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['hello', 'world'],
      encoding_format: 'float',
      dimensions: 2,
    });
    expect(seen.requests.map((sent) => JSON.parse(sent.body))).toEqual([server.received[0]?.body]);
    expect(seen.responses).toEqual([{ status: 200, usage }]);
    const table = {
      currency: 'USD' as const,
      perTokens: 1_000_000,
      models: [
        {
          provider: 'openai',
          model: 'text-embedding-3-small',
          input: 0.02,
          output: 0.02,
          source: 'https://example.test/prices',
          date: '2026-12-07',
        },
      ],
    };
    expect(costOfCall(model, answer?.usage, table).usd?.total).toBeCloseTo((7 * 0.02) / 1_000_000, 12);
  });

  it('Gemini: batchEmbedContents with the task type and dimensions, one vector per text', async () => {
    const server = await serve(() => ({ json: { embeddings: [{ values: [0.1, 0.2] }, { values: [0.3, 0.4] }] } }));
    const model = createGeminiModel({
      model: 'gemini-embedding-001',
      apiKey: 'k',
      baseURL: server.url,
      env: {},
      retry: false,
    });
    expect(await model.embed?.(['a', 'b'], { purpose: 'document', dimensions: 2 })).toEqual({
      embeddings: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
    });
    expect(server.received[0]?.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    const each = (text: string) => ({
      content: { role: 'user', parts: [{ text }] },
      taskType: 'RETRIEVAL_DOCUMENT',
      outputDimensionality: 2,
      model: 'models/gemini-embedding-001',
    });
    expect(server.received[0]?.body).toEqual({ requests: [each('a'), each('b')] });
  });

  it('asks nothing for no texts, retries a 503, and refuses an answer with a vector missing', async () => {
    const failing = await serve((_request, index) =>
      index === 0
        ? { status: 503, json: { error: { message: 'busy' } } }
        : { json: { data: [{ index: 0, embedding: [1] }], usage: { prompt_tokens: 1, total_tokens: 1 } } },
    );
    const model = createOpenAIModel({
      model: 'text-embedding-3-small',
      apiKey: 'k',
      baseURL: `${failing.url}/v1`,
      env: {},
      retry: { maxRetries: 2, initialDelayMs: 1 },
    });
    expect(await model.embed?.([])).toEqual({ embeddings: [] });
    expect(failing.received).toHaveLength(0);
    expect((await model.embed?.(['x']))?.embeddings).toEqual([[1]]);
    expect(failing.received).toHaveLength(2);
    const short = await serve(() => ({ json: { data: [{ index: 0, embedding: [1] }] } }));
    const shortModel = localOpenAIEmbedder(short.url);
    const error = await shortModel.embed?.(['x', 'y']).catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error) && error.message).toContain('asked for 2 embeddings, got 1');
  });

  it('passes through middleware, which may wrap it like any other method', async () => {
    const server = await serve(() => ({ json: { data: [{ index: 0, embedding: [1] }] } }));
    const model = localOpenAIEmbedder(server.url);
    const seen: string[][] = [];
    const wrapped = wrapModel(model, {
      embed: ({ texts, options, next }) => (
        seen.push([...texts]),
        next(
          texts.map((text) => text.toUpperCase()),
          options,
        )
      ),
    });
    await wrapped.embed?.(['quiet']);
    expect(seen).toEqual([['quiet']]);
    expect((server.received[0]?.body as { input: string[] }).input).toEqual(['QUIET']);
    expect(wrapModel(createGeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', env: {} }), {}).embed).toBeTypeOf(
      'function',
    );
  });
});
