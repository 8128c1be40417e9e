/**
 * Writes whose statements are issued together and judged afterwards. A transaction's statements go out without
 * waiting for each other (one round trip on PostgreSQL, where the driver pipelines them); then each result is judged
 * in the order the statements were issued, so the first statement that failed, or whose check refused its result,
 * decides the error, even when later statements failed only because of it.
 */

/** One issued statement (or group of them) and what its result must satisfy. */
export type Step<T = unknown> = {
  result: Promise<T>;
  /** Throws when the result is refused (a row count of 0, a missing row). */
  check?: ((value: T) => void) | undefined;
  /** The error to throw instead when the statement itself failed for a reason this step knows; undefined keeps it. */
  refused?: ((error: unknown) => Error | undefined) | undefined;
};

/** Waits for every step, then checks them in order: the first rejection or refused check is thrown. */
export async function judgeInOrder(steps: readonly Step[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(steps.map((step) => step.result));
  return settled.map((outcome, index) => {
    const step = steps[index];
    if (outcome.status === 'rejected') throw step?.refused?.(outcome.reason) ?? outcome.reason;
    step?.check?.(outcome.value);
    return outcome.value;
  });
}

/**
 * Thrown inside a transaction to roll it back when the error to report needs a read (the current revision, the
 * version that moved on): `explain` runs after the rollback, outside the failed transaction, and gives that error.
 */
export class AfterRollback extends Error {
  readonly explain: () => Promise<Error>;

  constructor(explain: () => Promise<Error>) {
    super('rolled back; the reason is read after the rollback');
    this.explain = explain;
  }
}

/**
 * Thrown inside a transaction when a difference it wrote refers to a base that is no longer there (the session was
 * deleted and made again elsewhere): roll back, and write again with everything whole.
 */
export class RewriteWhole extends Error {
  constructor() {
    super('a stored difference lost its base; written again whole');
  }
}

/** The error a transaction ended with, explained when it asked to be. */
export async function explained(error: unknown): Promise<unknown> {
  return error instanceof AfterRollback ? error.explain() : error;
}

/**
 * Runs `write`; if it was refused with `RewriteWhole`, makes everything whole (`whole`) and runs it once more. Any
 * other refusal is thrown, explained.
 */
export async function writeOrRewriteWhole<T>(write: () => Promise<T>, whole: () => void): Promise<T> {
  try {
    return await write().catch((error: unknown) => {
      if (!(error instanceof RewriteWhole)) throw error;
      whole();
      return write();
    });
  } catch (error) {
    throw await explained(error);
  }
}
