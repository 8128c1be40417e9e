import { describe, expect, it } from 'vitest';
import type { Model, ModelCallOptions, ModelMiddleware, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { wrapModel } from './wrap-model.js';

const request: LlmRequest = { system: '', tools: [], messages: [], config: {} };
const text = (value: string) => ({ content: { role: 'model' as const, parts: [{ text: value }] } });

function recordingModel(seen: (ModelCallOptions | undefined)[]): Model {
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'm',
    pairsCallsById: true,
    async generate(_request, options) {
      seen.push(options);
      return text(`from ${this.modelId}`);
    },
    async *stream(): AsyncGenerator<ModelStreamChunk> {
      yield { ...text('whole'), partial: false };
    },
    countTokens: async () => 7,
  };
}

describe('wrapModel', () => {
  it('keeps what describes the model, and leaves out what the model lacks', () => {
    const full = wrapModel(recordingModel([]), {});
    expect(full).toMatchObject({ specificationVersion: 'v1', provider: 'test', modelId: 'm', pairsCallsById: true });
    const bare = wrapModel(
      { specificationVersion: 'v1', provider: 'p', modelId: 'x', generate: async () => ({}) },
      { stream: ({ request: r, next }) => next(r), countTokens: async () => 1 },
    );
    expect(Object.keys(bare).sort()).toEqual(['generate', 'modelId', 'provider', 'specificationVersion']);
  });

  it('passes unwrapped methods straight through, bound to their model', async () => {
    const model = wrapModel(recordingModel([]), {
      countTokens: async ({ request: r, options, next }) => (await next(r, options)) * 2,
    });
    expect(await model.generate(request)).toEqual(text('from m'));
    expect(await model.countTokens?.(request)).toBe(14);
    const chunks: ModelStreamChunk[] = [];
    for await (const chunk of model.stream?.(request) ?? []) chunks.push(chunk);
    expect(chunks).toEqual([{ ...text('whole'), partial: false }]);
  });

  it('hands a wrapper the call and the wrapped model, and lets it call on with other options', async () => {
    const seen: (ModelCallOptions | undefined)[] = [];
    const inner = recordingModel(seen);
    const controller = new AbortController();
    const model = wrapModel(inner, {
      generate: async (call) => {
        expect(call.model).toBe(inner);
        expect(call.request).toBe(request);
        expect(call.options).toEqual({ agentName: 'a' });
        return call.next(call.request, { ...call.options, signal: controller.signal });
      },
    });
    await model.generate(request, { agentName: 'a' });
    expect(seen).toEqual([{ agentName: 'a', signal: controller.signal }]);
  });

  it('stacks: the outer middleware runs first', async () => {
    const order: string[] = [];
    const log = (name: string): ModelMiddleware => ({
      generate: ({ request: r, options, next }) => (order.push(name), next(r, options)),
    });
    await wrapModel(wrapModel(recordingModel([]), log('inner')), log('outer')).generate(request);
    expect(order).toEqual(['outer', 'inner']);
  });
});
