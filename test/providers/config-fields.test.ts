import { afterEach, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { Model } from '../../src/contracts/model.js';
import type { LlmRequest, RequestConfig, ToolChoice } from '../../src/contracts/request.js';
import { createAnthropicModel } from '../../src/models/anthropic/index.js';
import { createGeminiModel } from '../../src/models/gemini/index.js';
import { createOpenAIModel } from '../../src/models/openai/openai-model.js';
import { fakeServers, type FakeReply, type FakeServer } from './fake-server.js';

// Issue 45, part 1: every first-class config field on each provider's wire, sent through the provider's own SDK to a
// local server speaking its protocol, or refused in one line naming the field (docs/providers.md lists the refusals).

const { serve, closeAll } = fakeServers();
afterEach(() => closeAll());

const SCHEMA = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
const TOOL = {
  name: 'get_weather',
  description: 'Weather.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

function request(config: RequestConfig, builtInTools?: LlmRequest['builtInTools']): LlmRequest {
  return {
    system: 'S',
    tools: [TOOL],
    ...(builtInTools === undefined ? {} : { builtInTools }),
    messages: [
      { role: 'user', content: [{ text: 'Hi' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    ],
    config,
  };
}

type Provider = { name: string; reply: FakeReply; model(server: FakeServer): Model };
const GEMINI: Provider = {
  name: 'gemini',
  reply: { json: { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] } },
  model: (server) =>
    createGeminiModel({ model: 'gemini-2.5-flash', apiKey: 'k', baseURL: server.url, env: {}, retry: false }),
};
const OPENAI: Provider = {
  name: 'openai',
  reply: { json: { choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] } },
  model: (server) =>
    createOpenAIModel({ model: 'gpt-5', apiKey: 'k', baseURL: `${server.url}/v1`, env: {}, retry: false }),
};
const ANTHROPIC: Provider = {
  name: 'anthropic',
  reply: {
    json: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test-5',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  },
  model: (server) =>
    createAnthropicModel({
      model: 'claude-test-5',
      apiKey: 'k',
      baseURL: server.url,
      env: {},
      retry: false,
      promptCache: false,
    }),
};

async function sent(provider: Provider, given: LlmRequest): Promise<Record<string, unknown>> {
  const server = await serve(() => provider.reply);
  await provider.model(server).generate(given);
  expect(server.received).toHaveLength(1);
  return server.received[0]?.body as Record<string, unknown>;
}

describe('every config field on the wire', () => {
  it('Gemini: generationConfig, toolConfig, safety settings, labels, built-in tools, and providerOptions.google over them', async () => {
    const body = await sent(
      GEMINI,
      request(
        {
          model: 'ignored',
          temperature: 0.2,
          topP: 0.9,
          topK: 40,
          maxOutputTokens: 512,
          stopSequences: ['END'],
          responseSchema: SCHEMA,
          responseMimeType: 'application/json',
          toolChoice: { name: 'get_weather' },
          thinking: { budgetTokens: 2048, effort: 'high', includeThoughts: true },
          safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }],
          labels: { team: 'weather' },
          seed: 7,
          presencePenalty: 0.5,
          frequencyPenalty: 0.25,
          candidateCount: 2,
          mediaResolution: 'low',
          providerOptions: { google: { responseLogprobs: true }, openai: { service_tier: 'flex' } },
        },
        [
          { provider: 'google', type: 'googleSearch' },
          { provider: 'google', type: 'urlContext' },
          { provider: 'google', type: 'codeExecution' },
        ],
      ),
    );
    expect(body['tools']).toEqual([
      {
        functionDeclarations: [{ name: 'get_weather', description: 'Weather.', parametersJsonSchema: TOOL.parameters }],
      },
      { googleSearch: {} },
      { urlContext: {} },
      { codeExecution: {} },
    ]);
    expect(body['toolConfig']).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(body['safetySettings']).toEqual([{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }]);
    // The Gemini API has no labels: left out, as ADK leaves them out (Vertex AI keeps them: gemini-vertex.test.ts).
    expect(body['labels']).toBeUndefined();
    expect(body['generationConfig']).toEqual({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      maxOutputTokens: 512,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseJsonSchema: SCHEMA,
      thinkingConfig: { thinkingBudget: 2048, thinkingLevel: 'HIGH', includeThoughts: true },
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      candidateCount: 2,
      mediaResolution: 'MEDIA_RESOLUTION_LOW',
      responseLogprobs: true,
    });
    // Nothing of another provider's options, and the adapter's model, not config.model.
    expect(JSON.stringify(body)).not.toContain('flex');
    expect(JSON.stringify(body)).not.toContain('ignored');
  });

  it('OpenAI Chat Completions: response_format, tool_choice, reasoning_effort, metadata, seed, penalties, n, image detail, web search, and providerOptions.openai', async () => {
    const body = await sent(
      OPENAI,
      request(
        {
          temperature: 0.2,
          topP: 0.9,
          maxOutputTokens: 512,
          stopSequences: ['END'],
          responseSchema: SCHEMA,
          responseMimeType: 'application/json',
          toolChoice: 'required',
          thinking: { effort: 'minimal' },
          labels: { team: 'weather' },
          seed: 7,
          presencePenalty: 0.5,
          frequencyPenalty: 0.25,
          candidateCount: 2,
          mediaResolution: 'high',
          providerOptions: { openai: { service_tier: 'flex' }, google: { responseLogprobs: true } },
        },
        [{ provider: 'openai', type: 'web_search', settings: { search_context_size: 'low' } }],
      ),
    );
    expect(body).toEqual({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'S' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' } },
          ],
        },
      ],
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: TOOL.parameters } },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_completion_tokens: 512,
      stop: ['END'],
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: SCHEMA } },
      tool_choice: 'required',
      reasoning_effort: 'minimal',
      metadata: { team: 'weather' },
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      n: 2,
      web_search_options: { search_context_size: 'low' },
      service_tier: 'flex',
    });
  });

  it('Anthropic Messages: tool_choice, thinking with its display, output_config (effort, JSON schema), server tools, and providerOptions.anthropic', async () => {
    const body = await sent(
      ANTHROPIC,
      request(
        {
          maxOutputTokens: 4096,
          stopSequences: ['END'],
          responseSchema: SCHEMA,
          responseMimeType: 'application/json',
          toolChoice: 'auto',
          thinking: { budgetTokens: 2048, effort: 'high', includeThoughts: false },
          candidateCount: 1,
          providerOptions: { anthropic: { metadata: { user_id: 'u-1' } }, openai: { service_tier: 'flex' } },
        },
        [{ provider: 'anthropic', type: 'web_search_20250305', settings: { name: 'web_search', max_uses: 3 } }],
      ),
    );
    expect(body).toEqual({
      model: 'claude-test-5',
      max_tokens: 4096,
      system: 'S',
      tools: [
        { name: 'get_weather', description: 'Weather.', input_schema: TOOL.parameters },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
      stop_sequences: ['END'],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 2048, display: 'omitted' },
      output_config: { effort: 'high', format: { type: 'json_schema', schema: SCHEMA } },
      metadata: { user_id: 'u-1' },
    });
  });

  const choices: [ToolChoice, unknown, unknown, unknown][] = [
    ['auto', { functionCallingConfig: { mode: 'AUTO' } }, 'auto', { type: 'auto' }],
    ['none', { functionCallingConfig: { mode: 'NONE' } }, 'none', { type: 'none' }],
    ['required', { functionCallingConfig: { mode: 'ANY' } }, 'required', { type: 'any' }],
    [
      { name: 'get_weather' },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      { type: 'function', function: { name: 'get_weather' } },
      { type: 'tool', name: 'get_weather' },
    ],
  ];
  it.each(choices)(
    'tool choice %j: toolConfig, tool_choice and tool_choice',
    async (choice, gemini, openai, anthropic) => {
      expect((await sent(GEMINI, request({ toolChoice: choice })))['toolConfig']).toEqual(gemini);
      expect((await sent(OPENAI, request({ toolChoice: choice })))['tool_choice']).toEqual(openai);
      expect((await sent(ANTHROPIC, request({ toolChoice: choice })))['tool_choice']).toEqual(anthropic);
    },
  );

  it('JSON without a schema, and thinking without a budget', async () => {
    expect((await sent(GEMINI, request({ responseMimeType: 'application/json' })))['generationConfig']).toEqual({
      responseMimeType: 'application/json',
    });
    expect((await sent(GEMINI, request({ responseSchema: SCHEMA })))['generationConfig']).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: SCHEMA,
    });
    // Strict when OpenAI can hold the answer to the schema exactly: closed objects, every property required.
    const closed = { ...SCHEMA, additionalProperties: false };
    expect((await sent(OPENAI, request({ responseSchema: closed })))['response_format']).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: closed, strict: true },
    });
    const optional = { ...closed, properties: { ...closed.properties, note: { type: 'string' } } };
    expect((await sent(OPENAI, request({ responseSchema: optional })))['response_format']).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: optional },
    });
    expect((await sent(OPENAI, request({ responseMimeType: 'application/json' })))['response_format']).toEqual({
      type: 'json_object',
    });
    expect(await sent(ANTHROPIC, request({ thinking: { effort: 'low' } }))).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect((await sent(ANTHROPIC, request({ thinking: { budgetTokens: 0 } })))['thinking']).toEqual({
      type: 'disabled',
    });
  });
});

describe('a field the provider has no equivalent for is refused, in one line naming it, and nothing is sent', () => {
  const refusals: [Provider, RequestConfig | LlmRequest['builtInTools'], string][] = [
    [
      OPENAI,
      { safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }] },
      'Invalid Chat Completions request: config.safetySettings: Chat Completions has no safety settings (OpenAI moderates on its own)',
    ],
    [
      OPENAI,
      { thinking: { budgetTokens: 1024 } },
      'Invalid Chat Completions request: config.thinking.budgetTokens: reasoning is set by effort, not by a token budget; use thinking.effort',
    ],
    [
      OPENAI,
      { thinking: { includeThoughts: true } },
      'Invalid Chat Completions request: config.thinking.includeThoughts: OpenAI does not return reasoning text on Chat Completions',
    ],
    [
      OPENAI,
      { mediaResolution: 'medium' },
      "Invalid Chat Completions request: config.mediaResolution: images are read at 'low' or 'high' detail; there is no medium",
    ],
    [
      OPENAI,
      { responseMimeType: 'text/x-python' },
      'Invalid Chat Completions request: config.responseMimeType: answers are text or JSON; got text/x-python',
    ],
    [
      OPENAI,
      [{ provider: 'openai', type: 'code_interpreter' }],
      "Invalid Chat Completions request: builtInTools[0]: 'code_interpreter' is not a Chat Completions tool (only web_search is)",
    ],
    [
      OPENAI,
      [{ provider: 'google', type: 'googleSearch' }],
      "Invalid Chat Completions request: builtInTools[0]: 'googleSearch' is a built-in tool of google, which Chat Completions cannot run (model gpt-5)",
    ],
    [
      ANTHROPIC,
      { safetySettings: [] },
      'Invalid Anthropic Messages API request: config.safetySettings: the Messages API has no such setting',
    ],
    [
      ANTHROPIC,
      { labels: { team: 'x' } },
      'Invalid Anthropic Messages API request: config.labels: the Messages API keeps no labels (its metadata holds a user id only; set it in providerOptions.anthropic)',
    ],
    [
      ANTHROPIC,
      { seed: 1 },
      'Invalid Anthropic Messages API request: config.seed: the Messages API has no such setting',
    ],
    [
      ANTHROPIC,
      { presencePenalty: 1 },
      'Invalid Anthropic Messages API request: config.presencePenalty: the Messages API has no such setting',
    ],
    [
      ANTHROPIC,
      { frequencyPenalty: 1 },
      'Invalid Anthropic Messages API request: config.frequencyPenalty: the Messages API has no such setting',
    ],
    [
      ANTHROPIC,
      { mediaResolution: 'low' },
      'Invalid Anthropic Messages API request: config.mediaResolution: the Messages API has no such setting',
    ],
    [
      ANTHROPIC,
      { candidateCount: 2 },
      'Invalid Anthropic Messages API request: config.candidateCount: the Messages API answers once per call',
    ],
    [
      ANTHROPIC,
      { thinking: { effort: 'minimal' } },
      "Invalid Anthropic Messages API request: config.thinking.effort: effort is 'low', 'medium' or 'high' here; there is no minimal",
    ],
    [
      ANTHROPIC,
      { responseMimeType: 'application/json' },
      'Invalid Anthropic Messages API request: config.responseMimeType: JSON answers need a responseSchema here; got application/json without one',
    ],
    [
      ANTHROPIC,
      [{ provider: 'google', type: 'googleSearch' }],
      "Invalid Anthropic Messages API request: builtInTools[0]: 'googleSearch' is a built-in tool of google, which Anthropic Messages API cannot run (model claude-test-5)",
    ],
    [
      GEMINI,
      [{ provider: 'anthropic', type: 'web_search_20250305' }],
      "Invalid Gemini API request: builtInTools[0]: 'web_search_20250305' is a built-in tool of anthropic, which Gemini API cannot run (model gemini-2.5-flash)",
    ],
  ];
  it.each(
    refusals.map(
      ([provider, given, message]) => [provider.name, JSON.stringify(given), provider, given, message] as const,
    ),
  )('%s refuses %s', async (_name, _shown, provider, given, message) => {
    const server = await serve(() => provider.reply);
    const call = provider
      .model(server)
      .generate(Array.isArray(given) ? request({}, given) : request(given as RequestConfig));
    const error = await call.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(AgentctxError.isInstance(error) && error.code).toBe('invalid_input');
    expect((error as Error).message).toBe(message);
    expect((error as Error).message).not.toContain('\n');
    expect(server.received).toEqual([]);
  });
});

describe("an agent's generateConfig", () => {
  it('carries every field into its requests, copied, in one key order whatever the definition wrote', async () => {
    const { assembleRequest } = await import('../../src/presets/assemble-request.js');
    const { llmAgent } = await import('../../src/engine/agent/define-agent.js');
    const thinking = { effort: 'low' as const, includeThoughts: true };
    const agent = llmAgent({
      name: 'asker',
      model: 'gemini-2.5-flash',
      generateConfig: {
        providerOptions: { google: { responseLogprobs: true } },
        mediaResolution: 'low',
        candidateCount: 1,
        frequencyPenalty: 0.1,
        presencePenalty: 0.2,
        seed: 3,
        labels: { team: 'a' },
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        thinking,
        toolChoice: 'none',
        responseMimeType: 'application/json',
        responseSchema: SCHEMA,
        stopSequences: ['X'],
        maxOutputTokens: 10,
        topK: 3,
        topP: 0.5,
        temperature: 0,
      },
    });
    const { request } = await assembleRequest({ agents: agent });
    expect(Object.keys(request.config)).toEqual([
      'model',
      'temperature',
      'topP',
      'topK',
      'maxOutputTokens',
      'stopSequences',
      'responseSchema',
      'responseMimeType',
      'toolChoice',
      'thinking',
      'safetySettings',
      'labels',
      'seed',
      'presencePenalty',
      'frequencyPenalty',
      'candidateCount',
      'mediaResolution',
      'providerOptions',
    ]);
    expect(request.config.thinking).toEqual(thinking);
    expect(request.config.thinking).not.toBe(thinking);
  });
});

describe('a built-in tool of an agent', () => {
  it('reaches the Gemini wire, and is recorded with the call as a built-in tool with its source', async () => {
    const { createRunner } = await import('../../src/presets/create-runner.js');
    const { llmAgent } = await import('../../src/engine/agent/define-agent.js');
    const server = await serve(() => GEMINI.reply);
    const runner = createRunner({
      agents: llmAgent({
        name: 'searcher',
        instruction: 'Search.',
        builtInTools: [{ provider: 'google', type: 'googleSearch' }],
      }),
      model: GEMINI.model(server),
      telemetry: undefined,
    });
    await runner.createSession({ userId: 'u', sessionId: 's' });
    for await (const _event of runner.run({ userId: 'u', sessionId: 's', message: 'News?' })) void _event;
    expect((server.received[0]?.body as { tools: unknown }).tools).toEqual([{ googleSearch: {} }]);
    const call = await runner.sessions.getModelCall({ appName: 'searcher', userId: 'u', sessionId: 's', index: 1 });
    expect(call?.request.builtInTools).toEqual([{ provider: 'google', type: 'googleSearch' }]);
    expect(call?.provenance.builtInTools).toEqual([
      {
        kind: 'tool',
        processor: 'agent',
        agent: 'searcher',
        field: 'builtInTools[0]',
        tool: { kind: 'built-in', provider: 'google' },
      },
    ]);
    expect(JSON.parse(call?.wire?.body ?? '{}').tools).toEqual([{ googleSearch: {} }]);
  });

  it('is refused at definition when it names no provider or type', async () => {
    const { llmAgent } = await import('../../src/engine/agent/define-agent.js');
    expect(() =>
      llmAgent({ name: 'a', builtInTools: [{ provider: '', type: 'googleSearch' }, { provider: 'google' } as never] }),
    ).toThrow(
      "Invalid agent 'a': builtInTools[0].provider: must name the tool's provider (google, anthropic, openai); builtInTools[1].type: must name the tool as its provider's API does (googleSearch)",
    );
  });
});

describe('a refusal under retries', () => {
  it('is thrown as it is, once, not turned into a model error nor retried', async () => {
    const server = await serve(() => OPENAI.reply);
    const model = createOpenAIModel({
      model: 'gpt-5',
      apiKey: 'sk-long-enough-key',
      baseURL: `${server.url}/v1`,
      env: {},
      retry: { maxRetries: 3, initialDelayMs: 1 },
    });
    const error = await model.generate(request({ safetySettings: [] })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(AgentctxError.isInstance(error) && [error.name, error.code]).toEqual(['ValidationError', 'invalid_input']);
    expect(server.received).toEqual([]);
  });
});

describe("an agent file's generate_content_config in Gemini's form", () => {
  it('reads into the config fields (snake_case at every level), and reaches the Gemini wire as it was written', async () => {
    const { agentFromConfig } = await import('../../src/presets/agent-files.js');
    const { assembleRequest } = await import('../../src/presets/assemble-request.js');
    const { agentFileSchema } = await import('../../src/presets/file-schemas.js');
    const written = {
      temperature: 0.1,
      response_mime_type: 'application/json',
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['get_weather'] } },
      thinking_config: { thinking_budget: 1024, include_thoughts: true },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      labels: { team: 'weather' },
      seed: 5,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      candidate_count: 1,
      media_resolution: 'MEDIA_RESOLUTION_HIGH',
    };
    const file = { name: 'weather', model: 'gemini-2.5-flash', instruction: 'Help.', generate_content_config: written };
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    expect(new Ajv2020({ strict: false }).validate(agentFileSchema(), file)).toBe(true);
    const agent = await agentFromConfig(file, { filename: 'agent.yaml' });
    const { request } = await assembleRequest({ agents: agent });
    expect(request.config).toEqual({
      model: 'gemini-2.5-flash',
      temperature: 0.1,
      responseMimeType: 'application/json',
      toolChoice: { name: 'get_weather' },
      thinking: { budgetTokens: 1024, includeThoughts: true },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      labels: { team: 'weather' },
      seed: 5,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      candidateCount: 1,
      mediaResolution: 'high',
    });
    const body = await sent(GEMINI, { ...request, tools: [TOOL] });
    expect(body['toolConfig']).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(body['generationConfig']).toMatchObject({
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      mediaResolution: 'MEDIA_RESOLUTION_HIGH',
      responseMimeType: 'application/json',
    });
  });

  it('names each value it cannot read', async () => {
    const { agentFromConfig } = await import('../../src/presets/agent-files.js');
    const error = await agentFromConfig(
      {
        name: 'a',
        generate_content_config: {
          tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['a', 'b'] } },
          media_resolution: 'TINY',
          thinking_config: { thinking_level: 'HUGE' },
        },
      },
      { filename: 'agent.yaml' },
    ).catch((caught: unknown) => caught);
    expect(
      AgentctxError.isInstance(error) && (error as unknown as { issues: { path: string; message: string }[] }).issues,
    ).toEqual([
      {
        path: 'generate_content_config.tool_config.function_calling_config.allowed_function_names',
        message:
          'names more than one tool, which agentctx cannot ask every provider for; name one (that tool is called) or none (some tool is)',
      },
      {
        path: 'generate_content_config.thinking_config.thinking_level',
        message: 'expected MINIMAL, LOW, MEDIUM, HIGH, got "HUGE"',
      },
      {
        path: 'generate_content_config.media_resolution',
        message: 'expected MEDIA_RESOLUTION_LOW, MEDIA_RESOLUTION_MEDIUM, MEDIA_RESOLUTION_HIGH, got "TINY"',
      },
    ]);
  });
});
