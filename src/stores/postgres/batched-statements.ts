import { UsageError } from '../../contracts/errors/usage-error.js';
import { judgeInOrder, type Step } from '../sql/pipelined.js';
import type { SqlExecutor } from '../sql/sql-driver.js';

/** An atomic write (BEGIN, its statements, COMMIT) or a lone statement (its own implicit transaction), waiting for its batch. */
type Queued =
  | {
      kind: 'atomic';
      issue: (tx: SqlExecutor) => readonly Step[];
      resolve: (values: unknown[]) => void;
      reject: (error: unknown) => void;
      resent: number;
    }
  | {
      kind: 'one';
      run: (executor: SqlExecutor) => Promise<unknown>;
      resolve: (value: unknown) => void;
      reject: (error: unknown) => void;
      resent: number;
    };

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

/** Statements sent in batches: atomic writes, and lone statements outside any transaction (a session's head, a read). */
export type BatchedStatements = {
  atomic(issue: (tx: SqlExecutor) => readonly Step[]): Promise<unknown[]>;
  one<T>(run: (executor: SqlExecutor) => Promise<T>): Promise<T>;
};

/**
 * The statements a server issues in one turn of its event loop, outside `transaction`, leave together on one
 * connection in one socket write, and their answers come back together: each atomic write its own BEGIN … COMMIT,
 * each lone statement on its own. On loopback a socket write and the wake-up it causes cost more than PostgreSQL's
 * work for a statement, so a server running many turns at once pays for one where it paid for each. They stay
 * independent: a refused write rolls back alone (its COMMIT is answered ROLLBACK) and what follows starts afresh. A
 * broken connection fails the whole batch with its error.
 */
export function batchedStatements<C extends Connection>(
  pool: { connect(): Promise<C> },
  executorFor: (client: C, guard: () => void) => SqlExecutor,
  socketOf: (client: C) => Socket | undefined,
): BatchedStatements {
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
      sent = batch.map((queued) =>
        queued.kind === 'atomic'
          ? sendAtomic(client, executorFor, queued, enqueue)
          : sendOne(client, executorFor, queued, enqueue),
      );
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
  return {
    atomic: (issue) =>
      new Promise<unknown[]>((resolve, reject) => enqueue({ kind: 'atomic', issue, resolve, reject, resent: 0 })),
    one: <T>(run: (executor: SqlExecutor) => Promise<T>) =>
      new Promise<T>((resolve, reject) =>
        enqueue({ kind: 'one', run, resolve: resolve as (value: unknown) => void, reject, resent: 0 }),
      ),
  };
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
async function sendAtomic<C extends Connection>(
  client: C,
  executorFor: (client: C, guard: () => void) => SqlExecutor,
  queued: Extract<Queued, { kind: 'atomic' }>,
  resend: (queued: Queued) => void,
): Promise<Error | undefined> {
  const item = issuingWindow(
    client,
    executorFor,
    () =>
      new UsageError(
        'A statement was issued after its atomic transaction was sent.',
        'Issue every statement of driver.atomic() before returning from its callback.',
      ),
  );
  const tx = item.executor;
  let steps: readonly Step[];
  let ended: Promise<{ command: string }>;
  const begun = client.query('BEGIN');
  begun.catch(() => {});
  try {
    steps = queued.issue(tx);
  } catch (error) {
    item.close();
    // Closes this transaction before the next one of the batch begins.
    void client.query('ROLLBACK').catch(() => {});
    queued.reject(error);
    return undefined;
  }
  ended = client.query('COMMIT');
  item.close();
  const [judged, commit] = await Promise.allSettled([judgeInOrder(steps), ended]);
  if (commit.status === 'rejected') {
    queued.reject(judged.status === 'rejected' ? judged.reason : commit.reason);
    return commit.reason instanceof Error ? commit.reason : new Error(String(commit.reason));
  }
  const committed = commit.value.command === 'COMMIT';
  if (judged.status === 'fulfilled' && committed) queued.resolve(judged.value);
  else if (judged.status === 'rejected' && !committed && lostStatement(judged.reason) && queued.resent < MAX_RESENDS)
    resend({ ...queued, resent: queued.resent + 1 });
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

/**
 * Sends a lone statement (or the few a caller issues at once, each its own implicit transaction) and settles it.
 * A failure PostgreSQL answered (it has a severity) leaves the connection usable; any other means it broke.
 */
async function sendOne<C extends Connection>(
  client: C,
  executorFor: (client: C, guard: () => void) => SqlExecutor,
  queued: Extract<Queued, { kind: 'one' }>,
  resend: (queued: Queued) => void,
): Promise<Error | undefined> {
  const item = issuingWindow(
    client,
    executorFor,
    () =>
      new UsageError(
        'A statement was issued after its batch was sent.',
        'Issue every statement of a batched read before awaiting any of them.',
      ),
  );
  let result: Promise<unknown>;
  try {
    result = queued.run(item.executor);
  } finally {
    item.close();
  }
  try {
    queued.resolve(await result);
    return undefined;
  } catch (error) {
    if (lostStatement(error) && queued.resent < MAX_RESENDS) {
      resend({ ...queued, resent: queued.resent + 1 });
      return undefined;
    }
    queued.reject(error);
    const answered = typeof (error as { severity?: unknown } | undefined)?.severity === 'string';
    return answered ? undefined : error instanceof Error ? error : new Error(String(error));
  }
}

/** An executor for one item of a batch, which refuses statements issued once the item has been sent (`close`). */
function issuingWindow<C>(
  client: C,
  executorFor: (client: C, guard: () => void) => SqlExecutor,
  misuse: () => Error,
): { executor: SqlExecutor; close(): void } {
  let issuing = true;
  const executor = executorFor(client, () => {
    if (!issuing) throw misuse();
  });
  return { executor, close: () => void (issuing = false) };
}
