import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import type { StateOp } from '../../src/contracts/state-op.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { applyStateOp } from '../../src/engine/state/apply-state-op.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/create-postgres-store.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { trickyText } from '../reliability/arbitraries.js';
import { createTestDatabase, queryDirect, skipWithoutPostgres, TEST_POSTGRES_URL } from '../support/postgres.js';
import { propertyRuns } from '../support/property-runs.js';

// One semantics for state operations: `applyStateOp` in JavaScript, the same function run by SQLite, and the PL/pgSQL
// function of PostgreSQL, each through a real store's append (the upsert that applies it and returns what it wrote).
// Random operations on random JSON values must give the same value (compared as the JSON text JavaScript writes of
// the parsed result, so key order counts) or the same error.

// Object keys: text the stores keep exactly, with the characters JSON escapes, integer-like keys (which JavaScript
// orders first) and `__proto__`. Not NUL nor lone surrogates: PostgreSQL's json_each cannot decode such keys.
const objectKey = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.constantFrom('a', 'b', '1', '10', '__proto__', 'é', '😀', 'a"b', 'a\\b', '\n', ' '),
);
// String values: anything, NUL and lone surrogates included (JSON escapes keep them in both databases).
const text = fc.oneof(trickyText, fc.constantFrom('\ud800', 'x\udfff', '\u0000', ''));
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.1, 0.2, 1e21, 1e-7, 1.7976931348623157e308, -1e308, 2 ** 53 + 2),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), number, text, tie('list'), tie('object')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(objectKey, tie('value'), { maxKeys: 4, noNullPrototype: true }),
}));
// Values a set sees often: small ones that repeat, so addToSet meets equal items (objects with keys in another order too).
const small = fc.oneof(
  fc.constantFrom(
    1,
    1.0,
    '1',
    true,
    null,
    [1, 2],
    [2, 1],
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    { a: { y: 1, x: 2 } },
    { a: { x: 2, y: 1 } },
  ),
  value,
);
const json = (input: unknown): unknown =>
  input === undefined ? undefined : (JSON.parse(JSON.stringify(input)) as unknown);

const stateKey = fc.constantFrom('k', 'user:k', 'app:k');
const op: fc.Arbitrary<StateOp> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), key: stateKey, by: number }),
  fc.record({
    op: fc.constant('append' as const),
    key: stateKey,
    items: fc.array(small, { maxLength: 4 }).map((items) => json(items) as unknown[]),
  }),
  fc.record({
    op: fc.constant('setField' as const),
    key: stateKey,
    field: objectKey.filter((field) => field !== '__proto__'),
    value: small.map(json),
  }),
  fc.record({
    op: fc.constant('addToSet' as const),
    key: stateKey,
    items: fc.array(small, { maxLength: 5 }).map((items) => json(items) as unknown[]),
  }),
);
// The current value: absent, of the type the operation needs (most of the time), or anything.
const currentFor = (given: StateOp): fc.Arbitrary<unknown> => {
  const fitting =
    given.op === 'add'
      ? number
      : given.op === 'setField'
        ? fc.dictionary(objectKey, small, { maxKeys: 5, noNullPrototype: true })
        : fc.array(small, { maxLength: 5 });
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 4, arbitrary: fitting },
      { weight: 1, arbitrary: value },
    )
    .map(json);
};
const testCase = op.chain((given) => currentFor(given).map((current) => ({ current, op: given })));

type Outcome = { value: string } | { error: string };

function expected(current: unknown, given: StateOp): Outcome {
  try {
    return { value: JSON.stringify(applyStateOp(current, given)) };
  } catch (error) {
    if (error instanceof ValidationError) return { error: error.message };
    throw error;
  }
}

let run = 0;
/** The operation applied by an append to a new session holding `current`, as the copy and a reload see it. */
async function viaStore(store: SessionStore, current: unknown, given: StateOp): Promise<Outcome> {
  const appName = `agree${++run}`;
  const session = await store.createSession({
    appName,
    userId: 'u',
    state: current === undefined ? {} : { [given.key]: current },
  });
  try {
    await store.appendEvent({
      session,
      event: createEvent({ author: 'user', actions: { stateDelta: {}, stateOps: [given] } }),
    });
  } catch (error) {
    if (error instanceof ValidationError) return { error: error.message };
    throw error;
  }
  const reloaded = await store.getSession({ appName, userId: 'u', sessionId: session.id });
  expect(JSON.stringify(reloaded?.state[given.key])).toBe(JSON.stringify(session.state[given.key]));
  return { value: JSON.stringify(session.state[given.key]) };
}

async function agree(store: SessionStore, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(testCase, async ({ current, op: given }) => {
      expect(await viaStore(store, current, given)).toEqual(expected(current, given));
    }),
    propertyRuns(runs),
  );
}

describe('state operations: JavaScript and SQLite agree', () => {
  const store = createSqliteSessionStore({ path: ':memory:' });
  afterAll(() => store.close());
  it(
    'gives the same value or the same error for random operations on random JSON values',
    () => agree(store, 400),
    60_000,
  );
});

if (TEST_POSTGRES_URL === undefined) {
  skipWithoutPostgres('state operations: JavaScript and PostgreSQL agree');
} else {
  const server = TEST_POSTGRES_URL;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let store: SessionStore | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(server, 'state_op_agree');
    store = createPostgresSessionStore({ url: database.url, pool: { max: 2 } });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  describe('state operations: JavaScript and PostgreSQL agree', () => {
    it(
      'gives the same value or the same error for random operations on random JSON values',
      () => agree(store as SessionStore, 300),
      120_000,
    );

    it('keeps members’ text and order (whitespace between tokens aside), and adds as float8 prints shortest', async () => {
      const url = (database as { url: string }).url;
      const call = async (current: string | null, name: string, argument: string) =>
        (
          await queryDirect<{ result: string }>(
            url,
            'SELECT agentctx_state_op($1::json, $2, $3::json)::text AS result',
            [current, name, argument],
          )
        )[0]?.result;
      expect(await call('{"z": 1, "a" : [1,  2], "m": "\\u00e9"}', 'setField', '["a", 0]')).toBe(
        '{"z":1,"a":0,"m":"\\u00e9"}',
      );
      expect(await call('[1,  {"b":1, "a":2}]', 'append', '[3]')).toBe('[1,  {"b":1, "a":2},3]');
      expect(await call('0.1', 'add', '0.2')).toBe('0.30000000000000004');
      expect(await call('-1', 'add', '1')).toBe('0');
      expect(await call(null, 'addToSet', '[{"a":1,"b":2},{"b":2,"a":1}]')).toBe('[{"a":1,"b":2}]');
    });
  });
}
