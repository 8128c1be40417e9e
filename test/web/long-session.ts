// A long session written call by call through the store contract, for timing the inspector on it: each call sends the
// history so far (the same message objects, as the runner reuses them), compacted every 50 calls as a real agent's
// would be, so the request size and the stored differences look like a long run's.
import type { Provenance } from '../../src/contracts/provenance.js';
import type { LlmRequest, Message } from '../../src/contracts/request.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import type { Source } from '../../src/contracts/source.js';
import { createEvent } from '../../src/engine/session/create-event.js';

export const LONG: SessionKey = { appName: 'long_app', userId: 'bench', sessionId: 'long' };

const T0 = 1_760_000_000;
const COMPACT_EVERY = 50;
const AGENT = 'worker';
const INSTRUCTION = `You are the worker. ${'Work through the queue one item at a time, note what you found, and keep going until it is empty. '.repeat(12)}`;
const TOOLS: LlmRequest['tools'] = [
  {
    name: 'next_item',
    description: 'Takes the next item of the queue.',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'note',
    description: 'Writes a finding to the notes.',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
];
const source = (kind: Source['kind'], field?: string): Source => ({
  kind,
  processor: kind,
  agent: AGENT,
  ...(field === undefined ? {} : { field }),
});

/** Writes a session of `calls` answered calls, with their events, into `store`; its clock starts at `start`. */
export async function writeLongSession(
  store: SessionStoreWithCallLog,
  calls: number,
  start: number = T0,
): Promise<void> {
  const key = LONG;
  const session = await store.createSession(key);
  let time = start;
  const tick = () => (time += 0.01);
  const append = (input: Parameters<typeof createEvent>[0]) =>
    store.appendEvent({ session, event: createEvent(input) });
  let history: Message[] = [];
  let sources: Source[][] = [];
  const push = (message: Message, kind: Source['kind']) => {
    history = [...history, message];
    sources = [...sources, message.content.map(() => source(kind))];
  };
  const invocationId = 'inv-long';
  const first = { role: 'user' as const, content: [{ text: 'Work through the queue.' }] };
  const said = (message: Message) => ({ role: message.role, parts: message.content });
  await append({ invocationId, author: 'user', timestamp: tick(), content: said(first) });
  push(first, 'history');
  for (let index = 1; index <= calls; index++) {
    const request: LlmRequest = { system: INSTRUCTION, tools: TOOLS, messages: history, config: {} };
    const provenance: Provenance = {
      system: [{ start: 0, end: INSTRUCTION.length, source: source('instruction', 'instruction') }],
      tools: TOOLS.map((_, tool) => source('tool', `tools[${tool}]`)),
      messages: sources,
    };
    const callTime = tick();
    const args = { text: `Item ${index}: ${'the figures add up and the dates are in order; '.repeat(3)}` };
    const answer: Message = { role: 'model', content: [{ functionCall: { id: `c${index}`, name: 'note', args } }] };
    const answered = await append({ invocationId, author: AGENT, timestamp: tick(), content: said(answer) });
    await store.recordModelCall({
      ...key,
      call: {
        invocationId,
        agent: AGENT,
        timestamp: callTime,
        request,
        provenance,
        editedByCallback: false,
        status: 'answered',
        latencyMs: 5,
        responseEventId: answered.id,
      },
    });
    const result: Message = {
      role: 'user',
      content: [{ functionResponse: { id: `c${index}`, name: 'note', response: { saved: true, item: index } } }],
    };
    await append({
      invocationId,
      author: AGENT,
      timestamp: tick(),
      content: said(result),
      actions: { stateDelta: { [`item-${index}`]: 'noted' }, artifactDelta: {} },
    });
    push(answer, 'history');
    push(result, 'history');
    if (index % COMPACT_EVERY === 0) {
      const summary = { role: 'user' as const, content: [{ text: `Summary of items up to ${index}: all noted.` }] };
      await append({
        invocationId,
        author: 'user',
        timestamp: tick(),
        actions: {
          stateDelta: {},
          artifactDelta: {},
          compaction: { startTimestamp: start, endTimestamp: time, compactedContent: said(summary) },
        },
      });
      history = [];
      sources = [];
      push(summary, 'summary');
    }
  }
}
