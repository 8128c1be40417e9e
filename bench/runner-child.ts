// One (framework, store, N) run of `npm run bench:runner`, in a process of its own (started by bench/runner.ts with
// --expose-gc). Prints one line `RESULT {json}` on stdout; any failed check throws and exits non-zero.
//   node --expose-gc --import tsx bench/runner-child.ts <agentctx|adk> <memory|sqlite> <events>
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  historyEvents,
  measuredTurns,
  turnMessage,
  WARMUP_TURNS,
  type BenchSide,
  type Framework,
  type RequestShape,
  type Store,
} from './runner-scenario.js';
import { median } from './stats.js';

export type ChildResult = {
  framework: Framework;
  store: Store;
  events: number;
  buildMs: number;
  /** Median of the last 20 history appends (events N-20 … N-1), each timed alone. */
  appendMs: number | null;
  /** agentctx sqlite only: the same, on a store opened with `synchronous: 'full'` (an fsync per commit). */
  appendFullSyncMs?: number | null;
  turns: number;
  turnMs: { median: number; min: number; max: number };
  lastRequest: RequestShape;
  rssMb: number;
  heapMb: number;
};

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const mb = (bytes: number): number => round(bytes / 1048576, 1);

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function openSide(
  framework: Framework,
  sqlitePath: string | undefined,
  synchronous?: 'full',
): Promise<BenchSide> {
  if (framework === 'agentctx') {
    const { createAgentctxSide } = await import('./runner-agentctx.js');
    return createAgentctxSide({ sqlitePath, ...(synchronous === undefined ? {} : { synchronous }) });
  }
  const { createAdkSide } = await import('./runner-adk.js');
  return createAdkSide({ sqlitePath });
}

/** Appends the N history events one by one and returns each append's milliseconds. */
async function buildHistory(side: BenchSide, events: number): Promise<number[]> {
  const times: number[] = [];
  let index = 0;
  for (const event of historyEvents(events)) {
    const start = performance.now();
    await side.append(event, index++);
    times.push(performance.now() - start);
  }
  return times;
}

const lastAppends = (times: number[]): number | null => (times.length >= 40 ? round(median(times.slice(-20))) : null);

async function main(framework: Framework, store: Store, events: number): Promise<ChildResult> {
  const dir = store === 'sqlite' ? mkdtempSync(join(tmpdir(), `bench-runner-${framework}-`)) : undefined;
  try {
    const sqlitePath = dir === undefined ? undefined : join(dir, 'sessions.db');
    const side = await openSide(framework, sqlitePath);

    const buildStart = performance.now();
    const appendTimes = await buildHistory(side, events);
    const buildMs = performance.now() - buildStart;
    check((await side.storedEvents()) === events, `${framework} stored ${events} history events`);
    globalThis.gc?.();

    const reps = measuredTurns(events);
    const turnTimes: number[] = [];
    for (let turn = 0; turn < WARMUP_TURNS + reps; turn++) {
      const start = performance.now();
      const yielded = await side.turn(turnMessage(turn));
      const elapsed = performance.now() - start;
      if (turn >= WARMUP_TURNS) turnTimes.push(elapsed);
      check(yielded >= 1, `turn ${turn} yielded events (${yielded})`);
      check(
        side.modelCalls === turn + 1,
        `the model was called exactly once per turn (turn ${turn}: ${side.modelCalls} calls)`,
      );
    }
    const turns = WARMUP_TURNS + reps;
    // Each earlier turn added its user message and the model's answer; the last request holds the history, those and its own message.
    const lastRequest = side.lastRequest();
    check(lastRequest !== undefined, 'the model saw a request');
    const shape = lastRequest as RequestShape;
    check(
      shape.messages === events + 2 * (turns - 1) + 1,
      `last request has ${events + 2 * (turns - 1) + 1} messages (got ${shape.messages})`,
    );
    check(shape.instructionRendered, 'the system text holds the rendered instruction and the description');
    check(shape.toolDeclared, 'the lookup tool is declared');
    check(
      (await side.storedEvents()) === events + 2 * turns,
      `the store holds the history plus 2 events per turn (${events + 2 * turns})`,
    );

    let appendFullSyncMs: number | null | undefined;
    if (framework === 'agentctx' && store === 'sqlite' && events === 100 && dir !== undefined) {
      const fullSync = await openSide('agentctx', join(dir, 'full-sync.db'), 'full');
      appendFullSyncMs = lastAppends(await buildHistory(fullSync, events));
      await fullSync.close();
    }
    await side.close();
    globalThis.gc?.();
    const memory = process.memoryUsage();
    return {
      framework,
      store,
      events,
      buildMs: round(buildMs, 1),
      appendMs: lastAppends(appendTimes),
      ...(appendFullSyncMs === undefined ? {} : { appendFullSyncMs }),
      turns: reps,
      turnMs: {
        median: round(median(turnTimes)),
        min: round(Math.min(...turnTimes)),
        max: round(Math.max(...turnTimes)),
      },
      lastRequest: shape,
      rssMb: mb(memory.rss),
      heapMb: mb(memory.heapUsed),
    };
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

const [framework, store, events] = process.argv.slice(2);
if (
  (framework !== 'agentctx' && framework !== 'adk') ||
  (store !== 'memory' && store !== 'sqlite') ||
  !Number.isInteger(Number(events))
) {
  process.stderr.write('usage: runner-child.ts <agentctx|adk> <memory|sqlite> <events>\n');
  process.exit(2);
}
const result = await main(framework, store, Number(events));
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
// ADK's DatabaseSessionService keeps its connection open; nothing else is pending.
process.exit(0);
