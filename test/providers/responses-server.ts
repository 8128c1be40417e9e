import { createHash } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './fake-server.js';

// A local server that speaks OpenAI's Responses API (`POST /v1/responses`), JSON or server-sent events, and holds
// requests to the rules that matter to a client: with `store: false` nothing is kept, so a reasoning item sent back
// without its `encrypted_content` is unknown (404, in OpenAI's words), encrypted content it did not issue is refused,
// and a reasoning item must be followed by the item it led to; with `store: true` it keeps each response with the
// conversation before it, which `previous_response_id` continues. It bills as OpenAI does: the input is the whole
// conversation (the stored part included), cached tokens (the prefix shared with an earlier request of the same
// `prompt_cache_key`, from 1,024 tokens in steps of 128) are part of it, reasoning tokens part of the output.

/** What the model says on one call: reasoning summaries and tokens, then text or function calls. */
export type ResponsesTurn = {
  reasoning?: { summaries: string[]; tokens: number };
  text?: string;
  calls?: { name: string; arguments: Record<string, unknown> }[];
};

export type ResponsesUsageBilled = {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
};

export type ResponsesServer = FakeServer & {
  /** The usage billed for each request answered, in order. */
  billed: ResponsesUsageBilled[];
  /** The encrypted reasoning issued, by item id. */
  issued: Map<string, string>;
};

type Body = {
  model: string;
  instructions?: string;
  tools?: unknown[];
  input: { type?: string; role?: string; id?: string; encrypted_content?: string }[];
  store?: boolean;
  previous_response_id?: string;
  stream?: boolean;
  include?: string[];
  prompt_cache_key?: string;
};

type Item = Record<string, unknown> & { type: string; id: string };

export const notFound = (id: string): FakeReply => ({
  status: 404,
  json: {
    error: {
      message: `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
      type: 'invalid_request_error',
      param: 'input',
      code: null,
    },
  },
});

const badRequest = (message: string): FakeReply => ({
  status: 400,
  json: { error: { message, type: 'invalid_request_error', param: 'input', code: null } },
});

const tokens = (text: string) => Math.ceil(text.length / 4);

export async function startResponsesServer(
  script: (body: Body, index: number) => ResponsesTurn,
): Promise<ResponsesServer> {
  const billed: ResponsesUsageBilled[] = [];
  const issued = new Map<string, string>();
  const prompts: { key: string | undefined; text: string }[] = [];
  // Stored responses: the conversation each one ends, and the reasoning items kept with them.
  const conversations = new Map<string, unknown[]>();
  const kept = new Set<string>();
  let answered = 0;
  const server = await startFakeServer((request: ReceivedRequest) => {
    if (request.url !== '/v1/responses') return { status: 404, json: { error: { message: 'no such route' } } };
    const body = request.body as Body;
    const previous = body.previous_response_id;
    const before = previous === undefined ? [] : conversations.get(previous);
    if (before === undefined) return previousNotFound(previous ?? '');
    const refused = check(body, issued, kept);
    if (refused !== undefined) return refused;
    const turn = script(body, answered);
    const n = ++answered;
    const items = outputItems(turn, n, body.include?.includes('reasoning.encrypted_content') === true, issued);
    const conversation = [...before, ...body.input];
    if (body.store !== false) {
      conversations.set(`resp_${n}`, [...conversation, ...items]);
      for (const item of items) if (item.type === 'reasoning') kept.add(item.id);
    }
    const prompt = JSON.stringify({ instructions: body.instructions, tools: body.tools, input: conversation });
    const cached = cachedTokens(prompt, body.prompt_cache_key, prompts);
    prompts.push({ key: body.prompt_cache_key, text: prompt });
    const reasoning = turn.reasoning?.tokens ?? 0;
    const output = reasoning + tokens(JSON.stringify(items.filter((item) => item.type !== 'reasoning')));
    const usage: ResponsesUsageBilled = {
      input_tokens: tokens(prompt),
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: tokens(prompt) + output,
    };
    billed.push(usage);
    const response = {
      id: `resp_${n}`,
      object: 'response',
      created_at: 1_765_000_000 + n,
      status: 'completed',
      model: body.model,
      output: items,
      usage,
      store: body.store ?? true,
    };
    return body.stream === true ? { events: streamEvents(response, items) } : { json: response };
  });
  return Object.assign(server, { billed, issued });
}

const previousNotFound = (id: string): FakeReply => ({
  status: 404,
  json: {
    error: {
      message: `Previous response with id '${id}' not found.`,
      type: 'invalid_request_error',
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    },
  },
});

function check(body: Body, issued: Map<string, string>, kept: Set<string>): FakeReply | undefined {
  for (const [index, item] of body.input.entries()) {
    if (item.type !== 'reasoning') continue;
    const id = item.id ?? '';
    if (item.encrypted_content === undefined) {
      // Only a stored item can be named by its id alone; with store false nothing is.
      if (body.store === false || !kept.has(id)) return notFound(id);
    } else if (issued.get(id) !== item.encrypted_content)
      return badRequest(`The encrypted content for item ${id} could not be verified.`);
    const next = body.input[index + 1];
    if (next === undefined || next.type === 'reasoning' || next.type === 'function_call_output' || next.role === 'user')
      return badRequest(`Item '${id}' of type 'reasoning' was provided without its required following item.`);
  }
  return undefined;
}

function cachedTokens(prompt: string, key: string | undefined, earlier: { key: string | undefined; text: string }[]) {
  let longest = 0;
  for (const previous of earlier) {
    if (previous.key !== key) continue;
    let same = 0;
    while (same < prompt.length && same < previous.text.length && prompt[same] === previous.text[same]) same++;
    longest = Math.max(longest, same);
  }
  const prefix = Math.floor(longest / 4);
  return prefix < 1024 ? 0 : Math.floor(prefix / 128) * 128;
}

function outputItems(turn: ResponsesTurn, n: number, encrypted: boolean, issued: Map<string, string>): Item[] {
  const items: Item[] = [];
  if (turn.reasoning !== undefined) {
    const id = `rs_${n}`;
    const item: Item = {
      id,
      type: 'reasoning',
      summary: turn.reasoning.summaries.map((text) => ({ type: 'summary_text', text })),
    };
    if (encrypted) {
      const sealed = `gAAAA${createHash('sha256')
        .update(`${id}:${turn.reasoning.summaries.join('|')}`)
        .digest('base64')}`;
      issued.set(id, sealed);
      item['encrypted_content'] = sealed;
    }
    items.push(item);
  }
  if (turn.text !== undefined)
    items.push({
      id: `msg_${n}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  for (const [index, call] of (turn.calls ?? []).entries())
    items.push({
      id: `fc_${n}_${index}`,
      type: 'function_call',
      status: 'completed',
      call_id: `call_${n}_${index}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    });
  return items;
}

/** The events OpenAI streams for a response, each item opened, filled in pieces and closed, then the whole. */
function streamEvents(response: Record<string, unknown> & { output: Item[] }, items: Item[]) {
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const send = (type: string, data: Record<string, unknown>) =>
    events.push({ event: type, data: { type, sequence_number: events.length, ...data } });
  const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))];
  send('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  send('response.in_progress', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  items.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    if (item.type === 'reasoning') {
      send('response.output_item.added', { output_index, item: { id: item.id, type: 'reasoning', summary: [] } });
      (item['summary'] as { text: string }[]).forEach(({ text }, summary_index) => {
        send('response.reasoning_summary_part.added', {
          ...at,
          summary_index,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of halves(text))
          send('response.reasoning_summary_text.delta', { ...at, summary_index, delta });
        send('response.reasoning_summary_text.done', { ...at, summary_index, text });
        send('response.reasoning_summary_part.done', { ...at, summary_index, part: { type: 'summary_text', text } });
      });
    } else if (item.type === 'message') {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const text = (item['content'] as { text: string }[])[0]?.text ?? '';
      const part = { type: 'output_text', text: '', annotations: [] };
      send('response.content_part.added', { ...at, content_index: 0, part });
      for (const delta of halves(text)) send('response.output_text.delta', { ...at, content_index: 0, delta });
      send('response.output_text.done', { ...at, content_index: 0, text });
      send('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } });
    } else {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      const args = String(item['arguments']);
      for (const delta of halves(args)) send('response.function_call_arguments.delta', { ...at, delta });
      send('response.function_call_arguments.done', { ...at, arguments: args });
    }
    send('response.output_item.done', { output_index, item });
  });
  send('response.completed', { response });
  return events;
}
