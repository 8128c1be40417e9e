import type { FakeReply } from './fake-server.js';

// What a local server answers for one turn of a tool loop, in each protocol an AI SDK provider package speaks here:
// Anthropic's Messages API, and Chat Completions as OpenAI-compatible servers and Mistral speak it. Each as one JSON
// body or as the event stream the real API sends.

/** One answer: a function call or text (with thinking before it, for Anthropic), and the provider's usage object. */
export type Turn = {
  call?: { id: string; name: string; args: Record<string, unknown> };
  text?: string;
  thinking?: { text: string; signature: string };
  usage: Record<string, unknown>;
};

/** Chat Completions (OpenAI-compatible servers, Mistral). */
export function chatCompletionsReply(turn: Turn, streaming: boolean, model: string): FakeReply {
  const toolCalls =
    turn.call === undefined
      ? undefined
      : [
          {
            id: turn.call.id,
            type: 'function',
            function: { name: turn.call.name, arguments: JSON.stringify(turn.call.args) },
          },
        ];
  const finish = turn.call === undefined ? 'stop' : 'tool_calls';
  const base = { id: 'chatcmpl-1', created: 1_765_000_000, model };
  if (!streaming)
    return {
      json: {
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: turn.text ?? null,
              ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
            },
            finish_reason: finish,
          },
        ],
        usage: turn.usage,
      },
    };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, usage?: unknown) => ({
    data: {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...(usage === undefined ? {} : { usage }),
    },
  });
  const words = (turn.text ?? '').split(/(?<= )/).filter((word) => word !== '');
  return {
    events: [
      chunk({ role: 'assistant', content: '' }, null),
      ...words.map((word) => chunk({ content: word }, null)),
      ...(toolCalls === undefined
        ? []
        : [chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }, null)]),
      chunk({}, finish, turn.usage),
      { data: '[DONE]' },
    ],
  };
}

/** Anthropic's Messages API. */
export function anthropicReply(turn: Turn, streaming: boolean, model: string): FakeReply {
  const content = [
    ...(turn.thinking === undefined
      ? []
      : [{ type: 'thinking', thinking: turn.thinking.text, signature: turn.thinking.signature }]),
    ...(turn.text === undefined ? [] : [{ type: 'text', text: turn.text }]),
    ...(turn.call === undefined
      ? []
      : [{ type: 'tool_use', id: turn.call.id, name: turn.call.name, input: turn.call.args }]),
  ];
  const stop = turn.call === undefined ? 'end_turn' : 'tool_use';
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: turn.usage,
  };
  if (!streaming) return { json: message };
  const { output_tokens: output, ...startUsage } = turn.usage;
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { ...startUsage, output_tokens: 1 } },
      },
    },
  ];
  content.forEach((block, index) => {
    const event = (type: string, data: Record<string, unknown>) =>
      events.push({ event: type, data: { type, index, ...data } });
    if (block.type === 'thinking') {
      event('content_block_start', { content_block: { type: 'thinking', thinking: '' } });
      event('content_block_delta', { delta: { type: 'thinking_delta', thinking: turn.thinking?.text } });
      event('content_block_delta', { delta: { type: 'signature_delta', signature: turn.thinking?.signature } });
    } else if (block.type === 'text') {
      event('content_block_start', { content_block: { type: 'text', text: '' } });
      for (const word of (turn.text ?? '').split(/(?<= )/))
        event('content_block_delta', { delta: { type: 'text_delta', text: word } });
    } else {
      event('content_block_start', {
        content_block: { type: 'tool_use', id: turn.call?.id, name: turn.call?.name, input: {} },
      });
      event('content_block_delta', {
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.call?.args) },
      });
    }
    event('content_block_stop', {});
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: output },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return { events };
}
