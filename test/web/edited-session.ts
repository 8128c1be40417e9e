// A session written call by call through the store contract: a request a beforeModel callback edited (its provenance
// reconciled as the runner does), the sub-agent call its agent tool made, an aborted call, an old-style recording whose
// provenance no longer lines up, and a call whose process died (still pending).
import type { Provenance } from '../../src/contracts/provenance.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import type { Source } from '../../src/contracts/source.js';
import { reconcileProvenance } from '../../src/engine/assembly/reconcile-provenance.js';
import { createEvent } from '../../src/engine/session/create-event.js';

export const EDITED: SessionKey = { appName: 'coordinator_app', userId: 'ops', sessionId: 'edited' };

/** The coordinator's beforeModel callback, as the runner names it. */
export const HOOK: Source = {
  kind: 'callback',
  processor: 'beforeModel',
  agent: 'coordinator',
  field: 'callbacks.beforeModel',
  note: 'beforeModel callback',
};
export const APPENDED = '\n\nAlways cite your sources.';
export const INSERTED = 'Context: the user is on the free plan.';
export const ANSWER = 'Let me ask the researcher.';
/** Compact JSON with markup and non-ASCII in it: the page must show it byte for byte. */
export const WIRE_BODY = JSON.stringify({
  model: 'gpt-4o-mini',
  stream: true,
  messages: [{ role: 'system', content: 'You are the coordinator.' }],
  metadata: { note: 'a <b>tag</b> & ünïcode' },
});
export const LATENCY_MS = 1234;
export const USAGE = {
  promptTokens: 812,
  cachedTokens: 512,
  cacheWriteTokens: 128,
  outputTokens: 64,
  reasoningTokens: 16,
  totalTokens: 876,
};

const T0 = 1_750_000_000;
const INSTRUCTION = 'You are the coordinator. Delegate research to the researcher tool.';
const PROFILE = 'The user is Ada Lovelace; answer briefly.';

/** The request as assembly left it, and its provenance. */
export function assembledRequest(): { request: LlmRequest; provenance: Provenance } {
  const request: LlmRequest = {
    system: `${INSTRUCTION}\n\n${PROFILE}`,
    tools: [
      {
        name: 'researcher',
        description: 'Asks the researcher agent a question.',
        parameters: { type: 'object', properties: { question: { type: 'string' } } },
      },
      { name: 'debug_dump', description: 'Dumps internal state.' },
    ],
    messages: [{ role: 'user', content: [{ text: 'Ada asks: who wrote the first program?' }] }],
    config: {},
  };
  const provenance: Provenance = {
    system: [
      {
        start: 0,
        end: INSTRUCTION.length,
        source: { kind: 'instruction', processor: 'instructions', agent: 'coordinator', field: 'instruction' },
      },
      {
        start: INSTRUCTION.length + 2,
        end: request.system.length,
        source: { kind: 'memory', processor: 'profile', agent: 'coordinator', note: 'user profile' },
      },
    ],
    tools: [
      { kind: 'tool', processor: 'tools', agent: 'coordinator', field: 'tools[0]' },
      { kind: 'tool', processor: 'tools', agent: 'coordinator', field: 'tools[1]' },
    ],
    messages: [[{ kind: 'history', processor: 'contents', agent: 'coordinator', eventIds: ['e-user'] }]],
  };
  return { request, provenance };
}

/** What the callback did: redact a name everywhere, append a paragraph, shorten the tools, insert a message. */
export function editedRequest(): { request: LlmRequest; provenance: Provenance } {
  const before = assembledRequest();
  const after = structuredClone(before.request);
  after.system = after.system.replace('Ada', 'REDACTED') + APPENDED;
  after.tools = [
    {
      ...(after.tools[0] as LlmRequest['tools'][number]),
      description: 'Asks the researcher agent a question. Keep questions short.',
    },
  ];
  after.messages = [
    { role: 'user', content: [{ text: 'REDACTED asks: who wrote the first program?' }] },
    { role: 'user', content: [{ text: INSERTED }] },
  ];
  return { request: after, provenance: reconcileProvenance(before.request, before.provenance, after, HOOK) };
}

export async function writeEditedSession(store: SessionStoreWithCallLog): Promise<void> {
  const session = await store.createSession({
    appName: EDITED.appName,
    userId: EDITED.userId,
    sessionId: EDITED.sessionId,
  });
  const append = (input: Parameters<typeof createEvent>[0]) =>
    store.appendEvent({ session, event: createEvent({ invocationId: 'inv-1', ...input }) });
  await append({
    id: 'e-user',
    author: 'user',
    timestamp: T0,
    content: { role: 'user', parts: [{ text: 'Ada asks: who wrote the first program?' }] },
  });
  const question = { question: 'Who wrote the first program?' };
  await append({
    id: 'e-call1',
    author: 'coordinator',
    timestamp: T0 + 1.5,
    content: {
      role: 'model',
      parts: [{ text: ANSWER }, { functionCall: { id: 'call_1', name: 'researcher', args: question } }],
    },
  });
  await append({
    id: 'e-result',
    author: 'coordinator',
    timestamp: T0 + 3,
    content: {
      role: 'user',
      parts: [{ functionResponse: { id: 'call_1', name: 'researcher', response: { answer: 'Ada Lovelace' } } }],
    },
  });
  await append({
    id: 'e-final',
    author: 'coordinator',
    timestamp: T0 + 6,
    content: { role: 'model', parts: [{ text: 'Ada Lovelace wrote it.' }] },
  });

  const model = { provider: 'openai', modelId: 'gpt-4o-mini' };
  const edited = editedRequest();
  await store.recordModelCall({
    ...EDITED,
    call: {
      invocationId: 'inv-1',
      agent: 'coordinator',
      timestamp: T0 + 1,
      model,
      ...edited,
      editedByCallback: true,
      status: 'answered',
      latencyMs: LATENCY_MS,
      firstTokenMs: 321,
      response: {
        content: {
          role: 'model',
          parts: [
            { text: 'The researcher knows this.', thought: true },
            { text: ANSWER },
            { functionCall: { id: 'call_1', name: 'researcher', args: question } },
          ],
        },
        finishReason: 'STOP',
      },
      usage: USAGE,
      wire: {
        url: 'https://api.openai.com/v1/chat/completions',
        method: 'POST',
        body: WIRE_BODY,
        status: 200,
        usage: { prompt_tokens: 812, completion_tokens: 64, prompt_tokens_details: { cached_tokens: 512 } },
        attempts: 2,
      },
      responseEventId: 'e-call1',
    },
  });

  // The researcher's call, made inside the coordinator's tool call; its own events live in a session of its own.
  await store.recordModelCall({
    ...EDITED,
    call: {
      invocationId: 'inv-sub',
      agent: 'researcher',
      timestamp: T0 + 2,
      model,
      parent: { callIndex: 1, functionCallId: 'call_1', tool: 'researcher' },
      request: {
        system: 'You research questions.',
        tools: [],
        messages: [{ role: 'user', content: [{ text: 'Who wrote the first program?' }] }],
        config: {},
      },
      provenance: {
        system: [
          {
            start: 0,
            end: 23,
            source: { kind: 'instruction', processor: 'instructions', agent: 'researcher', field: 'instruction' },
          },
        ],
        tools: [],
        messages: [[{ kind: 'history', processor: 'contents', agent: 'researcher' }]],
      },
      editedByCallback: false,
      status: 'answered',
      latencyMs: 800,
      response: {
        content: { role: 'model', parts: [{ text: 'Ada Lovelace wrote the first program.' }] },
        finishReason: 'STOP',
      },
      usage: { promptTokens: 40, outputTokens: 9 },
      responseEventId: 'e-sub-answer',
    },
  });

  // Cancelled: recorded pending, then completed as the runner does.
  const plain = assembledRequest();
  const aborted = await store.recordModelCall({
    ...EDITED,
    call: { invocationId: 'inv-1', agent: 'coordinator', timestamp: T0 + 4, model, ...plain, editedByCallback: false },
  });
  await store.completeModelCall({
    ...EDITED,
    index: aborted,
    outcome: { status: 'aborted', latencyMs: 50, error: 'The run was cancelled.' },
  });

  // An old-style recording: the callback's request with the provenance from before it, which no longer lines up.
  await store.recordModelCall({
    ...EDITED,
    call: {
      invocationId: 'inv-1',
      agent: 'coordinator',
      timestamp: T0 + 5,
      model,
      request: edited.request,
      provenance: plain.provenance,
      editedByCallback: true,
      status: 'answered',
      latencyMs: 600,
      responseEventId: 'e-final',
    },
  });

  // The process died during this one.
  await store.recordModelCall({
    ...EDITED,
    call: { invocationId: 'inv-1', agent: 'coordinator', timestamp: T0 + 7, model, ...plain, editedByCallback: false },
  });
}
