import type { SqlDialect, SqlExecutor, SqlParam } from './sql-driver.js';
import type { Step } from './pipelined.js';

// The message `agentctx_check` (migration 6) raises on PostgreSQL starts with this.
const CHECK_FAILED = 'agentctx_check: ';

/** True for the error PostgreSQL raised from `agentctx_check`. */
function isCheckFailure(error: unknown): boolean {
  return (
    error instanceof Error && (error as { code?: unknown }).code === 'P0001' && error.message.startsWith(CHECK_FAILED)
  );
}

/**
 * A write (`UPDATE …`, `INSERT …`, without RETURNING) that must change a row, or `refused()` is the error. On
 * PostgreSQL the statement checks itself and raises, so the database rolls the transaction back by itself and its
 * COMMIT may leave with it (`SqlDriver.atomic`); elsewhere the row count is judged.
 */
export function mustChange(
  tx: SqlExecutor,
  dialect: SqlDialect,
  sql: string,
  params: readonly SqlParam[],
  refused: () => Error,
): Step {
  if (dialect === 'postgres') {
    return {
      result: tx.query(
        `WITH changed AS (${sql} RETURNING 1) SELECT agentctx_check(EXISTS (SELECT 1 FROM changed), 'nothing written') AS ok`,
        params,
      ),
      refused: (error) => (isCheckFailure(error) ? refused() : undefined),
    };
  }
  return {
    result: tx.run(sql, params),
    check: (value) => {
      if ((value as { changes: number }).changes === 0) throw refused();
    },
  };
}

/** A `SELECT 1 FROM … WHERE …` that must find a row, or `refused()` is the error; checked in the statement on PostgreSQL. */
export function mustFind(
  tx: SqlExecutor,
  dialect: SqlDialect,
  sql: string,
  params: readonly SqlParam[],
  refused: () => Error,
): Step {
  if (dialect === 'postgres') {
    return {
      result: tx.query(`SELECT agentctx_check(EXISTS (${sql}), 'not found') AS ok`, params),
      refused: (error) => (isCheckFailure(error) ? refused() : undefined),
    };
  }
  return {
    result: tx.query(sql, params),
    check: (rows) => {
      if ((rows as unknown[]).length === 0) throw refused();
    },
  };
}
