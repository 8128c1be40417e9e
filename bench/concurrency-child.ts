// One worker process of `npm run bench:concurrency` (started by bench/concurrency.ts). It opens its framework's
// session service on the shared store, then runs the two workloads, each behind a start barrier:
//   stdout `READY counter`  ← stdin `GO`  → runs its sessions' turns  → stdout `RESULT {json}`
//   stdout `READY appends`  ← stdin `GO`  → appends to the shared session → stdout `RESULT {json}`
//   node --import tsx bench/concurrency-child.ts '<ChildConfig as JSON>'
import { createInterface } from 'node:readline';
import { openSide, SHARED_SESSION, type Side, type Target } from './concurrency-sides.js';

export type ChildConfig = { target: Target; process: number; sessions: number; turns: number; appends: number };

export type PhaseResult = {
  /** Turns or appends that finished without an error. */
  acknowledged: number;
  failed: number;
  /** Error messages (ids and numbers blanked) with how often each was thrown or yielded. */
  errors: Record<string, number>;
  /** Appends only: the ids of acknowledged events. */
  eventIds: string[];
  /** Stale-copy refusals retried: inside agentctx's runner (counter), or by this loop after a reload (appends). */
  conflictsRetried: number;
  ms: number;
};

/** A refused stale copy may be retried this many times in all, after reloading the session each time. */
const APPEND_ATTEMPTS = 50;

export const sessionId = (process: number, session: number): string => `p${process}-s${session}`;
export const turnLabel = (process: number, session: number, turn: number): string => `p${process}-s${session}-t${turn}`;
export const appendLabel = (process: number, index: number): string => `p${process}-e${index}`;

/** An error as one line, with what varies between occurrences (ids, numbers, paths) blanked so equal causes group. */
export function errorKey(error: unknown): string {
  const name = error instanceof Error ? (error.constructor?.name ?? error.name) : typeof error;
  const code =
    error !== null && typeof error === 'object' && 'code' in error
      ? ` [${String((error as { code: unknown }).code)}]`
      : '';
  let message = error instanceof Error ? error.message : String(error);
  // A driver error quoting its SQL statement: the statement's kind and table, then the driver's own words.
  const sql = /^(select|insert|update|delete)\b[\s\S]*? - ([\s\S]*)$/i.exec(message);
  if (sql !== null)
    message = `${sql[1]} ${/(?:into|from|update)\s+[`"]?(\w+)/i.exec(message)?.[1] ?? ''} … - ${sql[2]}`;
  message =
    message
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
      .replace(/p\d+-(s\d+-t|s|e)\d+/g, '<label>')
      .replace(/\/tmp\/\S+/g, '<path>')
      .replace(/\d+/g, 'N')
      .split('\n')[0]
      ?.slice(0, 260) ?? '';
  return `${name}${code}: ${message}`;
}

function tally(errors: Record<string, number>, key: string): void {
  errors[key] = (errors[key] ?? 0) + 1;
}

const isStaleRefusal = (error: unknown): boolean => {
  const code =
    error !== null && typeof error === 'object' && 'code' in error ? (error as { code: unknown }).code : undefined;
  return (
    error instanceof Error &&
    error.name === 'ConflictError' &&
    (code === 'stale_session' || code === 'stale_shared_state')
  );
};

/** Workload 1: this process's sessions run at the same time, each its turns one after another. */
async function counterPhase(side: Side, config: ChildConfig): Promise<PhaseResult> {
  const result: PhaseResult = { acknowledged: 0, failed: 0, errors: {}, eventIds: [], conflictsRetried: 0, ms: 0 };
  const before = side.runnerConflicts();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: config.sessions }, async (_, session) => {
      for (let turn = 0; turn < config.turns; turn++) {
        try {
          const errors = await side.turn(sessionId(config.process, session), turnLabel(config.process, session, turn));
          for (const message of errors)
            tally(result.errors, `error event: ${errorKey(new Error(message)).replace(/^Error: /, '')}`);
          if (errors.length === 0) result.acknowledged++;
          else result.failed++;
        } catch (error) {
          tally(result.errors, errorKey(error));
          result.failed++;
        }
      }
    }),
  );
  result.ms = performance.now() - started;
  result.conflictsRetried = side.runnerConflicts() - before;
  return result;
}

/**
 * Workload 2: appends to the one shared session, each through the session service on this process's copy. A copy
 * the store refuses as stale (agentctx) is reloaded and the same event appended again, as the store's contract says;
 * any other error is counted and the event not retried.
 */
async function appendsPhase(side: Side, config: ChildConfig): Promise<PhaseResult> {
  const result: PhaseResult = { acknowledged: 0, failed: 0, errors: {}, eventIds: [], conflictsRetried: 0, ms: 0 };
  const started = performance.now();
  let handle = await loadOrCount(side, result);
  for (let index = 0; index < config.appends; index++) {
    const label = appendLabel(config.process, index);
    for (let attempt = 1; ; attempt++) {
      try {
        handle ??= await side.load(SHARED_SESSION);
        result.eventIds.push(await side.append(handle, label));
        result.acknowledged++;
        break;
      } catch (error) {
        if (isStaleRefusal(error) && attempt < APPEND_ATTEMPTS) {
          result.conflictsRetried++;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
          handle = await loadOrCount(side, result);
          continue;
        }
        tally(result.errors, errorKey(error));
        result.failed++;
        break;
      }
    }
  }
  result.ms = performance.now() - started;
  return result;
}

async function loadOrCount(side: Side, result: PhaseResult): Promise<Awaited<ReturnType<Side['load']>> | undefined> {
  try {
    return await side.load(SHARED_SESSION);
  } catch (error) {
    tally(result.errors, `reloading the session: ${errorKey(error)}`);
    return undefined;
  }
}

async function main(config: ChildConfig): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const barrier = async (phase: string): Promise<void> => {
    process.stdout.write(`READY ${phase}\n`);
    const line = await lines.next();
    if (line.done === true || line.value.trim() !== 'GO')
      throw new Error(`expected GO for ${phase}, got ${JSON.stringify(line.value)}`);
  };
  const side = await openSide(config.target);
  // Connect (ADK: MikroORM's init and schema check) before the barrier, so the workload times only the workload.
  await side.load(sessionId(config.process, 0));
  await barrier('counter');
  process.stdout.write(`RESULT ${JSON.stringify(await counterPhase(side, config))}\n`);
  await barrier('appends');
  process.stdout.write(`RESULT ${JSON.stringify(await appendsPhase(side, config))}\n`);
  await side.close();
}

if (process.argv[1]?.endsWith('concurrency-child.ts') === true) {
  try {
    await main(JSON.parse(process.argv[2] ?? '') as ChildConfig);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}
