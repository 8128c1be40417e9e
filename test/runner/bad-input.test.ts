import { expect } from 'vitest';
import { z } from 'zod';
import type { Event } from '../../src/contracts/event.js';
import type { Model, ModelStreamChunk } from '../../src/contracts/model.js';
import type { Tool } from '../../src/contracts/tool.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { declareTool } from '../../src/engine/tools/tool.js';
import { createAnthropicModel } from '../../src/models/anthropic/anthropic-model.js';
import { createGeminiModel } from '../../src/models/gemini/gemini-model.js';
import { createOpenAIModel } from '../../src/models/openai/openai-model.js';
import { createRunner, type RunnerOptions } from '../../src/presets/create-runner.js';
import { fakeServers, type FakeReply, type FakeServer } from '../providers/fake-server.js';
import { defineRows } from '../reliability/rows.js';
import { listModel, turn } from '../reliability/support.js';

// Part 1, tool arguments and model responses: bad arguments, unknown tools and failing tools become an `{ error }`
// response the model can act on; a response the runner cannot use ends the invocation with an error event. Provider
// adapters run against local servers that speak each provider's protocol.
const servers = fakeServers();
const serve = (handle: (index: number) => FakeReply): Promise<FakeServer> =>
  servers.serve((_request, index) => handle(index));

let calledWith: unknown[] = [];
const add = functionTool({
  name: 'add',
  description: 'Adds.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: (args) => (calledWith.push(args), { sum: args.a + args.b }),
});

/** Runs one turn of an agent with these tools and model; returns the events and the tool responses in order. */
async function run(
  model: Model,
  tools: Tool[] = [add],
  options: Partial<RunnerOptions> = {},
): Promise<{ events: Event[]; responses: unknown[]; stored: number | undefined }> {
  calledWith = [];
  const runner = createRunner({ agents: llmAgent({ name: 'calc', tools }), model, ...options });
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  const events = await turn(runner, { message: 'hi' });
  const responses = events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      'functionResponse' in part ? [part.functionResponse.response] : [],
    ),
  );
  const stored = (await runner.sessions.getSession({ appName: 'calc', userId: 'u1', sessionId: 's1' }))?.revision;
  return { events, responses, stored };
}

const call = (name: string, args: unknown) => ({
  content: { role: 'model', parts: [{ functionCall: { name, args } }] },
});
const text = (value: string) => ({ content: { role: 'model', parts: [{ text: value }] } });
const lastText = (events: Event[]) =>
  events
    .at(-1)
    ?.content?.parts.map((part) => ('text' in part ? part.text : ''))
    .join('');

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'tool.args-schema',
      entry: 'tool arguments',
      tried: '`{ a: "two" }` and `{}` for a tool whose schema wants two numbers',
      expected:
        '`{ error: "Invalid arguments for tool \'add\': a: … Call it again …" }`; the tool never runs; the model is called again',
      run: async () => {
        const { responses, events } = await run(
          listModel([call('add', { a: 'two', b: 1 }), call('add', {}), call('add', { a: 2, b: 3 }), text('5')]),
        );
        expect(responses[0]).toEqual({
          error: expect.stringMatching(
            /^Invalid arguments for tool 'add': a: .*expected number.*Call it again with arguments that match its parameters\.$/,
          ),
        });
        expect(responses[1]).toEqual({ error: expect.stringMatching(/a: .*b: /) });
        expect(responses[2]).toEqual({ sum: 5 });
        expect(calledWith).toEqual([{ a: 2, b: 3 }]);
        expect(lastText(events)).toBe('5');
      },
    },
    {
      id: 'tool.throws',
      entry: 'tool arguments',
      tried: 'arguments that make the tool throw',
      expected: '`{ error: "Tool \'divide\' failed: division by zero" }`, and the invocation goes on',
      run: async () => {
        const divide = functionTool({
          name: 'divide',
          description: 'Divides.',
          parameters: z.object({ by: z.number() }),
          execute: ({ by }) => {
            if (by === 0) throw new Error('division by zero');
            return { ok: true };
          },
        });
        const { responses, events } = await run(listModel([call('divide', { by: 0 }), text('cannot')]), [divide]);
        expect(responses).toEqual([{ error: "Tool 'divide' failed: division by zero" }]);
        expect(lastText(events)).toBe('cannot');
      },
    },
    {
      id: 'tool.no-implementation',
      entry: 'tool arguments',
      tried: 'a call to a tool declared in a file, with no implementation',
      expected:
        '`{ error: "Tool \'search\' failed: it has a declaration but no implementation (declared in a file?)" }`',
      run: async () => {
        const { responses } = await run(listModel([call('search', {}), text('ok')]), [
          declareTool({ name: 'search', description: 'Searches.' }),
        ]);
        expect(responses).toEqual([
          { error: "Tool 'search' failed: it has a declaration but no implementation (declared in a file?)" },
        ]);
      },
    },
    {
      id: 'tool.result-not-json',
      entry: 'tool arguments',
      tried: 'arguments the tool accepts, but it returns a Map, or an object holding a bigint',
      expected:
        '`{ error: "Tool … returned a value that cannot be stored as JSON (response.n: found a bigint) …" }`; before the fix, the invocation died',
      run: async () => {
        const map = functionTool({
          name: 'map',
          description: 'Map.',
          jsonSchema: { type: 'object' },
          execute: () => new Map([[1, 2]]),
        });
        const big = functionTool({
          name: 'big',
          description: 'Bigint.',
          jsonSchema: { type: 'object' },
          execute: () => ({ n: 10n }),
        });
        const { responses, events } = await run(listModel([call('map', {}), call('big', {}), text('sorry')]), [
          map,
          big,
        ]);
        expect(responses).toEqual([
          {
            error:
              "Tool 'map' returned a value that cannot be stored as JSON (response.result: found an instance of Map); it must return plain JSON data.",
          },
          {
            error:
              "Tool 'big' returned a value that cannot be stored as JSON (response.n: found a bigint); it must return plain JSON data.",
          },
        ]);
        expect(lastText(events)).toBe('sorry');
      },
    },
    {
      id: 'model.unknown-tool',
      entry: 'model response',
      tried: 'a call to a tool the agent does not have (`delete_everything`)',
      expected: '`{ error: "Tool \'delete_everything\' is not available. Available tools: add." }`; nothing runs',
      run: async () => {
        const { responses } = await run(listModel([call('delete_everything', {}), text('ok')]));
        expect(responses).toEqual([{ error: "Tool 'delete_everything' is not available. Available tools: add." }]);
        expect(calledWith).toEqual([]);
      },
    },
    {
      id: 'model.unknown-agent',
      entry: 'model response',
      tried: '`transfer_to_agent` to an agent that cannot be reached, again and again',
      expected:
        'an `{ error }` response naming the reachable agents each time, then error event `transfer_failed` after three, not a loop',
      run: async () => {
        const transfer = call('transfer_to_agent', { agent_name: 'ghost' });
        const { responses, events } = await run(listModel([transfer, transfer, transfer, transfer]), []);
        expect(responses).toHaveLength(3);
        expect(responses[0]).toEqual({
          error: expect.stringMatching(/^Cannot transfer to "ghost": no such agent is reachable from calc\./),
        });
        expect(events.at(-1)?.errorCode).toBe('transfer_failed');
      },
    },
    {
      id: 'model.malformed',
      entry: 'model response',
      tried: 'a custom model returning `null`, `parts: "x"`, an empty part, a call without a name',
      expected:
        "error event `model_error`: `the model's response is malformed: content.parts: expected a list …`; nothing malformed is stored; before the fix, a TypeError or a stored broken event",
      run: async () => {
        for (const [response, problem] of [
          [null, /expected a response object/],
          [{ content: { role: 'model', parts: 'x' } }, /content\.parts: expected a list, got the string "x"/],
          [{ content: { role: 'model', parts: [{}] } }, /content\.parts\[0\]: a part holds exactly one of/],
          [
            { content: { role: 'model', parts: [{ functionCall: { args: {} } }] } },
            /content\.parts\[0\]\.functionCall\.name: is required/,
          ],
        ] as const) {
          const { events, stored } = await run(listModel([response]));
          expect(events.map((event) => event.errorCode ?? event.author)).toEqual(['user', 'model_error']);
          expect(events[1]?.errorMessage).toMatch(
            /The model call failed \(call 1 of this invocation, agent 'calc'\): test: the model's response is malformed: /,
          );
          expect(events[1]?.errorMessage).toMatch(problem);
          expect(stored).toBe(2);
        }
      },
    },
    {
      id: 'model.throws-anything',
      entry: 'model response',
      tried: 'a model that throws a string, and one whose stream ends without a complete response',
      expected: 'error event `model_error` with the text; never an unhandled rejection',
      run: async () => {
        const throwing: Model = {
          specificationVersion: 'v1',
          provider: 'test',
          modelId: 'x',
          generate: () => Promise.reject('out of cheese'),
        };
        expect((await run(throwing)).events.at(-1)?.errorMessage).toMatch(/\): out of cheese$/);
        const partialOnly: Model = {
          ...throwing,
          async *stream(): AsyncGenerator<ModelStreamChunk> {
            yield { content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true };
          },
        };
        const { events } = await run(partialOnly, [add], { streaming: true });
        expect(events.at(-1)).toMatchObject({
          errorCode: 'model_error',
          errorMessage: expect.stringMatching(/the stream ended without a complete response/),
        });
      },
    },
    {
      id: 'model.endless-tools',
      entry: 'model response',
      tried: 'a model that calls a tool forever',
      expected: 'error event `max_llm_calls` after `maxLlmCalls` calls, with the option to raise',
      run: async () => {
        const forever: Model = {
          specificationVersion: 'v1',
          provider: 'test',
          modelId: 'x',
          generate: async () => call('add', { a: 1, b: 1 }) as never,
        };
        const { events } = await run(forever, [add], { maxLlmCalls: 5 });
        expect(events.at(-1)).toMatchObject({
          errorCode: 'max_llm_calls',
          errorMessage: expect.stringMatching(/limit of 5 model calls.*Raise maxLlmCalls/),
        });
      },
    },
    {
      id: 'model.openai-truncated-args',
      entry: 'model response',
      tried: 'OpenAI: tool-call arguments cut off mid-JSON (`{"a": 2, "b`)',
      expected: "kept as `{ _raw }`, refused by the tool's schema as an `{ error }` response; the model is asked again",
      run: async () => {
        const completion = (message: Record<string, unknown>, finish: string) => ({
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', refusal: null, ...message },
              finish_reason: finish,
              logprobs: null,
            },
          ],
        });
        const server = await serve((index) => ({
          json:
            index === 0
              ? completion(
                  {
                    content: null,
                    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b' } }],
                  },
                  'tool_calls',
                )
              : completion({ content: 'retrying' }, 'stop'),
        }));
        const { responses, events } = await run(
          createOpenAIModel({
            model: 'gpt-test',
            apiKey: 'sk-test',
            baseURL: `${server.url}/v1`,
            env: {},
            retry: false,
          }),
        );
        expect(responses).toEqual([{ error: expect.stringMatching(/^Invalid arguments for tool 'add': a: .*b: /) }]);
        expect(calledWith).toEqual([]);
        expect(lastText(events)).toBe('retrying');
      },
    },
    {
      id: 'model.openai-cut-by-length',
      entry: 'model response',
      tried: 'OpenAI: an empty answer stopped by the length limit',
      expected:
        'an event with `errorCode: length` (`The model returned no content (finish reason: length).`), not silence',
      run: async () => {
        const server = await serve(() => ({
          json: {
            id: 'c',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [
              { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'length', logprobs: null },
            ],
          },
        }));
        const { events } = await run(
          createOpenAIModel({
            model: 'gpt-test',
            apiKey: 'sk-test',
            baseURL: `${server.url}/v1`,
            env: {},
            retry: false,
          }),
        );
        expect(events.at(-1)).toMatchObject({
          errorCode: 'length',
          errorMessage: 'The model returned no content (finish reason: length).',
        });
      },
    },
    {
      id: 'model.anthropic-stream-cut',
      entry: 'model response',
      tried: 'Anthropic: a stream that ends before `message_stop`',
      expected: 'error event `model_error` (`the stream ended before message_stop`); the partial text is never stored',
      run: async () => {
        const message = {
          id: 'm',
          type: 'message',
          role: 'assistant',
          model: 'c',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 1, output_tokens: 0 },
        };
        const server = await serve(() => ({
          events: [
            { event: 'message_start', data: { type: 'message_start', message } },
            {
              event: 'content_block_start',
              data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            },
            {
              event: 'content_block_delta',
              data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
            },
          ],
        }));
        const { events, stored } = await run(
          createAnthropicModel({
            model: 'claude-test',
            apiKey: 'sk-ant-test',
            baseURL: server.url,
            env: {},
            retry: false,
          }),
          [add],
          { streaming: true },
        );
        expect(events.at(-1)).toMatchObject({
          errorCode: 'model_error',
          errorMessage: expect.stringMatching(/the stream ended before message_stop/),
        });
        expect(stored).toBe(2);
      },
    },
    {
      id: 'model.gemini-blocked',
      entry: 'model response',
      tried: 'Gemini: a blocked prompt (no candidates, `blockReason: SAFETY`)',
      expected: 'an event with `errorCode: SAFETY` (`Gemini blocked the prompt (SAFETY).`); the invocation ends',
      run: async () => {
        const server = await serve(() => ({
          json: {
            promptFeedback: { blockReason: 'SAFETY' },
            usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
          },
        }));
        const { events } = await run(
          createGeminiModel({ model: 'gemini-test', apiKey: 'g-test-key', baseURL: server.url, env: {}, retry: false }),
        );
        expect(events.at(-1)).toMatchObject({
          errorCode: 'SAFETY',
          errorMessage: 'Gemini blocked the prompt (SAFETY).',
        });
      },
    },
    {
      id: 'model.garbage-body',
      entry: 'model response',
      tried: 'a provider answering 200 with a body that is not JSON',
      expected: "error event `model_error` with the parser's message; no crash",
      run: async () => {
        const server = await servers.serve(() => ({ json: undefined, status: 200 }));
        const { events } = await run(
          createOpenAIModel({
            model: 'gpt-test',
            apiKey: 'sk-test',
            baseURL: `${server.url}/v1`,
            env: {},
            retry: false,
          }),
        );
        expect(events.map((event) => event.errorCode ?? event.author)).toEqual(['user', 'model_error']);
      },
    },
  ],
  { afterAll: servers.closeAll },
);
