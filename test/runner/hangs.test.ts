import { expect } from 'vitest';
import type { Model, ModelStreamChunk } from '../../src/contracts/model.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createOpenAIModel } from '../../src/models/openai/openai-model.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner, type RunnerOptions } from '../../src/presets/create-runner.js';
import { fakeServers, type FakeReply, type FakeServer } from '../providers/fake-server.js';
import { defineRows } from '../reliability/rows.js';
import { caught, expectTyped, listModel, turn } from '../reliability/support.js';

// Part 3, hangs and failing providers: a model or tool that never answers is cut off by the runner's time limits
// (`modelTimeoutMs`, `toolTimeoutMs`), and a provider that fails is retried with backoff, then reported as an error event.
const servers = fakeServers();
const serve = (handle: (index: number) => FakeReply | Promise<FakeReply>): Promise<FakeServer> =>
  servers.serve((_request, index) => handle(index));
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** One turn of an agent on this model with these options; the events, and the session as stored after it. */
async function runOnce(model: Model, options: Partial<RunnerOptions> = {}) {
  const runner = createRunner({ agents: llmAgent({ name: 'agent' }), model, ...options });
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  const started = performance.now();
  const events = await turn(runner, { message: 'hi' });
  const ms = performance.now() - started;
  const stored = await runner.sessions.getSession({ appName: 'agent', userId: 'u1', sessionId: 's1' });
  return { events, ms, stored, runner };
}

const completion = (content: string) => ({
  json: {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
  },
});
const openai = (server: FakeServer, retry: Record<string, unknown>) =>
  createOpenAIModel({
    model: 'gpt-test',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    env: {},
    retry: { initialDelayMs: 1, ...retry },
  });

export const rows = defineRows(
  import.meta.url,
  'faults',
  [
    {
      id: 'hang.model',
      entry: 'model call',
      tried: 'a model that never answers and ignores its abort signal, with `modelTimeoutMs: 100`',
      expected:
        "error event `model_timeout` (`no complete answer within 100 ms … Raise modelTimeoutMs`) after ~100 ms; the call's signal is aborted; the next turn works",
      run: async () => {
        let signal: AbortSignal | undefined;
        let hang = true;
        const model: Model = {
          specificationVersion: 'v1',
          provider: 'test',
          modelId: 'x',
          generate: async (_request, options) => (
            (signal = options?.signal), hang ? never() : { content: { role: 'model', parts: [{ text: 'back' }] } }
          ),
        };
        const { events, ms, stored, runner } = await runOnce(model, { modelTimeoutMs: 100 });
        expect(events.map((event) => event.errorCode ?? event.author)).toEqual(['user', 'model_timeout']);
        expect(events[1]?.errorMessage).toBe(
          "The model call got no complete answer within 100 ms and was abandoned (call 1 of this invocation, agent 'agent'). Raise modelTimeoutMs if the model needs longer.",
        );
        expect(ms).toBeLessThan(2000);
        expect(signal?.aborted).toBe(true);
        expect(stored?.revision).toBe(2);
        hang = false;
        expect((await turn(runner, { message: 'again' })).at(-1)?.content?.parts).toEqual([{ text: 'back' }]);
      },
    },
    {
      id: 'hang.model-stream',
      entry: 'model call',
      tried: 'a streaming model that sends one chunk and then hangs, with `modelTimeoutMs: 100`',
      expected: 'the partial chunk is shown, never stored; error event `model_timeout`',
      run: async () => {
        const model: Model = {
          specificationVersion: 'v1',
          provider: 'test',
          modelId: 'x',
          generate: () => never(),
          async *stream(): AsyncGenerator<ModelStreamChunk> {
            yield { content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true };
            await never();
          },
        };
        const { events, stored } = await runOnce(model, { modelTimeoutMs: 100, streaming: true });
        expect(events.map((event) => (event.partial === true ? 'partial' : (event.errorCode ?? event.author)))).toEqual(
          ['user', 'partial', 'model_timeout'],
        );
        expect(stored?.events.map((event) => event.errorCode ?? event.author)).toEqual(['user', 'model_timeout']);
      },
    },
    {
      id: 'hang.tool',
      entry: 'tool call',
      tried: 'a tool that never returns and ignores its signal, beside one that answers, with `toolTimeoutMs: 100`',
      expected:
        "`{ error: \"Tool 'wait' did not answer within 100 ms and was stopped. …\" }`, its signal aborted; the other tool's answer kept; the model is called again",
      run: async () => {
        let signal: AbortSignal | undefined;
        const wait = functionTool({
          name: 'wait',
          description: 'Waits.',
          jsonSchema: { type: 'object' },
          execute: (_args, context) => ((signal = context.signal), never()),
        });
        const quick = functionTool({
          name: 'quick',
          description: 'Answers.',
          jsonSchema: { type: 'object' },
          execute: () => ({ ok: true }),
        });
        const model = listModel([
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'wait', args: {} } }, { functionCall: { name: 'quick', args: {} } }],
            },
          },
          { content: { role: 'model', parts: [{ text: 'moved on' }] } },
        ]);
        const runner = createRunner({
          agents: llmAgent({ name: 'agent', tools: [wait, quick] }),
          model,
          toolTimeoutMs: 100,
        });
        await runner.createSession({ userId: 'u1', sessionId: 's1' });
        const events = await turn(runner, { message: 'hi' });
        expect(
          events[2]?.content?.parts.map((part) =>
            'functionResponse' in part ? part.functionResponse.response : undefined,
          ),
        ).toEqual([
          {
            error:
              "Tool 'wait' did not answer within 100 ms and was stopped. Try again with a smaller task, or without this tool.",
          },
          { ok: true },
        ]);
        expect(signal?.aborted).toBe(true);
        expect(events.at(-1)?.content?.parts).toEqual([{ text: 'moved on' }]);
      },
    },
    {
      id: 'hang.options',
      entry: 'runner options',
      tried: '`modelTimeoutMs: 0`, `toolTimeoutMs: -5`, `modelTimeoutMs: NaN`',
      expected: 'createRunner throws `… must be a positive number of milliseconds, got 0.` before anything runs',
      run: async () => {
        for (const options of [{ modelTimeoutMs: 0 }, { toolTimeoutMs: -5 }, { modelTimeoutMs: Number.NaN }]) {
          const error = await caught(() =>
            createRunner({ agents: llmAgent({ name: 'agent' }), model: listModel([]), ...options }),
          );
          expectTyped(error, {
            code: 'invalid_input',
            message: /^(modelTimeoutMs|toolTimeoutMs) must be a positive number of milliseconds, got (0|-5|NaN)\.$/,
            hint: /Leave it out for no limit/,
          });
        }
      },
    },
    {
      id: 'provider.retried-then-reported',
      entry: 'model provider',
      tried: 'an OpenAI-protocol server that answers 503 every time',
      expected:
        "three attempts (two retries with backoff), then error event `model_error` with the provider's status and message",
      run: async () => {
        const server = await serve(() => ({
          status: 503,
          json: { error: { message: 'Overloaded.', type: 'server_error', param: null, code: null } },
        }));
        const { events } = await runOnce(openai(server, { maxRetries: 2 }));
        expect(server.received).toHaveLength(3);
        expect(events.at(-1)).toMatchObject({
          errorCode: 'model_error',
          errorMessage: "The model call failed (call 1 of this invocation, agent 'agent'): openai 503: Overloaded.",
        });
      },
    },
    {
      id: 'provider.retried-recovers',
      entry: 'model provider',
      tried: 'a server that drops the connection, answers 429, then answers',
      expected: 'the turn succeeds after the retries, with one answer stored and no error event',
      run: async () => {
        const server = await serve((index) =>
          index === 0
            ? { destroy: true }
            : index === 1
              ? { status: 429, json: { error: { message: 'Slow down.', type: 'requests', param: null, code: null } } }
              : completion('fine'),
        );
        const { events } = await runOnce(openai(server, { maxRetries: 2 }));
        expect(server.received.length).toBe(3);
        expect(events.map((event) => event.errorCode ?? event.content?.parts[0])).toEqual([
          { text: 'hi' },
          { text: 'fine' },
        ]);
      },
    },
    {
      id: 'provider.attempt-timeout',
      entry: 'model provider',
      tried: "a server that accepts the request and never answers, with the adapter's attempt timeout at 150 ms",
      expected: 'each attempt cut at 150 ms and retried, then `model_error` `openai: no answer within 150 ms`',
      run: async () => {
        const server = await serve(() => never());
        const { events, ms } = await runOnce(openai(server, { maxRetries: 1, timeoutMs: 150 }));
        expect(server.received).toHaveLength(2);
        expect(events.at(-1)).toMatchObject({
          errorCode: 'model_error',
          errorMessage: expect.stringMatching(/openai: no answer within 150 ms$/),
        });
        expect(ms).toBeLessThan(3000);
      },
    },
    {
      id: 'provider.scripted-exhausted',
      entry: 'model provider',
      tried: 'an offline scripted model asked more often than its script answers',
      expected:
        'error event `model_error`: `its 1 responses are used up and no rule matched. Add a response, a rule or a fallback`',
      run: async () => {
        const { events } = await runOnce(createScriptedModel([{ functionCall: { name: 'missing', args: {} } }]));
        expect(events.at(-1)?.errorMessage).toMatch(
          /its 1 responses are used up and no rule matched\. Add a response, a rule or a fallback/,
        );
      },
    },
  ],
  { afterAll: servers.closeAll },
);
