import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelCallOptions } from '../../src/contracts/model.js';
import {
  createOpenAICompatibleModel,
  createOpenAIModel,
  type OpenAIModelSettings,
} from '../../src/models/openai/openai-model.js';
import { fakeServers, type FakeServer } from './fake-server.js';
import { GOLDEN_REQUEST } from './golden-request.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/providers/openai/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const COMPLETION = fixture('completion-tool-calls.json');
const GOLDEN_BODY = fixture('golden-request.json');

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

const call = (sessionId: string, agentName = 'assistant'): ModelCallOptions => ({
  agentName,
  session: { appName: 'shop', userId: 'u1', sessionId },
});

async function bodiesFor(
  settings: Partial<OpenAIModelSettings>,
  calls: ModelCallOptions[],
  compatible = false,
): Promise<Record<string, unknown>[]> {
  const server: FakeServer = await serve(() => ({ json: COMPLETION }));
  const model = compatible
    ? createOpenAICompatibleModel({
        model: 'gpt-test',
        env: {},
        retry: false,
        ...settings,
        baseURL: `${server.url}/v1`,
      })
    : createOpenAIModel({
        model: 'gpt-test',
        apiKey: 'sk-test',
        baseURL: `${server.url}/v1`,
        env: {},
        retry: false,
        ...settings,
      });
  for (const options of calls) await model.generate(GOLDEN_REQUEST, options);
  return server.received.map((request) => request.body as Record<string, unknown>);
}

describe('openai prompt caching: the cache key and retention on the wire', () => {
  it('sends one prompt_cache_key per app and agent by default: the same for every session, another for another agent', async () => {
    const [first, second, other] = await bodiesFor({}, [call('s1'), call('s2'), call('s1', 'planner')]);
    // A hash of the app and the agent: no user or session id leaves the machine.
    expect(first).toEqual({ ...GOLDEN_BODY, model: 'gpt-test', prompt_cache_key: 'agentctx-fc461273ebe9f068dec8d4d2' });
    expect(second?.['prompt_cache_key']).toBe('agentctx-fc461273ebe9f068dec8d4d2');
    expect(other?.['prompt_cache_key']).not.toBe(first?.['prompt_cache_key']);
  });

  it('keys per session, by a fixed string, with a retention, or not at all', async () => {
    const perSession = await bodiesFor({ promptCache: { key: 'session' } }, [call('s1'), call('s2')]);
    expect(perSession.map((body) => body['prompt_cache_key'])).toEqual([
      'agentctx-03883ddd7128def9732e5477',
      'agentctx-8628a6f1cd6e9eddb372628c',
    ]);
    const [fixed] = await bodiesFor({ promptCache: { key: 'tenant-7', retention: '24h' } }, [call('s1')]);
    expect(fixed).toMatchObject({ prompt_cache_key: 'tenant-7', prompt_cache_retention: '24h' });
    const [off] = await bodiesFor({ promptCache: false }, [call('s1')]);
    expect(off).not.toHaveProperty('prompt_cache_key');
    // A direct call names no agent or session: no key rather than one shared by everything.
    const [direct] = await bodiesFor({}, [{}]);
    expect(direct).not.toHaveProperty('prompt_cache_key');
  });

  it('sends nothing to OpenAI-compatible servers unless asked, since not all of them take the fields', async () => {
    const [plain] = await bodiesFor({}, [call('s1')], true);
    expect(plain).not.toHaveProperty('prompt_cache_key');
    const [asked] = await bodiesFor({ promptCache: { key: 'agent' } }, [call('s1')], true);
    expect(asked?.['prompt_cache_key']).toBe('agentctx-fc461273ebe9f068dec8d4d2');
  });

  it('refuses a retention OpenAI does not know, naming the field', () => {
    expect(() =>
      createOpenAIModel({ model: 'gpt-test', apiKey: 'k', env: {}, promptCache: { retention: '1h' as never } }),
    ).toThrow(/promptCache\.retention must be 'in_memory' or '24h'/);
  });
});
