import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/contracts/errors/model-error.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { Model, ModelStreamChunk, WireObserver } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { isOpenAIReasoningModel } from '../../src/models/openai/reasoning-models.js';
import {
  createOpenAIResponsesModel,
  type OpenAIResponsesModelSettings,
} from '../../src/models/openai/responses-model.js';
import { toResponsesInput } from '../../src/models/openai/to-responses-request.js';
import { parseModelString } from '../../src/models/registry/model-string.js';
import { resolveModel } from '../../src/models/registry/resolve-model.js';
import { fakeServers, type FakeReply, type FakeServer } from './fake-server.js';
import { GOLDEN_REQUEST } from './golden-request.js';
import { startResponsesServer, type ResponsesServer, type ResponsesTurn } from './responses-server.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';

// Issue 51, part 1: OpenAI's Responses API, stateless. Bodies, answers, streams, refusals and errors against local
// servers that speak the protocol; the tool loop through the runner is in openai-responses-loop.test.ts.

// The SDK reads OPENAI_* from process.env itself: none may leak in.
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const key of Object.keys(process.env))
    if (key.startsWith('OPENAI_')) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
});
afterAll(() => Object.assign(process.env, saved));

const { serve, closeAll } = fakeServers();
const started: ResponsesServer[] = [];
afterEach(async () => {
  await closeAll();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function responsesServer(script: (index: number) => ResponsesTurn): Promise<ResponsesServer> {
  const server = await startResponsesServer((_body, index) => script(index));
  started.push(server);
  return server;
}

function model(server: FakeServer, settings: Partial<OpenAIResponsesModelSettings> = {}): Model {
  return createOpenAIResponsesModel({
    model: 'gpt-5',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    env: {},
    retry: false,
    ...settings,
  });
}

async function streamAll(given: Model, request: LlmRequest, wire?: WireObserver): Promise<ModelStreamChunk[]> {
  const chunks: ModelStreamChunk[] = [];
  for await (const chunk of given.stream?.(request, { wire }) ?? []) chunks.push(chunk);
  return chunks;
}

// The golden request without its stop sequences, which the Responses API has no field for.
const { stopSequences: _stop, ...GOLDEN_CONFIG } = GOLDEN_REQUEST.config;
const GOLDEN: LlmRequest = { ...GOLDEN_REQUEST, config: GOLDEN_CONFIG };
const SEALED = 'gAAAAB-sealed-reasoning';

const THINK_AND_CALL: ResponsesTurn = {
  reasoning: { summaries: ['Weather first.', 'Then the time.'], tokens: 64 },
  calls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { name: 'get_time', arguments: { city: 'Paris' } },
  ],
};

describe('OpenAI Responses adapter: request bodies', () => {
  it('sends the golden request as a stateless Responses body: instructions, flat strict-when-possible tools, input items', async () => {
    const server = await responsesServer(() => ({ text: 'ok' }));
    const before = structuredClone(GOLDEN);
    await model(server).generate(GOLDEN);
    const [received] = server.received;
    expect(received?.url).toBe('/v1/responses');
    expect(received?.headers['authorization']).toBe('Bearer sk-test');
    expect(received?.body).toEqual({
      model: 'gpt-5',
      instructions: GOLDEN.system,
      input: [
        { role: 'user', content: 'Weather and time in Paris?' },
        // The thought came from another provider (a signature, no OpenAI item): it is not sent.
        { role: 'assistant', content: 'Let me check.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temperature":18,"sky":"clear"}' },
        { type: 'function_call_output', call_id: 'call_2', output: '{"time":"14:05"}' },
        { role: 'assistant', content: 'It is 18 °C and clear; the time is 14:05.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'And what is in this picture?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          ],
        },
      ],
      tools: GOLDEN.tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: false,
      })),
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 512,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(GOLDEN).toEqual(before);
  });

  it('sends OpenAI reasoning back with its encrypted content (summaries joined again), and leaves out reasoning it cannot send', () => {
    const input = toResponsesInput([
      { role: 'user', content: [{ text: 'Q' }] },
      {
        role: 'model',
        content: [
          { text: 'One.', thought: true, providerMetadata: { openai: { itemId: 'rs_1', encryptedContent: SEALED } } },
          { text: 'Two.', thought: true, providerMetadata: { openai: { itemId: 'rs_1' } } },
          { functionCall: { id: 'call_a', name: 'f', args: {} } },
          // Stored on OpenAI's side only (no encrypted content): naming it would fail with store false.
          { text: '', thought: true, providerMetadata: { openai: { itemId: 'rs_2' } } },
          { text: 'Done ' },
          { text: 'Plain thought.', thought: true },
          { text: 'now.' },
        ],
      },
    ]);
    expect(input).toEqual([
      { role: 'user', content: 'Q' },
      {
        type: 'reasoning',
        id: 'rs_1',
        encrypted_content: SEALED,
        summary: [
          { type: 'summary_text', text: 'One.' },
          { type: 'summary_text', text: 'Two.' },
        ],
      },
      { type: 'function_call', call_id: 'call_a', name: 'f', arguments: '{}' },
      { role: 'assistant', content: 'Done now.' },
    ]);
  });

  it('maps the config: text.format, tool_choice, reasoning, metadata, image detail, built-in tools; providerOptions.openai over them', async () => {
    const server = await responsesServer(() => ({ text: '{"answer":"x"}' }));
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };
    await model(server).generate({
      ...GOLDEN,
      tools: [{ name: 'f', description: 'F.', parameters: schema }],
      builtInTools: [{ provider: 'openai', type: 'web_search', settings: { search_context_size: 'low' } }],
      config: {
        responseSchema: schema,
        toolChoice: { name: 'f' },
        thinking: { effort: 'high', includeThoughts: true },
        labels: { team: 'weather' },
        mediaResolution: 'low',
        topK: 40,
        providerOptions: { openai: { service_tier: 'flex' }, anthropic: { ignored: true } },
      },
    });
    const body = server.received[0]?.body as Record<string, unknown>;
    expect(body['text']).toEqual({ format: { type: 'json_schema', name: 'response', schema, strict: true } });
    expect(body['tool_choice']).toEqual({ type: 'function', name: 'f' });
    expect(body['reasoning']).toEqual({ effort: 'high', summary: 'auto' });
    expect(body['metadata']).toEqual({ team: 'weather' });
    expect(body['tools']).toEqual([
      { type: 'function', name: 'f', description: 'F.', parameters: schema, strict: true },
      { type: 'web_search', search_context_size: 'low' },
    ]);
    expect(JSON.stringify(body['input'])).toContain('"detail":"low"');
    expect(body['service_tier']).toBe('flex');
    expect(body).not.toHaveProperty('top_k');
    expect(body).not.toHaveProperty('ignored');
  });

  it('refuses, unsent, what the Responses API has no field for', async () => {
    const server = await responsesServer(() => ({ text: 'ok' }));
    const refused = async (config: LlmRequest['config'], field: string) => {
      const error = await model(server)
        .generate({ ...GOLDEN, config })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain(field);
    };
    await refused({ stopSequences: ['END'] }, 'config.stopSequences');
    await refused({ seed: 7 }, 'config.seed');
    await refused({ presencePenalty: 0.5 }, 'config.presencePenalty');
    await refused({ candidateCount: 2 }, 'config.candidateCount');
    await refused({ thinking: { budgetTokens: 1024 } }, 'config.thinking.budgetTokens');
    await refused({ mediaResolution: 'medium' }, 'config.mediaResolution');
    const foreign = await model(server)
      .generate({ ...GOLDEN, builtInTools: [{ provider: 'google', type: 'googleSearch' }] })
      .catch((e: unknown) => e);
    expect((foreign as Error).message).toContain('builtInTools[0]');
    expect(server.received).toHaveLength(0);
  });

  it('asks for encrypted reasoning only from reasoning models, unless told', async () => {
    const server = await responsesServer(() => ({ text: 'ok' }));
    await model(server, { model: 'gpt-4.1' }).generate(GOLDEN);
    await model(server, { model: 'gpt-4.1', reasoning: true }).generate(GOLDEN);
    expect(server.received.map((received) => (received.body as { include?: unknown }).include)).toEqual([
      undefined,
      ['reasoning.encrypted_content'],
    ]);
    expect(
      ['o3', 'o4-mini', 'gpt-5', 'gpt-5.1', 'gpt-5-mini', 'gpt-5.6-luna', 'gpt-5-codex'].every(isOpenAIReasoningModel),
    ).toBe(true);
    expect(
      ['gpt-4.1', 'gpt-4o', 'gpt-5-chat-latest', 'gpt-5.2-chat-latest', 'chatgpt-4o-latest'].some(
        isOpenAIReasoningModel,
      ),
    ).toBe(false);
  });
});

describe('OpenAI Responses adapter: answers', () => {
  it('reads output items in order: reasoning as thoughts carrying the item, calls; usage with cached and reasoning tokens', async () => {
    const server = await responsesServer(() => THINK_AND_CALL);
    const response = await model(server).generate(GOLDEN);
    const sealed = server.issued.get('rs_1');
    expect(response).toEqual({
      content: {
        role: 'model',
        parts: [
          {
            text: 'Weather first.',
            thought: true,
            providerMetadata: { openai: { itemId: 'rs_1', encryptedContent: sealed } },
          },
          { text: 'Then the time.', thought: true, providerMetadata: { openai: { itemId: 'rs_1' } } },
          { functionCall: { id: 'call_1_0', name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { id: 'call_1_1', name: 'get_time', args: { city: 'Paris' } } },
        ],
      },
      finishReason: 'completed',
      usage: {
        promptTokens: server.billed[0]?.input_tokens,
        outputTokens: server.billed[0]?.output_tokens,
        cachedTokens: 0,
        reasoningTokens: 64,
        totalTokens: server.billed[0]?.total_tokens,
      },
      providerMetadata: { openai: { responseId: 'resp_1' } },
    });
  });

  it('streams every event kind of a response and puts it back together as generate reads it', async () => {
    const server = await responsesServer(() => ({ ...THINK_AND_CALL, calls: [], text: 'It is sunny.' }));
    const generated = await model(server).generate(GOLDEN);
    const { wire, seen, responses } = recordWire();
    const chunks = await streamAll(model(server), GOLDEN, wire);
    expect(chunks.filter((chunk) => chunk.partial)).toEqual([
      { content: { role: 'model', parts: [{ text: 'It is ' }] }, partial: true },
      { content: { role: 'model', parts: [{ text: 'sunny.' }] }, partial: true },
    ]);
    const last = chunks.at(-1);
    expect(last?.partial).toBe(false);
    // The same answer; the second call's encrypted reasoning and bill are its own.
    expect(last?.content?.parts.map((part) => ('text' in part ? part.text : ''))).toEqual(
      generated.content?.parts.map((part) => ('text' in part ? part.text : '')),
    );
    expect(last?.content?.parts[0]).toMatchObject({
      providerMetadata: { openai: { itemId: 'rs_2', encryptedContent: server.issued.get('rs_2') } },
    });
    expect(JSON.parse(server.received[1]?.rawBody ?? '{}')).toMatchObject({ stream: true });
    expectRecordedAsReceived(seen, Object.assign({}, server, { received: server.received.slice(1) }));
    expect(responses()).toEqual([{ status: 200, usage: server.billed[1] }]);
  });

  it('reads items sent one by one when the terminal event leaves them out', async () => {
    const item = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi.' }] };
    const server = await serve(() => ({
      events: [
        { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', delta: 'Hi.' } },
        { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
        {
          event: 'response.completed',
          data: { type: 'response.completed', response: { id: 'resp_x', status: 'completed', output: [] } },
        },
      ],
    }));
    expect((await streamAll(model(server), GOLDEN)).at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: 'Hi.' }] },
      finishReason: 'completed',
      providerMetadata: { openai: { responseId: 'resp_x' } },
      partial: false,
    });
  });

  it('reports an answer cut before it said anything as an error, not as silence', async () => {
    const server = await serve(() => ({
      json: {
        id: 'resp_1',
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [{ id: 'rs_1', type: 'reasoning', summary: [] }],
      },
    }));
    expect(await model(server).generate(GOLDEN)).toMatchObject({
      errorCode: 'max_output_tokens',
      errorMessage: 'The model returned no content (finish reason: max_output_tokens).',
      finishReason: 'max_output_tokens',
    });
  });
});

describe('OpenAI Responses adapter: errors', () => {
  const errorEvents = (events: FakeReply) => serve(() => events);

  it('fails as OpenAI does when a reasoning item goes back without its encrypted content, and says why', async () => {
    const server = await responsesServer(() => ({ text: 'ok' }));
    const bare = { type: 'reasoning', id: 'rs_9', summary: [] };
    const error = await model(server)
      .generate({
        ...GOLDEN,
        config: { providerOptions: { openai: { input: [bare, { role: 'user', content: 'Q' }] } } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      status: 404,
      retryable: false,
      hint: 'With store: false an item cannot be named by its id alone; a reasoning item needs its encrypted_content.',
    });
    expect((error as Error).message).toMatch(/^openai 404: Item with id 'rs_9' not found\. Items are not persisted/);
  });

  it('turns an error event and a failed response inside a stream into ModelErrors', async () => {
    const event = await errorEvents({
      events: [{ event: 'error', data: { type: 'error', code: 'server_error', message: 'Something broke.' } }],
    });
    expect(await streamAll(model(event), GOLDEN).catch((e: unknown) => e)).toMatchObject({
      retryable: true,
      message: 'openai: Something broke.',
    });
    const failed = await errorEvents({
      events: [
        {
          event: 'response.failed',
          data: {
            type: 'response.failed',
            response: { id: 'r', status: 'failed', error: { code: 'invalid_prompt', message: 'Bad prompt.' } },
          },
        },
      ],
    });
    expect(await streamAll(model(failed), GOLDEN).catch((e: unknown) => e)).toMatchObject({
      retryable: false,
      message: 'openai: Bad prompt.',
    });
    const cut = await errorEvents({ events: [{ event: 'response.created', data: { type: 'response.created' } }] });
    expect(await streamAll(model(cut), GOLDEN).catch((e: unknown) => e)).toMatchObject({
      message: 'openai: the stream ended before the response was complete',
    });
  });
});

describe('model strings', () => {
  it('send reasoning models through Responses, the others through Chat Completions, and let either be chosen', async () => {
    expect(parseModelString('openai:gpt-5')).toEqual({ provider: 'openai', modelId: 'gpt-5', api: 'responses' });
    expect(parseModelString('o4-mini')).toEqual({ provider: 'openai', modelId: 'o4-mini', api: 'responses' });
    expect(parseModelString('openai:gpt-4.1')).toEqual({
      provider: 'openai',
      modelId: 'gpt-4.1',
      api: 'chat-completions',
    });
    expect(parseModelString('openai-chat:gpt-5')).toMatchObject({ api: 'chat-completions' });
    expect(parseModelString('openai-responses:gpt-4.1')).toMatchObject({ api: 'responses' });

    const server = await serve((request) =>
      request.url === '/v1/responses'
        ? { json: { id: 'resp_1', status: 'completed', output: [] } }
        : { json: { choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] } },
    );
    const env = { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${server.url}/v1` };
    for (const name of ['openai:gpt-5', 'openai-chat:gpt-5', 'openai:gpt-4.1', 'openai-responses:gpt-4.1'])
      await (await resolveModel(name, { env, retry: false })).generate({ ...GOLDEN, config: {} });
    expect(server.received.map((received) => received.url)).toEqual([
      '/v1/responses',
      '/v1/chat/completions',
      '/v1/chat/completions',
      '/v1/responses',
    ]);
  });
});
