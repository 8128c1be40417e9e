// A session whose state grows call by call (batch-1 … batch-12, to check the state at each call and keys in natural
// order), started with some state of its own, and a second turn whose answer was stamped a millisecond before its call
// (a skewed clock): the timeline must still list rows in time order.
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import { createEvent } from '../../src/engine/session/create-event.js';

export const BATCHES: SessionKey = { appName: 'batch_app', userId: 'ops', sessionId: 'batches' };
export const BATCH_AGENT = 'nightly_batch_coordinator_agent';
export const BATCH_COUNT = 12;
/** The call of the second turn, stamped after the event that carried its answer. */
export const SKEWED_CALL = BATCH_COUNT + 1;

const T0 = 1_760_000_000;

export async function writeBatchSession(store: SessionStoreWithCallLog): Promise<void> {
  const session = await store.createSession({ ...BATCHES, state: { owner: 'ops team', 'user:lang': 'en' } });
  const append = (input: Parameters<typeof createEvent>[0]) =>
    store.appendEvent({ session, event: createEvent(input) });
  const request = (text: string) => ({
    system: `You are the ${BATCH_AGENT}.`,
    tools: [],
    messages: [{ role: 'user' as const, content: [{ text }] }],
    config: {},
  });
  const provenance = {
    system: [
      {
        start: 0,
        end: `You are the ${BATCH_AGENT}.`.length,
        source: { kind: 'instruction' as const, processor: 'instructions', agent: BATCH_AGENT },
      },
    ],
    tools: [],
    messages: [[{ kind: 'history' as const, processor: 'contents', agent: BATCH_AGENT }]],
  };
  const call = (index: number, invocationId: string, timestamp: number, responseEventId: string) =>
    store.recordModelCall({
      ...BATCHES,
      call: {
        invocationId,
        agent: BATCH_AGENT,
        timestamp,
        request: request(`batch ${index}`),
        provenance,
        editedByCallback: false,
        status: 'answered',
        latencyMs: 200,
        responseEventId,
      },
    });

  await append({
    id: 'e-user',
    invocationId: 'inv-1',
    author: 'user',
    timestamp: T0,
    content: { role: 'user', parts: [{ text: `Save the ${BATCH_COUNT} batches.` }] },
  });
  for (let batch = 1; batch <= BATCH_COUNT; batch++) {
    await append({
      id: `e-call-${batch}`,
      invocationId: 'inv-1',
      author: BATCH_AGENT,
      timestamp: T0 + batch + 0.2,
      content: {
        role: 'model',
        parts: [{ functionCall: { id: `save-${batch}`, name: 'save_batch', args: { batch } } }],
      },
    });
    await call(batch, 'inv-1', T0 + batch, `e-call-${batch}`);
    // temp: keys reach the live session only: the store keeps none of them.
    const stateDelta = { [`batch-${batch}`]: `saved ${batch}`, 'temp:scratch': batch };
    await append({
      id: `e-result-${batch}`,
      invocationId: 'inv-1',
      author: BATCH_AGENT,
      timestamp: T0 + batch + 0.4,
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: `save-${batch}`, name: 'save_batch', response: { saved: batch } } }],
      },
      actions: { stateDelta, artifactDelta: {} },
    });
  }
  await append({
    id: 'e-ask',
    invocationId: 'inv-2',
    author: 'user',
    timestamp: T0 + 20.023,
    content: { role: 'user', parts: [{ text: 'Summarize.' }] },
  });
  await append({
    id: 'e-summary',
    invocationId: 'inv-2',
    author: BATCH_AGENT,
    timestamp: T0 + 20.023,
    content: { role: 'model', parts: [{ text: `All ${BATCH_COUNT} batches saved.` }] },
    actions: { stateDelta: { summary: 'done' }, artifactDelta: {} },
  });
  await call(SKEWED_CALL, 'inv-2', T0 + 20.024, 'e-summary');
}
