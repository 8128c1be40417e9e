import { afterEach, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { modelPairsCallsById, parseModelString } from '../../src/models/registry/model-string.js';
import { resolveModel } from '../../src/models/registry/resolve-model.js';
import { chatCompletionsReply } from './ai-sdk-protocols.js';
import { fakeServers } from './fake-server.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';

// Model strings for providers reached through their AI SDK package: `mistral:`, `groq:`, `deepseek:`. Each resolves
// to the bridge over the package's model, with its key and address from the environment, and records its wire.

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

const ASK: LlmRequest = {
  system: 'Be brief.',
  tools: [],
  messages: [{ role: 'user', content: [{ text: 'Hi?' }] }],
  config: {},
};

const PROVIDERS = [
  { prefix: 'mistral', key: 'MISTRAL_API_KEY', base: 'MISTRAL_BASE_URL', model: 'mistral-small-latest', path: '/v1' },
  { prefix: 'groq', key: 'GROQ_API_KEY', base: 'GROQ_BASE_URL', model: 'llama-3.3-70b-versatile', path: '/openai/v1' },
  { prefix: 'deepseek', key: 'DEEPSEEK_API_KEY', base: 'DEEPSEEK_BASE_URL', model: 'deepseek-chat', path: '' },
];

describe.each(PROVIDERS)('the model string $prefix:<model>', ({ prefix, key, base, model, path }) => {
  it('answers through the AI SDK package, with its key and address from the environment, recorded', async () => {
    const usage = { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 };
    const server = await serve((request) =>
      chatCompletionsReply({ text: 'Hello.', usage }, (request.body as { stream?: boolean }).stream === true, model),
    );
    const resolved = await resolveModel(`${prefix}:${model}`, {
      env: { [key]: 'key-from-env-0123', [base]: `${server.url}${path}` },
      retry: false,
    });
    expect([resolved.provider, resolved.modelId, resolved.pairsCallsById]).toEqual([prefix, model, true]);
    const { wire, seen, responses } = recordWire();
    const response = await resolved.generate(ASK, { wire });
    expect(response.content).toEqual({ role: 'model', parts: [{ text: 'Hello.' }] });
    expect(response.usage).toMatchObject({ promptTokens: 9, outputTokens: 2, totalTokens: 11 });
    expectRecordedAsReceived(seen, server);
    expect(server.received[0]?.url).toBe(`${path}/chat/completions`);
    expect(server.received[0]?.headers.authorization).toBe('Bearer key-from-env-0123');
    expect(responses()).toEqual([{ status: 200, usage }]);
    const chunks = [];
    for await (const chunk of resolved.stream?.(ASK) ?? []) chunks.push(chunk);
    expect(chunks.at(-1)?.content).toEqual({ role: 'model', parts: [{ text: 'Hello.' }] });
  });

  it('says which variable to set when the key is missing', async () => {
    const error = await resolveModel(`${prefix}:${model}`, { env: {} }).catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error) && [error.code, error.hint]).toEqual([
      'missing_credentials',
      `Export ${key}, or pass apiKey when creating the model.`,
    ]);
  });
});

describe('model strings of bridged providers', () => {
  it('are read with their model, pair calls by id, and need a model name', () => {
    expect(parseModelString('groq:llama-3.3-70b-versatile')).toEqual({
      provider: 'groq',
      modelId: 'llama-3.3-70b-versatile',
    });
    expect(modelPairsCallsById('mistral:mistral-large-latest')).toBe(true);
    expect(modelPairsCallsById('gemini-2.5-flash')).toBe(false);
    expect(() => parseModelString('deepseek:')).toThrow(/'deepseek:' needs a model name/);
  });
});
