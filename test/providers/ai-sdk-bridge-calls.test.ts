import { createAnthropic } from '@ai-sdk/anthropic';
import { createMistral } from '@ai-sdk/mistral';
import type { LanguageModelV2, LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/contracts/errors/model-error.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { Model, ModelResponse, ModelStreamChunk } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { createAiSdkModel, recordingFetch } from '../../src/models/ai-sdk/index.js';
import { anthropicReply, chatCompletionsReply } from './ai-sdk-protocols.js';
import { fakeServers, type FakeReply, type FakeServer } from './fake-server.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';

// The bridge call by call: reasoning and its signature round-tripped through part metadata, files, provider options,
// errors as ModelErrors, refusals before anything is sent, what the wire observer is told, and a model of the
// specification's version 2.

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

const claude = (server: FakeServer, retry: false | { initialDelayMs: number } = false) =>
  createAiSdkModel(
    createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'sk-ant-local', fetch: recordingFetch() })(
      'claude-sonnet-5-5',
    ),
    {
      retry,
    },
  );

const ASK: LlmRequest = {
  system: 'Be brief.',
  tools: [],
  messages: [{ role: 'user', content: [{ text: 'Hi?' }] }],
  config: { maxOutputTokens: 256 },
};

async function streamed(model: Model, request: LlmRequest): Promise<ModelStreamChunk[]> {
  const chunks: ModelStreamChunk[] = [];
  for await (const chunk of model.stream?.(request) ?? []) chunks.push(chunk);
  return chunks;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('the AI SDK bridge: reasoning', () => {
  const thinking = { text: 'Oslo is cold in winter.', signature: 'c2lnLW9zbG8=' };
  const turn = { thinking, text: 'Cold.', usage: { input_tokens: 10, output_tokens: 20 } };
  const expected: ModelResponse['content'] = {
    role: 'model',
    parts: [
      { text: thinking.text, thought: true, providerMetadata: { anthropic: { signature: thinking.signature } } },
      { text: 'Cold.' },
    ],
  };

  it.each([false, true])(
    'comes back as thoughts with their signature, which go back to the provider (streaming: %s)',
    async (streaming) => {
      // Each answer in the form asked for: the follow-up is not streamed.
      const server = await serve((request, index) =>
        anthropicReply(
          index === 0 ? turn : { text: 'Yes.', usage: turn.usage },
          (request.body as { stream?: boolean }).stream === true,
          'claude-sonnet-5-5',
        ),
      );
      const model = claude(server);
      const chunks = streaming ? await streamed(model, ASK) : [{ ...(await model.generate(ASK)), partial: false }];
      const response = chunks.at(-1);
      expect(response?.content).toEqual(expected);
      expect(response?.finishReason).toBe('end_turn');
      // Thoughts are not shown as they come; the text is.
      expect(chunks.filter((chunk) => chunk.partial).map((chunk) => chunk.content?.parts)).toEqual(
        streaming ? [[{ text: 'Cold.' }]] : [],
      );

      const followUp: LlmRequest = {
        ...ASK,
        messages: [
          ...ASK.messages,
          { role: 'model', content: expected?.parts ?? [] },
          { role: 'user', content: [{ text: 'Sure?' }] },
        ],
      };
      await model.generate(followUp);
      const sent = server.received.at(-1)?.body as { messages: { role: string; content: unknown }[] };
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: thinking.text, signature: thinking.signature },
          { type: 'text', text: 'Cold.' },
        ],
      });
    },
  );
});

describe('the AI SDK bridge: what is sent', () => {
  it('sends images as the provider takes them, and provider options as given', async () => {
    const server = await serve(() =>
      chatCompletionsReply(
        { text: 'A cat.', usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
        false,
        'pixtral-large-latest',
      ),
    );
    const model = createAiSdkModel(
      createMistral({ baseURL: `${server.url}/v1`, apiKey: 'mistral-key', fetch: recordingFetch() })(
        'pixtral-large-latest',
      ),
    );
    const response = await model.generate({
      ...ASK,
      messages: [
        {
          role: 'user',
          content: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
        },
      ],
      config: { temperature: 0.1, providerOptions: { mistral: { safePrompt: true } } },
    });
    expect(response.content).toEqual({ role: 'model', parts: [{ text: 'A cat.' }] });
    const body = server.received[0]?.body as Record<string, unknown>;
    expect(body['safe_prompt']).toBe(true);
    expect(body['temperature']).toBe(0.1);
    expect(body['messages']).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        ],
      },
    ]);
  });

  it('refuses, unsent, what the AI SDK has no setting for and tools a provider runs itself', async () => {
    const server = await serve(() => ({ status: 500 }));
    const model = claude(server);
    const refused = await failure(
      model.generate({ ...ASK, config: { safetySettings: [{ category: 'X', threshold: 'Y' }] } }),
    );
    expect(ValidationError.isInstance(refused) && refused.message).toMatch(/config\.safetySettings/);
    const builtIn = await failure(
      model.generate({ ...ASK, builtInTools: [{ provider: 'anthropic', type: 'web_search_20250305' }] }),
    );
    expect(ValidationError.isInstance(builtIn)).toBe(true);
    const fileName = await failure(
      model.generate({ ...ASK, messages: [{ role: 'user', content: [{ fileData: { fileUri: 'files/abc' } }] }] }),
    );
    expect(ValidationError.isInstance(fileName) && fileName.message).toMatch(/messages\[0\]\.content\[0\]\.fileData/);
    expect(server.received).toHaveLength(0);
  });

  it('passes on, as a refusal, what the provider package cannot write (Mistral and an audio file)', async () => {
    const server = await serve(() => ({ status: 500 }));
    const model = createAiSdkModel(
      createMistral({ baseURL: `${server.url}/v1`, apiKey: 'mistral-key', fetch: recordingFetch() })('mistral-small'),
      { retry: { initialDelayMs: 1 } },
    );
    const audio = { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } };
    const error = await failure(model.generate({ ...ASK, messages: [{ role: 'user', content: [audio] }] }));
    expect(ValidationError.isInstance(error) && error.message).toMatch(
      /^Invalid mistral\.chat through the AI SDK request/,
    );
    expect(server.received).toHaveLength(0);
  });

  it('sends a file given by URL as a URL', async () => {
    const server = await serve(() =>
      anthropicReply({ text: 'A cat.', usage: { input_tokens: 5, output_tokens: 2 } }, false, 'claude-sonnet-5-5'),
    );
    const image = { fileUri: 'https://example.test/cat.png', mimeType: 'image/png' };
    await claude(server).generate({ ...ASK, messages: [{ role: 'user', content: [{ fileData: image }] }] });
    const sent = server.received[0]?.body as { messages: { content: unknown[] }[] };
    expect(sent.messages[0]?.content).toEqual([{ type: 'image', source: { type: 'url', url: image.fileUri } }]);
  });

  it('places cache breakpoints where the stable prefix ends, and none after a system text that changes', async () => {
    const server = await serve(() =>
      anthropicReply({ text: 'Ok.', usage: { input_tokens: 5, output_tokens: 1 } }, false, 'claude-sonnet-5-5'),
    );
    const model = createAiSdkModel(
      createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'sk-ant-local', fetch: recordingFetch() })(
        'claude-sonnet-5-5',
      ),
      { retry: false, cacheBreakpoint: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
    );
    const request: LlmRequest = {
      ...ASK,
      messages: [
        { role: 'user', content: [{ text: 'One.' }] },
        { role: 'model', content: [{ text: 'Two.' }] },
        { role: 'user', content: [{ text: 'Three?' }] },
      ],
    };
    await model.generate(request, { stablePrefix: { systemChars: ASK.system.length, messages: 2 } });
    await model.generate(request, { stablePrefix: { systemChars: 2, messages: 2 } });
    const marked = (index: number) =>
      JSON.stringify(server.received[index]?.body).match(/"cache_control"/g)?.length ?? 0;
    const first = server.received[0]?.body as { system: unknown; messages: { content: unknown }[] };
    expect(first.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    expect(first.messages[1]?.content).toEqual([{ type: 'text', text: 'Two.', cache_control: { type: 'ephemeral' } }]);
    expect(marked(0)).toBe(2);
    expect(marked(1)).toBe(0);
  });
});

describe('the AI SDK bridge: errors', () => {
  const anthropicError = (status: number, type: string, headers: Record<string, string> = {}): FakeReply => ({
    status,
    json: { type: 'error', error: { type, message: `${type} happened` } },
    headers,
  });

  it('maps an error status to a ModelError with the provider message, retrying what is worth it', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? anthropicError(429, 'rate_limit_error', { 'retry-after': '0' })
        : anthropicReply({ text: 'Ok.', usage: { input_tokens: 1, output_tokens: 1 } }, false, 'claude-sonnet-5-5'),
    );
    const { wire, seen } = recordWire();
    const response = await claude(server, { initialDelayMs: 1 }).generate(ASK, { wire });
    expect(response.content).toEqual({ role: 'model', parts: [{ text: 'Ok.' }] });
    expectRecordedAsReceived(seen, server);
    expect(seen[1]).toEqual(['response', { status: 429 }]);

    const denied = await serve(() => anthropicError(401, 'authentication_error'));
    const error = await failure(claude(denied).generate(ASK));
    expect(ModelError.isInstance(error)).toBe(true);
    const failed = error as ModelError;
    expect([failed.status, failed.retryable, failed.providerMessage]).toEqual([
      401,
      false,
      'authentication_error happened',
    ]);
    expect(failed.hint).toMatch(/API key/);
  });

  it('reports a refused connection as a retryable ModelError', async () => {
    const server = await serve(() => ({ json: {} }));
    const url = server.url;
    await closeAll();
    const model = createAiSdkModel(
      createAnthropic({ baseURL: `${url}/v1`, apiKey: 'k', fetch: recordingFetch() })('claude-sonnet-5-5'),
      { retry: false },
    );
    const error = await failure(model.generate(ASK));
    expect(ModelError.isInstance(error) && [error.retryable, error.status]).toEqual([true, undefined]);
  });

  it("makes a stream's error event a ModelError", async () => {
    const server = await serve(() => ({
      events: [{ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }],
    }));
    const error = await failure(streamed(claude(server), ASK));
    expect(ModelError.isInstance(error) && [error.providerMessage, error.retryable]).toEqual(['Overloaded', true]);
  });
});

describe('the AI SDK bridge: the wire', () => {
  it("tells each call's observer its own request and the provider's usage, calls made at once kept apart", async () => {
    const usage = { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const server = await serve(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return anthropicReply(
        { text: JSON.stringify((request.body as { system: unknown }).system), usage },
        false,
        'claude-sonnet-5-5',
      );
    });
    const model = claude(server);
    const records = [recordWire(), recordWire(), recordWire()];
    await Promise.all(
      records.map((record, index) => model.generate({ ...ASK, system: `System ${index}` }, { wire: record.wire })),
    );
    for (const [index, record] of records.entries()) {
      expect(record.requests()).toHaveLength(1);
      expect(JSON.parse(record.requests()[0]?.body ?? '{}').system).toEqual([
        { type: 'text', text: `System ${index}` },
      ]);
      expect(record.responses()).toEqual([{ status: 200, usage }]);
    }
  });

  it('passes requests made outside a bridged call through unrecorded', async () => {
    const server = await serve(() => ({ json: { ok: true } }));
    const response = await recordingFetch()(`${server.url}/ping`, { method: 'POST', body: '{}' });
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe('the AI SDK bridge: specification version 2', () => {
  it('sends files bare and reads flat usage and a unified finish reason', async () => {
    const seen: LanguageModelV2CallOptions[] = [];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'legacy.chat',
      modelId: 'legacy-1',
      supportedUrls: {},
      async doGenerate(options) {
        seen.push(options);
        return {
          content: [
            { type: 'reasoning', text: 'Hm.' },
            { type: 'tool-call', toolCallId: 't1', toolName: 'look', input: '{"at":"it"}' },
          ],
          finishReason: 'tool-calls',
          usage: { inputTokens: 30, outputTokens: 8, totalTokens: 38, cachedInputTokens: 10, reasoningTokens: 2 },
          warnings: [{ type: 'other', message: 'temperature ignored' }],
        };
      },
      doStream: () => Promise.reject(new Error('not used')),
    };
    const model = createAiSdkModel(v2, { retry: false });
    expect([model.provider, model.modelId]).toEqual(['legacy', 'legacy-1']);
    const response = await model.generate({
      ...ASK,
      messages: [{ role: 'user', content: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }],
    });
    expect(seen[0]?.prompt[1]).toEqual({
      role: 'user',
      content: [{ type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
    });
    expect(response).toEqual({
      content: {
        role: 'model',
        parts: [{ text: 'Hm.', thought: true }, { functionCall: { id: 't1', name: 'look', args: { at: 'it' } } }],
      },
      usage: { promptTokens: 30, outputTokens: 8, cachedTokens: 10, reasoningTokens: 2, totalTokens: 38 },
      finishReason: 'tool-calls',
      providerMetadata: { aiSdk: { warnings: [{ type: 'other', message: 'temperature ignored' }] } },
    });
  });

  it('refuses what is not a language model of a version it speaks, in one line', () => {
    expect(() => createAiSdkModel({ specificationVersion: 'v1' } as unknown as LanguageModelV2)).toThrow(
      /specification v2, v3 or v4; got specification v1/,
    );
  });
});
