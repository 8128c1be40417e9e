import type { Event } from '../../contracts/event.js';
import type { Session, SessionKey } from '../../contracts/session.js';
import type {
  AppendEventInput,
  CreateSessionInput,
  GetSessionInput,
  ListSessionsInput,
  SessionStoreWithCallLog,
  StoreClock,
} from '../../contracts/session-store.js';
import {
  afterRevisionOf,
  applyToSession,
  checkCreateInput,
  checkSessionKey,
  eventExists,
  prepareStoredEvent,
  sessionExists,
  sessionNotFound,
  sortAppNames,
  sortSessionsForList,
  staleSession,
} from '../../engine/session/store-rules.js';
import { eventJsonText } from '../../engine/session/session-json.js';
import { splitStateDelta, withoutTempKeys, type StateRecord } from '../../engine/state/state-delta.js';
import { toStoredJson } from '../../engine/util/json-value.js';
import { lazyMigrations, type MigrationResult } from './migrations.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { CHILD_WHERE, keyParams, SESSION_WHERE } from './sql-keys.js';
import { AfterRollback, explained, judgeInOrder, writeOrRewriteWhole, type Step } from './pipelined.js';
import { sqlModelCalls } from './sql-model-calls.js';
import { rewriteSessionText } from './sql-rewrite.js';
import { sqlMemory, type SqlMemoryOptions } from './sql-memory.js';
import type { MemoryService } from '../../contracts/memory-service.js';
import { groupBy, readEvents, readHead, recentLimit } from './session-reads.js';
import { mergedState, readMergedState, writeState, type SharedStateRow, type StateRow } from './state-rows.js';
import { writeStateChanges } from './state-ops.js';

export type SqlSessionStoreOptions = StoreClock & {
  /** The store's `name`; defaults to the driver's dialect (`sqlite`, `postgres`). */
  name?: string | undefined;
  /**
   * How its memory service chooses memories: `ranked` (the default, at most `limit`, 10) or ADK 2.5.0's `adk` rule
   * (`createInMemoryMemoryService` has the same options).
   */
  memory?: SqlMemoryOptions | undefined;
};

/** A session store, its model-call log and a memory service (docs/memory.md), on one database. */
export type SqlSessionStore = SessionStoreWithCallLog &
  MemoryService & {
    /**
     * Brings the schema up to date now. Optional: the first call of any other method does it too.
     * Throws `ValidationError` (`unsupported_version`) for a database written by a newer release.
     */
    migrate(): Promise<MigrationResult>;
  };

type SessionRow = { user_id: string; id: string; revision: number; update_time: number };

// An append's statements, built once: the driver finds a prepared statement by its text.
const BUMP_REVISION = `UPDATE agentctx_sessions SET revision = revision + 1, update_time = ? WHERE ${SESSION_WHERE} AND revision = ?`;
const READ_REVISION = `SELECT revision FROM agentctx_sessions WHERE ${SESSION_WHERE}`;
const INSERT_EVENT = `INSERT INTO agentctx_events (app_name, user_id, session_id, seq, event_id, event_time, event_json)
  VALUES (?, ?, ?, (SELECT revision FROM agentctx_sessions WHERE ${SESSION_WHERE} AND revision = ?), ?, ?, ?)`;

/**
 * A `SessionStore` and `ModelCallLog` on any SQL database a `SqlDriver` reaches; the SQL is written once for SQLite and PostgreSQL.
 *
 * Each append is one transaction that costs the same however long the session is: it bumps the session's
 * revision only if it still equals the caller's (so of two writers from the same copy, one fails as stale),
 * inserts one event row, upserts one row per changed session key (so writers of different keys never
 * overwrite each other) and writes each changed `app:`/`user:` key only if its version is still the one the
 * caller's copy saw (so of two sessions that read-modify-write the same shared key, one fails and reloads).
 * Every check is the write itself, with its row count read: race-free on PostgreSQL at READ COMMITTED too.
 * Windows of recent events are read backwards along the primary key.
 */
export function createSqlSessionStore(driver: SqlDriver, options: SqlSessionStoreOptions = {}): SqlSessionStore {
  const now = options.now ?? (() => Date.now() / 1000);
  const newId = options.newId ?? (() => crypto.randomUUID());
  const migrations = lazyMigrations(driver);
  const ready = migrations.ready;
  const modelCalls = sqlModelCalls(driver, ready);
  const memory = sqlMemory(driver, ready, newId, options.memory);

  /**
   * One imported event appended inside a transaction already open (createSession's): the statements of an append,
   * judged at once, then the copy brought up to date as `appendEvent` does.
   */
  const appendWithin = async (tx: SqlExecutor, session: Session, event: Event, persisted: Event): Promise<void> => {
    const key = keyParams({ appName: session.appName, userId: session.userId, sessionId: session.id });
    const next = session.revision + 1;
    const steps: Step[] = [
      {
        result: tx.run(BUMP_REVISION, [persisted.timestamp, ...key, session.revision]),
        check: ({ changes }: { changes: number }) => {
          if (changes === 0) throw staleSession(session.id, session.revision, session.revision + 1);
        },
      } as Step,
      {
        result: tx.run(INSERT_EVENT, [
          ...key,
          ...key,
          next,
          persisted.id,
          persisted.timestamp,
          eventJsonText(persisted),
        ]),
      },
    ];
    const state = writeStateChanges(
      tx,
      driver.dialect,
      driver,
      key,
      splitStateDelta(persisted.actions.stateDelta),
      persisted.actions.stateOps ?? [],
      session,
    );
    await judgeInOrder([...steps, ...state.steps]);
    applyToSession(session, event, persisted, next, state.versions, state.values);
  };

  return {
    name: options.name ?? driver.dialect,

    migrate: migrations.migrate,

    async createSession(input: CreateSessionInput): Promise<Session> {
      const given = input.state ?? {};
      checkCreateInput(input, given);
      const sessionId = input.sessionId?.trim() || newId();
      const key = keyParams({ appName: input.appName, userId: input.userId, sessionId });
      const split = splitStateDelta(toStoredJson(withoutTempKeys(given)));
      // Imported events are checked whole before the transaction, as appends are; ids must differ from each other.
      const imported = (input.events ?? []).map((event) => ({ event, persisted: prepareStoredEvent(event) }));
      const ids = new Set<string>();
      for (const { persisted } of imported) {
        if (ids.has(persisted.id)) throw eventExists(persisted.id, sessionId);
        ids.add(persisted.id);
      }
      const time = now();
      await ready();
      let session: Session | undefined;
      const { state, versions } = await driver
        .transaction(async (tx) => {
          // Issued together: a session that already exists rolls back the state written behind its insert.
          const inserted: Step<{ changes: number }> = {
            result: tx.run(
              `INSERT INTO agentctx_sessions (app_name, user_id, id, revision, model_call_count, create_time, update_time)
           VALUES (?, ?, ?, 0, 0, ?, ?) ON CONFLICT (app_name, user_id, id) DO NOTHING`,
              [...key, time, time],
            ),
            check: ({ changes }) => {
              if (changes === 0) throw sessionExists(sessionId);
            },
          };
          const state = writeState(tx, key, split);
          // Read after the writes: statements run in the order they are issued.
          const merged = readMergedState(tx, key);
          const [, , read] = await judgeInOrder([inserted, { result: state }, { result: merged }] as Step[]);
          const created = read as Awaited<typeof merged>;
          if (imported.length === 0) return created;
          // The imported history, in the same transaction: one event that cannot be stored rolls back the session too.
          session = {
            appName: input.appName,
            userId: input.userId,
            id: sessionId,
            state: created.state,
            events: [],
            lastUpdateTime: time,
            revision: 0,
            sharedStateVersions: created.versions,
          };
          for (const { event, persisted } of imported) await appendWithin(tx, session, event, persisted);
          return created;
        })
        .catch(async (error: unknown) => {
          throw await explained(error);
        });
      return (
        session ?? {
          appName: input.appName,
          userId: input.userId,
          id: sessionId,
          state,
          events: [],
          lastUpdateTime: time,
          revision: 0,
          sharedStateVersions: versions,
        }
      );
    },

    async getSession(input: GetSessionInput): Promise<Session | undefined> {
      const key = keyParams(input);
      const after = afterRevisionOf(input);
      await ready();
      // Without events, or with only those after a revision, it is one statement, which reads one snapshot by
      // itself: the runner's check before each turn, and what it reads of a session another process moved on.
      const read = async (executor: SqlExecutor) => {
        const [head, events] = await Promise.all([readHead(executor, key), readEvents(executor, key, input, after)]);
        return head === undefined ? undefined : { ...head, events };
      };
      const onlyAfter =
        after !== undefined && input.numRecentEvents === undefined && input.afterTimestamp === undefined;
      const found = onlyAfter
        ? await readHead(driver, key, after)
        : recentLimit(input.numRecentEvents) === 0
          ? await read(driver)
          : await driver.transaction(read, { readOnly: true });
      if (found === undefined) return undefined;
      const { revision, updateTime, state, versions, events } = found;
      return {
        appName: input.appName,
        userId: input.userId,
        id: input.sessionId,
        state,
        events,
        lastUpdateTime: updateTime,
        revision,
        sharedStateVersions: versions,
      };
    },

    async listApps(): Promise<string[]> {
      await ready();
      const rows = await driver.query<{ app_name: string }>(
        'SELECT DISTINCT app_name FROM agentctx_sessions ORDER BY app_name',
      );
      // Sorted here too: the databases' collations differ, and the contract promises one order.
      return sortAppNames(rows.map((row) => row.app_name));
    },

    async listSessions(input: ListSessionsInput): Promise<Session[]> {
      checkSessionKey(input, input.userId === undefined ? ['appName'] : ['appName', 'userId']);
      await ready();
      const where = input.userId === undefined ? 'app_name = ?' : 'app_name = ? AND user_id = ?';
      const params = input.userId === undefined ? [input.appName] : [input.appName, input.userId];
      const { sessions, app, users, owned } = await driver.transaction(
        async (tx) => ({
          sessions: await tx.query<SessionRow>(
            `SELECT user_id, id, revision, update_time FROM agentctx_sessions WHERE ${where}`,
            params,
          ),
          app: await tx.query<SharedStateRow>(
            `SELECT state_key, value_json, version FROM agentctx_app_state WHERE app_name = ?`,
            [input.appName],
          ),
          users: await tx.query<SharedStateRow & { user_id: string }>(
            `SELECT user_id, state_key, value_json, version FROM agentctx_user_state WHERE ${where}`,
            params,
          ),
          owned: await tx.query<StateRow & { user_id: string; session_id: string }>(
            `SELECT user_id, session_id, state_key, value_json FROM agentctx_session_state WHERE ${where}`,
            params,
          ),
        }),
        { readOnly: true },
      );
      const byUser = groupBy(users, (row) => row.user_id);
      const bySession = groupBy(owned, (row) => JSON.stringify([row.user_id, row.session_id]));
      const found = sessions.map((row): Session => {
        // Parsed per session, so no two returned sessions share a value.
        const { state, versions } = mergedState(
          bySession.get(JSON.stringify([row.user_id, row.id])) ?? [],
          app,
          byUser.get(row.user_id) ?? [],
        );
        return {
          appName: input.appName,
          userId: row.user_id,
          id: row.id,
          state,
          events: [],
          lastUpdateTime: row.update_time,
          revision: row.revision,
          sharedStateVersions: versions,
        };
      });
      return sortSessionsForList(found);
    },

    async appendEvent({ session, event, completeModelCall }: AppendEventInput): Promise<Event> {
      if (event.partial === true) return event;
      // Validated before the transaction: a value that cannot be stored never reaches the database.
      const persisted = prepareStoredEvent(event);
      const sessionKey = { appName: session.appName, userId: session.userId, sessionId: session.id };
      const completion =
        completeModelCall === undefined ? undefined : modelCalls.prepareCompletion(sessionKey, completeModelCall);
      const key = keyParams(sessionKey);
      const loaded = session.revision;
      const split = splitStateDelta(persisted.actions.stateDelta);
      await ready();
      const next = loaded + 1;
      // Why an append was refused, read after its rollback: the session moved on (or is gone), or the event is there.
      const refusal = () =>
        new AfterRollback(async () => {
          const row = (await driver.query<SessionRow>(READ_REVISION, key))[0];
          if (row === undefined) return sessionNotFound(session.id);
          return row.revision === loaded
            ? eventExists(persisted.id, session.id)
            : staleSession(session.id, loaded, row.revision);
        });
      let written: Record<string, number> = {};
      let operated: StateRecord = {};
      // One transaction whose statements leave at once (with BEGIN and COMMIT, on PostgreSQL) and are judged in order.
      const write = () =>
        driver.atomic((tx) => {
          // Statements run in the order they are issued: the bump first, the state and the completion behind it.
          const steps: Step[] = [
            {
              result: tx.run(BUMP_REVISION, [persisted.timestamp, ...key, loaded]),
              check: ({ changes }: { changes: number }) => {
                if (changes === 0) throw refusal();
              },
            },
            // Its seq is the revision just bumped: NULL, and so an error, when the bump found another revision; a
            // duplicate seq or event id breaks a unique key. Every refusal of an append is thus raised by the database.
            {
              result: tx.run(INSERT_EVENT, [
                ...key,
                ...key,
                next,
                persisted.id,
                persisted.timestamp,
                eventJsonText(persisted),
              ]),
              refused: (error: unknown) => (isConstraintError(error) ? refusal() : undefined),
            },
          ] as Step[];
          // Shared keys are compared-and-set against the versions this copy saw; a loser rolls the append back. State
          // operations apply to the stored values in their own statements, and are never refused (state-ops.ts).
          const state = writeStateChanges(
            tx,
            driver.dialect,
            driver,
            key,
            split,
            persisted.actions.stateOps ?? [],
            session,
          );
          written = state.versions;
          operated = state.values;
          // The answer and its call's record are written together, or neither is.
          return [...steps, ...state.steps, ...(completion?.write(tx, driver) ?? [])];
        });
      // Only a completion's wire body can be written as a difference, so only it is made whole.
      await writeOrRewriteWhole(write, () => completion?.writeWhole());
      const revision = next;
      completion?.written();
      applyToSession(session, event, persisted, revision, written, operated);
      return persisted;
    },

    async deleteSession(input: SessionKey): Promise<void> {
      const key = keyParams(input);
      await ready();
      // Explicit deletes rather than trusting ON DELETE CASCADE, which SQLite only honours with foreign_keys on.
      await driver.transaction(async (tx) => {
        for (const table of [
          'agentctx_events',
          'agentctx_session_state',
          'agentctx_model_call_outcomes',
          'agentctx_model_calls',
        ]) {
          await tx.run(`DELETE FROM ${table} WHERE ${CHILD_WHERE}`, key);
        }
        await tx.run(`DELETE FROM agentctx_sessions WHERE ${SESSION_WHERE}`, key);
      });
      modelCalls.forget(key);
    },

    async rewriteText(input) {
      await ready();
      const result = await rewriteSessionText(driver, input, now());
      // Differences this process would write against the rows as they were are not taken any more.
      modelCalls.forget(keyParams(input));
      return result;
    },

    ...memory,

    recordModelCall: modelCalls.recordModelCall,
    completeModelCall: modelCalls.completeModelCall,
    listModelCalls: modelCalls.listModelCalls,
    getModelCall: modelCalls.getModelCall,
    deleteModelCalls: modelCalls.deleteModelCalls,

    async close(): Promise<void> {
      await driver.close();
    },
  };
}

/** A broken NOT NULL or unique constraint, on PostgreSQL (SQLSTATE 23502, 23505) or SQLite. */
function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '23502' || code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}
