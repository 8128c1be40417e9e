import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmRequest, Message } from '../../src/contracts/request.js';
import { createAnthropicModel } from '../../src/models/anthropic/anthropic-model.js';
import type { AnthropicRequestBody } from '../../src/models/anthropic/anthropic-wire.js';
import { toAnthropicRequest } from '../../src/models/anthropic/to-anthropic-request.js';
import { fakeServers } from './fake-server.js';
import { GOLDEN_REQUEST } from './golden-request.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/providers/anthropic/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const GOLDEN_BODY = fixture('golden-request.json');
const MESSAGE = fixture('message-response.json');
const MARK = { type: 'ephemeral' };

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

/** Where the marks are: `tools[i]`, `system[i]`, `messages[m].content[b]`, or `top`. */
function marks(body: AnthropicRequestBody): string[] {
  const found: string[] = [];
  if (body.cache_control !== undefined) found.push('top');
  body.tools?.forEach((tool, index) => tool.cache_control !== undefined && found.push(`tools[${index}]`));
  if (Array.isArray(body.system))
    body.system.forEach((block, index) => block.cache_control !== undefined && found.push(`system[${index}]`));
  body.messages.forEach((message, m) =>
    message.content.forEach(
      (block, b) => block.cache_control !== undefined && found.push(`messages[${m}].content[${b}]`),
    ),
  );
  return found;
}

describe('anthropic prompt caching: where the breakpoints go', () => {
  it('by default marks the last tool, the system text and the last block of the history, on the wire', async () => {
    const server = await serve(() => ({ json: MESSAGE }));
    await createAnthropicModel({
      model: 'claude-test-5',
      apiKey: 'k',
      baseURL: server.url,
      env: {},
      retry: false,
    }).generate(GOLDEN_REQUEST);
    const tools = GOLDEN_BODY['tools'] as Record<string, unknown>[];
    const messages = GOLDEN_BODY['messages'] as { role: string; content: Record<string, unknown>[] }[];
    const last = messages.at(-1) as { role: string; content: Record<string, unknown>[] };
    expect(server.received[0]?.body).toEqual({
      ...GOLDEN_BODY,
      system: [{ type: 'text', text: GOLDEN_BODY['system'], cache_control: MARK }],
      tools: [tools[0], { ...tools[1], cache_control: MARK }],
      messages: [
        ...messages.slice(0, -1),
        { role: 'user', content: [last.content[0], { ...last.content[1], cache_control: MARK }] },
      ],
    });
  });

  it('ends the marks where the stable prefix ends: the system split at its volatile tail, the history before a dynamic turn', () => {
    const body = toAnthropicRequest(GOLDEN_REQUEST, {
      model: 'm',
      cache: {},
      stablePrefix: { systemChars: 'You are a weather agent.'.length, messages: 3 },
    });
    expect(body.system).toEqual([
      { type: 'text', text: 'You are a weather agent.', cache_control: MARK },
      { type: 'text', text: '\n\nYou are an agent. Your internal name is "weather".' },
    ]);
    // Message 2 (the two tool results) is the last stable one: its last block carries the mark.
    expect(marks(body)).toEqual(['tools[1]', 'system[0]', 'messages[2].content[1]']);
    expect((body.system as { text: string }[]).map((block) => block.text).join('')).toBe(GOLDEN_REQUEST.system);
  });

  it('puts no mark after a prefix that is empty, and never on a thinking block', () => {
    const none = toAnthropicRequest(
      { ...GOLDEN_REQUEST, tools: [] },
      { model: 'm', cache: {}, stablePrefix: { systemChars: 0, messages: 0 } },
    );
    expect(marks(none)).toEqual([]);
    expect(none.system).toBe(GOLDEN_REQUEST.system);
    // The stable history ends with the model's turn, whose first block is thinking: the mark goes on the last block that can carry one.
    const thinking: LlmRequest = {
      ...GOLDEN_REQUEST,
      messages: [
        GOLDEN_REQUEST.messages[0] as Message,
        { role: 'model', content: [{ text: 'hm', thought: true, thoughtSignature: 's' }] },
        { role: 'user', content: [{ text: 'next' }] },
      ],
    };
    expect(
      marks(toAnthropicRequest(thinking, { model: 'm', cache: {}, stablePrefix: { systemChars: 0, messages: 2 } })),
    ).toEqual(['tools[1]', 'messages[0].content[0]']);
  });

  it('spends the marks left on look-back points 20 blocks apart in a long history', () => {
    const messages: Message[] = Array.from({ length: 50 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'model',
      content: [{ text: `turn ${index}` }],
    }));
    const noTools = toAnthropicRequest({ system: 'S', tools: [], messages, config: {} }, { model: 'm', cache: {} });
    expect(marks(noTools)).toEqual([
      'system[0]',
      'messages[9].content[0]',
      'messages[29].content[0]',
      'messages[49].content[0]',
    ]);
    const withTools = toAnthropicRequest({ ...GOLDEN_REQUEST, messages }, { model: 'm', cache: {} });
    expect(marks(withTools)).toEqual(['tools[1]', 'system[0]', 'messages[29].content[0]', 'messages[49].content[0]']);
  });

  it('marks for an hour with ttl 1h, and uses the top-level automatic form only when the whole request is stable', () => {
    const hour = toAnthropicRequest(GOLDEN_REQUEST, { model: 'm', cache: { ttl: '1h' } });
    expect(hour.tools?.[1]?.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(marks(hour)).toHaveLength(3);
    const automatic = toAnthropicRequest(GOLDEN_REQUEST, { model: 'm', cache: { placement: 'automatic' } });
    expect(marks(automatic)).toEqual(['top']);
    expect({ ...automatic, cache_control: undefined }).toEqual({
      ...toAnthropicRequest(GOLDEN_REQUEST, { model: 'm' }),
      cache_control: undefined,
    });
    const partial = toAnthropicRequest(GOLDEN_REQUEST, {
      model: 'm',
      cache: { placement: 'automatic' },
      stablePrefix: { systemChars: 10, messages: 2 },
    });
    expect(marks(partial)).toEqual(['tools[1]', 'system[0]', 'messages[1].content[3]']);
  });

  it('sends no mark with promptCache: false', () => {
    expect(marks(toAnthropicRequest(GOLDEN_REQUEST, { model: 'm', cache: false }))).toEqual([]);
  });
});
