import { expect } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { ModelCallOutcome, NewModelCall, WireRecord } from '../../contracts/model-call.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { SessionKey } from '../../contracts/session.js';
import { openSession } from './log-sessions.js';

/** A new, empty log (or a store that is also one) and the app its cases use. */
export type CallLogSetup = () => Promise<{ store: ModelCallLog; app: string }>;

/** Another log over the same storage as the one given, as a second process would open it. */
export type TwinLog = (store: ModelCallLog) => ModelCallLog | Promise<ModelCallLog>;

/** What the model-call cases are written with: a fresh log with a session, calls, outcomes and wire records. */
export type ModelCallFixtures = {
  /** A fresh log with session `s1` of user `u1` open. */
  start: () => Promise<{ store: ModelCallLog; app: string; key: SessionKey }>;
  /** The code and message of the `AgentctxError` a promise rejects with (failing the case otherwise). */
  codeOf: (promise: Promise<unknown>) => Promise<{ code: string; message: string }>;
  /** Call `n` of the session, asking `text`. */
  newCall: (n: number, text?: string) => NewModelCall;
  wire: (body: string, extra?: Partial<WireRecord>) => WireRecord;
  /** An answered outcome whose wire body is `body`. */
  answered: (body: string, n?: number) => ModelCallOutcome;
  /** An outcome with every field set, Unicode and nested values included. */
  full: ModelCallOutcome;
};

export function modelCallFixtures(setup: CallLogSetup): ModelCallFixtures {
  const start = async () => {
    const { store, app } = await setup();
    const key: SessionKey = { appName: app, userId: 'u1', sessionId: 's1' };
    await openSession(store, key);
    return { store, app, key };
  };
  const codeOf = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(AgentctxError.isInstance(error), 'an AgentctxError').toBe(true);
    return { code: (error as AgentctxError).code, message: (error as AgentctxError).message };
  };
  const newCall = (n: number, text = `question ${n}`): NewModelCall => ({
    invocationId: `inv-${n}`,
    agent: 'a',
    timestamp: 1_700_000_000 + n,
    model: { provider: 'openai', modelId: 'gpt-test' },
    request: {
      system: 'S',
      tools: [],
      messages: [{ role: 'user', content: [{ text }] }],
      config: { model: 'gpt-test' },
    },
    provenance: {
      system: [
        {
          start: 0,
          end: 1,
          source: { kind: 'instruction', processor: 'instructions', agent: 'a', field: 'instruction' },
        },
      ],
      tools: [],
      messages: [[{ kind: 'history', processor: 'contents', agent: 'user', eventIds: [`e${n}`] }]],
    },
    editedByCallback: false,
  });
  const wire = (body: string, extra: Partial<WireRecord> = {}): WireRecord => ({
    url: 'https://api.example.test/v1/chat',
    method: 'POST',
    body,
    status: 200,
    attempts: 1,
    ...extra,
  });
  const answered = (body: string, n = 1): ModelCallOutcome => ({
    status: 'answered',
    latencyMs: 1000 + n,
    wire: wire(body),
    responseEventId: `ev-${n}`,
  });
  const full: ModelCallOutcome = {
    status: 'answered',
    latencyMs: 1234.5,
    firstTokenMs: 210.25,
    response: {
      content: {
        role: 'model',
        parts: [
          { text: 'héllo 👋 こんにちは', thought: true, thoughtSignature: 'c2ln' },
          { functionCall: { id: 'fc-1', name: 'lookup', args: { q: 'x', n: [1, { deep: null }] } } },
        ],
      },
      finishReason: 'STOP',
    },
    usage: {
      promptTokens: 100,
      outputTokens: 20,
      cachedTokens: 30,
      cacheWriteTokens: 10,
      reasoningTokens: 5,
      totalTokens: 120,
    },
    wire: wire(
      '{"model":"gpt-test","messages":[{"role":"user","content":"héllo 👋 \\u0000 こんにちは \\"quoted\\""}],"stream":true}\n',
      {
        status: 200,
        usage: {
          input_tokens: 100,
          output_tokens: 20,
          cache_read_input_tokens: 30,
          details: { reasoning: [5], note: 'ünï' },
        },
        attempts: 2,
      },
    ),
    responseEventId: 'ev-answer',
  };
  return { start, codeOf, newCall, wire, answered, full };
}

/** Provider-style bodies of consecutive calls: the history grows at its end; model, tools and options repeat around it. */
export function growingBodies(count: number, seed = 'turn'): string[] {
  const history: { role: string; content: string }[] = [];
  const tools = [
    {
      name: 'lookup',
      description: 'Looks things up — «vite» ✓',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    },
  ];
  return Array.from({ length: count }, (_, n) => {
    history.push({
      role: n % 2 === 0 ? 'user' : 'assistant',
      content: `${seed} ${n}: ${'ünïcödé 漢字 🎉 '.repeat(n % 5)}${'x'.repeat(n * 7)}`,
    });
    return JSON.stringify({ model: 'gpt-test', messages: history, tools, temperature: 0.2, stream: true });
  });
}
