// A session whose calls miss the prompt cache for three named reasons, recorded through the runner with the scripted
// model: a state value used by a {placeholder} of the instruction changes (call 2), a batch is paged into the system
// text (call 3), and the next invocation runs the agent with its tools in another order (call 4). Call 5 keeps the
// prefix. test/cli/inspect-cache.test.ts reads it through the CLI, test/web/cache-*.test.ts through the inspector.
import type { SessionStore } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import type { Tool } from '../../src/contracts/tool.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { paging } from '../../src/features/paging/paging.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';

export const CACHED: SessionKey = { appName: 'cache_app', userId: 'reader', sessionId: 'cache-misses' };

/** Per call: the previous call it is compared with, where its prefix changed and the cause's kind and text. */
export const CACHE_CALLS: { index: number; previous?: number; where?: string; kind?: string; text?: string }[] = [
  { index: 1 },
  { index: 2, previous: 1, where: 'system', kind: 'substitution-changed', text: 'instruction: {current_time} changed' },
  { index: 3, previous: 2, where: 'system', kind: 'page-added', text: 'page added: paging:items' },
  { index: 4, previous: 3, where: 'tools', kind: 'tools-reordered', text: 'tools reordered' },
  { index: 5, previous: 4 },
];

const tick = functionTool({
  name: 'tick',
  description: 'Moves the clock on.',
  execute: (_args, context) => (context.state.set('current_time', '09:05'), { ok: true }),
});
const lookup = functionTool({ name: 'lookup', description: 'Looks a word up.', execute: () => ({ found: true }) });

function analyst(tools: Tool[]) {
  // The page goes into the system text (placement `system`), so paging a batch in changes the system text.
  const items = paging({
    name: 'items',
    maxPerRead: 5,
    load: (id: string) => `Report ${id}: revenue 100.`,
    placement: 'system',
  });
  return llmAgent({
    name: 'analyst',
    description: 'Reads reports.',
    instruction: 'Analyze the items you page in. The time is {current_time}. Be brief.',
    tools,
    extensions: [items],
  });
}

export async function writeCacheSession(store: SessionStore): Promise<void> {
  const model = createScriptedModel([
    { functionCall: { name: 'tick', args: {} } },
    { functionCall: { name: 'get_items', args: { ids: ['r1', 'r2'] } } },
    { text: 'Revenue 200.' },
    { functionCall: { name: 'lookup', args: {} } },
    { text: 'Looked up.' },
  ]);
  let time = 1_700_000_000;
  let id = 0;
  const clock = { now: () => (time += 0.001), newId: () => `id${++id}` };
  const run = async (tools: Tool[], message: string) => {
    const runner = createRunner({ ...clock, agents: analyst(tools), appName: CACHED.appName, model, sessions: store });
    if ((await store.getSession(CACHED)) === undefined)
      await runner.createSession({
        userId: CACHED.userId,
        sessionId: CACHED.sessionId,
        state: { current_time: '09:00' },
      });
    for await (const event of runner.run({ userId: CACHED.userId, sessionId: CACHED.sessionId, message })) void event;
  };
  await run([tick, lookup], 'Sum the revenue.');
  // The same agent with its tools in another order, on the same session.
  await run([lookup, tick], 'Look it up.');
}
