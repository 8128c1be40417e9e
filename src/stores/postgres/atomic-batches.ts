import { UsageError } from '../../contracts/errors/usage-error.js';
import { judgeInOrder, type Step } from '../sql/pipelined.js';
import type { SqlExecutor } from '../sql/sql-driver.js';

/** One atomic write waiting for its batch. */
type Queued = { issue: (tx: SqlExecutor) => readonly Step[]; resolve: (values: unknown[]) => void; reject: (error: unknown) => void; resent: number };

// How often a write is sent again after its connection lost track of a prepared statement (see `lostStatement`).
const MAX_RESENDS = 3;

// Enough to take every write a busy server issues in one turn of its event loop; more go out in the next batch.
const MAX_BATCH = 32;

type Socket = { cork?: () => void; uncork?: () => void };

/** What a batch needs of a pooled connection (pg's PoolClient); the driver is pg-driver.ts's, which alone imports pg. */
type Connection = {
  query(text: string): Promise<{ command: string }>;
  release(error?: Error): void;
};

/**
 * `SqlDriver.atomic` on PostgreSQL, batched: the atomic writes issued in one turn of the event loop leave together
 * on one connection, each its own BEGIN … COMMIT, in one socket write, and their answers come back together. On
 * loopback a socket write and the wake-up it causes cost more than PostgreSQL's work for a statement, so a server
 * running many turns at once pays for one where it paid for each. The transactions stay independent: one that is
 * refused rolls back alone (its COMMIT is answered ROLLBACK) and the next one's BEGIN starts afresh. A broken
 * connection fails the whole batch with its error.
 */
export function atomicBatches<C extends Connection>(
  pool: { connect(): Promise<C> },
  executorFor: (client: C, guard: () => void) => SqlExecutor,
  socketOf: (client: C) => Socket | undefined,
): (issue: (tx: SqlExecutor) => readonly Step[]) => Promise<unknown[]> {
  const queue: Queued[] = [];
  let scheduled = false;

  const flush = async (): Promise<void> => {
    scheduled = false;
    const batch = queue.splice(0, MAX_BATCH);
    if (queue.length > 0) schedule();
    let client: C;
    try {
      client = await pool.connect();
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    const socket = socketOf(client);
    socket?.cork?.();
    let sent: Promise<Error | undefined>[];
    try {
      sent = batch.map((queued) => sendOne(client, executorFor, queued, enqueue));
    } finally {
      socket?.uncork?.();
    }
    const broken = (await Promise.all(sent)).find((error) => error !== undefined);
    client.release(broken);
  };
  const schedule = () => {
    scheduled = true;
    setImmediate(() => void flush());
  };

  const enqueue = (queued: Queued) => {
    queue.push(queued);
    if (!scheduled) schedule();
  };
  return (issue) => new Promise<unknown[]>((resolve, reject) => enqueue({ issue, resolve, reject, resent: 0 }));
}

/**
 * pg (8.23, pipelined) sends a named statement's Parse only with its first use on a connection. When that first use
 * lands in a transaction an earlier statement has already aborted, PostgreSQL refuses the Parse, and a later write
 * of the same batch that counted on it fails with 26000 (the statement does not exist) and is rolled back. pg then
 * forgets the name, so the write succeeds when sent again.
 */
function lostStatement(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '26000';
}

/**
 * Sends one atomic write (BEGIN, its statements, COMMIT) without waiting, then settles it: its values when it
 * committed, its first failure when the database rolled it back. Resolves to the error that broke the connection, if any.
 */
async function sendOne<C extends Connection>(
  client: C,
  executorFor: (client: C, guard: () => void) => SqlExecutor,
  queued: Queued,
  resend: (queued: Queued) => void,
): Promise<Error | undefined> {
  let issuing = true;
  const tx = executorFor(client, () => {
    if (!issuing) throw new UsageError('A statement was issued after its atomic transaction was sent.', 'Issue every statement of driver.atomic() before returning from its callback.');
  });
  let steps: readonly Step[];
  let ended: Promise<{ command: string }>;
  const begun = client.query('BEGIN');
  begun.catch(() => {});
  try {
    steps = queued.issue(tx);
  } catch (error) {
    issuing = false;
    // Closes this transaction before the next one of the batch begins.
    void client.query('ROLLBACK').catch(() => {});
    queued.reject(error);
    return undefined;
  }
  ended = client.query('COMMIT');
  issuing = false;
  const [judged, commit] = await Promise.allSettled([judgeInOrder(steps), ended]);
  if (commit.status === 'rejected') {
    queued.reject(judged.status === 'rejected' ? judged.reason : commit.reason);
    return commit.reason instanceof Error ? commit.reason : new Error(String(commit.reason));
  }
  const committed = commit.value.command === 'COMMIT';
  if (judged.status === 'fulfilled' && committed) queued.resolve(judged.value);
  else if (judged.status === 'rejected' && !committed && lostStatement(judged.reason) && queued.resent < MAX_RESENDS) resend({ ...queued, resent: queued.resent + 1 });
  else if (judged.status === 'rejected' && !committed) queued.reject(judged.reason);
  else {
    // A refusal the statements did not raise, or a rollback no statement explains: the store broke the contract.
    queued.reject(
      new Error(
        committed
          ? `an atomic write was committed although it was refused (${judged.status === 'rejected' ? String(judged.reason) : ''}): a check of the SQL store is not made in its statement`
          : 'an atomic write was rolled back although every statement succeeded',
      ),
    );
  }
  return undefined;
}
