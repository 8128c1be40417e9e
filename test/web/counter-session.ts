// A session whose state is written with state operations only: a counter of its own (`count`), a log (`log`), and a
// counter its user shares with other sessions (`user:visits`). The state at a call is worked out from the operations
// where it can be, and said to be not known where it cannot.
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import type { StateOp } from '../../src/contracts/state-op.js';
import { createEvent } from '../../src/engine/session/create-event.js';

export const COUNTERS: SessionKey = { appName: 'batch_app', userId: 'counting_user', sessionId: 'counters' };
const AGENT = 'counter_agent';
const T0 = 1_770_000_000;

export async function writeCounterSession(store: SessionStoreWithCallLog): Promise<void> {
  const session = await store.createSession({ ...COUNTERS });
  const append = (input: Parameters<typeof createEvent>[0]) =>
    store.appendEvent({ session, event: createEvent(input) });
  const call = (timestamp: number, responseEventId: string) =>
    store.recordModelCall({
      ...COUNTERS,
      call: {
        invocationId: 'inv-1',
        agent: AGENT,
        timestamp,
        request: {
          system: 'Count.',
          tools: [],
          messages: [{ role: 'user', content: [{ text: 'count' }] }],
          config: {},
        },
        provenance: { system: [], tools: [], messages: [[]] },
        editedByCallback: false,
        status: 'answered',
        latencyMs: 10,
        responseEventId,
      },
    });
  const actions = (stateOps: StateOp[]) => ({ stateDelta: {}, artifactDelta: {}, stateOps });
  await append({
    id: 'e-start',
    invocationId: 'inv-1',
    author: 'user',
    timestamp: T0,
    content: { role: 'user', parts: [{ text: 'count' }] },
    actions: actions([
      { op: 'add', key: 'count', by: 1 },
      { op: 'add', key: 'user:visits', by: 1 },
      { op: 'append', key: 'log', items: ['one'] },
    ]),
  });
  await call(T0 + 1, 'e-answer-1');
  await append({
    id: 'e-answer-1',
    invocationId: 'inv-1',
    author: AGENT,
    timestamp: T0 + 2,
    content: { role: 'model', parts: [{ text: 'one' }] },
    actions: actions([
      { op: 'add', key: 'count', by: 1 },
      { op: 'append', key: 'log', items: ['two'] },
    ]),
  });
  await call(T0 + 3, 'e-answer-2');
  await append({
    id: 'e-answer-2',
    invocationId: 'inv-1',
    author: AGENT,
    timestamp: T0 + 4,
    content: { role: 'model', parts: [{ text: 'two' }] },
    actions: actions([{ op: 'add', key: 'count', by: 1 }]),
  });
}
