import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/contracts/request.js';
import { formatRequest } from '../../src/cli/format-request.js';
import { createStyle } from '../../src/cli/style.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { parseEvent } from '../../src/engine/session/decode-event.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createAnthropicModel } from '../../src/models/anthropic/index.js';
import { toGeminiContents } from '../../src/models/gemini/gemini-contents.js';
import { toOpenAIMessages } from '../../src/models/openai/to-openai-request.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { toAdkEvent } from '../../src/server/adk/adk-json.js';
import { fakeServers, type FakeReply } from './fake-server.js';

// Issue 45, part 1: opaque data a provider needs back (Anthropic's redacted thinking) is kept with the part in the
// session and the recorded call, sent back by its own adapter, and left out by every other receiver.

const { serve, closeAll } = fakeServers();
afterEach(() => closeAll());

const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP';
const usage = { input_tokens: 10, output_tokens: 5 };
const message = (content: unknown[], stop: string): FakeReply => ({
  json: { id: 'msg', type: 'message', role: 'assistant', model: 'claude-test-5', content, stop_reason: stop, usage },
});

function runnerOn(url: string, streaming: boolean) {
  const lookup = functionTool({
    name: 'lookup',
    description: 'Looks up.',
    jsonSchema: { type: 'object', properties: {} },
    execute: async () => ({ found: 'yes' }),
  });
  const model = createAnthropicModel({
    model: 'claude-test-5',
    apiKey: 'k',
    baseURL: url,
    env: {},
    retry: false,
    promptCache: false,
  });
  return createRunner({
    agents: llmAgent({ name: 'thinker', instruction: 'Think.', tools: [lookup] }),
    model,
    telemetry: undefined,
    streaming,
  });
}

describe("Anthropic's redacted thinking", () => {
  it('is kept as an empty thought with its data, recorded with the call, and sent back unchanged on the next call', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? message(
            [
              { type: 'thinking', thinking: 'Plan.', signature: 'c2ln' },
              { type: 'redacted_thinking', data: REDACTED },
              { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
            ],
            'tool_use',
          )
        : message([{ type: 'text', text: 'Found it.' }], 'end_turn'),
    );
    const runner = runnerOn(server.url, false);
    await runner.createSession({ userId: 'u', sessionId: 's' });
    const events = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Find it.' })) events.push(event);
    const part = { text: '', thought: true, providerMetadata: { anthropic: { redactedThinking: REDACTED } } };
    expect(events[1]?.content?.parts[1]).toEqual(part);

    const key = { appName: 'thinker', userId: 'u', sessionId: 's' };
    const first = await runner.sessions.getModelCall({ ...key, index: 1 });
    expect(first?.response?.content?.parts[1]).toEqual(part);
    const second = server.received[1]?.body as { messages: { role: string; content: { type: string }[] }[] };
    expect(second.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Plan.', signature: 'c2ln' },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
      ],
    });
    // The session keeps it through a reload: its JSON form is read back as it was written.
    const stored = await runner.sessions.getSession(key);
    expect(parseEvent(JSON.parse(JSON.stringify(stored?.events[1])))?.content?.parts[1]).toEqual(part);

    // inspect names it, with its size, without printing it as text.
    const secondCall = await runner.sessions.getModelCall({ ...key, index: 2 });
    const shown = formatRequest(
      secondCall?.request as never,
      secondCall?.provenance as never,
      'call 2',
      createStyle(false),
    );
    expect(shown).toContain(`(thought) [provider data: anthropic redactedThinking, ${REDACTED.length + 2} chars]`);
  });

  it('is read from a stream as well', async () => {
    const events = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: { id: 'msg', type: 'message', role: 'assistant', content: [], stop_reason: null, usage },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: REDACTED } },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done.' } },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const server = await serve(() => ({ events }));
    const runner = runnerOn(server.url, true);
    await runner.createSession({ userId: 'u', sessionId: 's' });
    const answers = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Go.' }))
      if (event.partial !== true) answers.push(event);
    expect(answers[1]?.content?.parts).toEqual([
      { text: '', thought: true, providerMetadata: { anthropic: { redactedThinking: REDACTED } } },
      { text: 'Done.' },
    ]);
  });

  it('is left out by the other adapters and by ADK JSON, and sent by Anthropic only in assistant turns', () => {
    const history: Message[] = [
      { role: 'user', content: [{ text: 'Q' }] },
      {
        role: 'model',
        content: [
          { text: '', thought: true, providerMetadata: { anthropic: { redactedThinking: REDACTED } } },
          { text: 'A', providerMetadata: { openai: { itemId: 'msg_1' } } },
        ],
      },
    ];
    expect(toGeminiContents(history)).toEqual([
      { role: 'user', parts: [{ text: 'Q' }] },
      { role: 'model', parts: [{ text: 'A' }] },
    ]);
    expect(toOpenAIMessages(history)).toEqual([
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: 'A' },
    ]);
    const adk = toAdkEvent({
      id: 'e',
      invocationId: 'i',
      author: 'a',
      timestamp: 1,
      actions: { stateDelta: {}, artifactDelta: {} },
      content: { role: 'model', parts: history[1]?.content ?? [] },
    });
    expect(adk['content']).toEqual({ role: 'model', parts: [{ text: '', thought: true }, { text: 'A' }] });
  });

  it('is refused on a part other than text or a function call, and must be an object of objects', () => {
    expect(() =>
      parseEvent({
        id: 'e',
        invocationId: 'i',
        author: 'a',
        timestamp: 1,
        actions: { stateDelta: {}, artifactDelta: {} },
        content: {
          role: 'user',
          parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' }, providerMetadata: { x: {} } }],
        },
      }),
    ).toThrow('content.parts[0].providerMetadata: only a text or function call part carries provider metadata');
    expect(() =>
      parseEvent({
        id: 'e',
        invocationId: 'i',
        author: 'a',
        timestamp: 1,
        actions: { stateDelta: {}, artifactDelta: {} },
        content: { role: 'model', parts: [{ text: 'x', providerMetadata: { anthropic: 'data' } }] },
      }),
    ).toThrow('content.parts[0].providerMetadata.anthropic: expected an object');
  });
});
