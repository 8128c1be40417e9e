import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { UnavailableError } from '../../contracts/errors/unavailable-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { errorReply } from '../../server/http-error.js';
import { toStoreError } from './pg-errors.js';
import { poolOptionsFromUrl } from './pg-url-options.js';

const pool = { max: 4, waitMs: 2000 };
// What pg gives: DatabaseError (a SQLSTATE in `code`), Node's socket errors, and its own plain Errors.
const sqlState = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('PostgreSQL errors', () => {
  it('makes a restart, a refused or dropped connection, a full pool and a canceled statement one typed, retryable error', () => {
    const cases: [unknown, UnavailableError['reason'], RegExp][] = [
      [
        sqlState('57P01', 'terminating connection due to administrator command'),
        'disconnected',
        /closed the connection during this request: terminating connection due to administrator command \(SQLSTATE 57P01\)\. The server restarted/,
      ],
      [
        sqlState('57P03', 'the database system is starting up'),
        'unreachable',
        /cannot be reached: the database system is starting up/,
      ],
      [sqlState('08006', 'connection failure'), 'disconnected', /connection failure/],
      [sqlState('53300', 'sorry, too many clients already'), 'unreachable', /too many clients/],
      [
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        'unreachable',
        /cannot be reached: connect ECONNREFUSED 127\.0\.0\.1:5432\./,
      ],
      [
        Object.assign(
          new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], ''),
          { code: 'ECONNREFUSED' },
        ),
        'unreachable',
        /ECONNREFUSED ::1:5432/,
      ],
      [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'disconnected', /read ECONNRESET/],
      [new Error('Connection terminated unexpectedly'), 'disconnected', /Connection terminated unexpectedly/],
      [
        new Error('Connection terminated due to connection timeout', {
          cause: new Error('Connection terminated unexpectedly'),
        }),
        'unreachable',
        /connection timeout/,
      ],
      [
        new Error('timeout exceeded when trying to connect'),
        'pool_exhausted',
        /^No PostgreSQL connection came free within 2000 ms: all 4 of this process's pool were in use\.$/,
      ],
      [
        sqlState('57014', 'canceling statement due to statement timeout'),
        'timeout',
        /canceled a statement that ran past its time limit: canceling statement due to statement timeout/,
      ],
      [sqlState('55P03', 'canceling statement due to lock timeout'), 'timeout', /lock timeout/],
    ];
    for (const [error, reason, message] of cases) {
      const typed = toStoreError(error, pool) as UnavailableError;
      expect(UnavailableError.isInstance(typed), String(error)).toBe(true);
      expect(typed).toMatchObject({
        code: 'store_unavailable',
        store: 'postgres',
        reason,
        retryable: true,
        retryAfterSeconds: 1,
        cause: error,
      });
      expect(typed.message).toMatch(message);
      expect(typed.hint).toMatch(/^Retry/);
    }
  });

  it('leaves everything else as it is: constraint violations, agentctx’s own errors, bugs', () => {
    const others = [
      sqlState('23505', 'duplicate key value'),
      sqlState('57P04', 'database dropped'),
      new ConflictError({ code: 'stale_session', message: 'm' }),
      new TypeError('x is undefined'),
      'text',
      null,
    ];
    for (const error of others) expect(toStoreError(error, pool)).toBe(error);
  });

  it('is answered 503 with Retry-After, never 500', () => {
    const reply = errorReply(
      toStoreError(sqlState('57P01', 'terminating connection due to administrator command'), pool),
    );
    expect(reply).toMatchObject({
      status: 503,
      headers: { 'retry-after': '1' },
      unexpected: false,
      body: { error: { code: 'store_unavailable' } },
    });
  });
});

describe('pool settings in the store URL', () => {
  it('reads max and connectionTimeoutMillis, and leaves pg its own parameters', () => {
    expect(poolOptionsFromUrl('postgres://u:p@h/db?max=1&connectionTimeoutMillis=250&statement_timeout=100')).toEqual({
      max: 1,
      connectionTimeoutMillis: 250,
    });
    expect(poolOptionsFromUrl('postgres://u@h/db?sslmode=require')).toEqual({});
    expect(poolOptionsFromUrl('postgres://u@h/db')).toEqual({});
    expect(poolOptionsFromUrl(undefined)).toEqual({});
  });

  it('refuses what is not a pool size or a wait, naming each', () => {
    let error: unknown;
    try {
      poolOptionsFromUrl('postgres://u@h/db?max=0&connectionTimeoutMillis=soon');
    } catch (caught) {
      error = caught;
    }
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).issues).toEqual([
      { path: 'max', message: '"0" must be a whole number from 1' },
      { path: 'connectionTimeoutMillis', message: '"soon" must be a whole number from 0' },
    ]);
  });
});
