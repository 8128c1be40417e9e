import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { Artifact, ArtifactKey, StoredArtifact } from '../../contracts/artifact.js';
import type { SessionKey } from '../../contracts/session.js';
import { checkArtifactInput, checkArtifactScope, isUserArtifact } from '../../engine/session/artifact-rules.js';
import { lazyMigrations, type MigrationResult } from './migrations.js';
import type { SqlDriver } from './sql-driver.js';

export type SqlArtifactStoreOptions = {
  /** The store's `name`; defaults to the driver's dialect (`sqlite`, `postgres`). */
  name?: string | undefined;
};

export type SqlArtifactStore = ArtifactStore & {
  /** Brings the schema up to date now. Optional: the first call of any other method does it too. */
  migrate(): Promise<MigrationResult>;
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>;
};

type ArtifactRow = { version: number; kind: string; mime_type: string; content: Uint8Array };

const KEY_WHERE = 'app_name = ? AND user_id = ? AND session_id = ? AND filename = ?';

/**
 * An `ArtifactStore` on any SQL database a `SqlDriver` reaches, in the same schema as the session store (one
 * migration list). A save is one transaction: it takes the artifact's next version from its row in
 * `agentctx_artifact_names` (an upsert that locks the row, so concurrent savers get distinct versions) and inserts
 * the content. `user:` artifacts are stored with an empty session id, which no session has.
 */
export function createSqlArtifactStore(driver: SqlDriver, options: SqlArtifactStoreOptions = {}): SqlArtifactStore {
  const migrations = lazyMigrations(driver);
  const ready = migrations.ready;
  const keyParams = (key: ArtifactKey): [string, string, string, string] => [
    key.appName,
    key.userId,
    isUserArtifact(key.filename) ? '' : key.sessionId,
    key.filename,
  ];

  return {
    name: options.name ?? driver.dialect,

    migrate: migrations.migrate,

    async save(input: ArtifactKey & { artifact: Artifact }): Promise<number> {
      checkArtifactInput(input, input.artifact);
      const { artifact } = input;
      // Copied before the first await: later changes to the caller's bytes cannot reach storage.
      const content =
        artifact.kind === 'text' ? new TextEncoder().encode(artifact.text) : new Uint8Array(artifact.data);
      const key = keyParams(input);
      await ready();
      return driver.transaction(async (tx) => {
        const rows = await tx.query<{ next_version: number }>(
          `INSERT INTO agentctx_artifact_names (app_name, user_id, session_id, filename, next_version) VALUES (?, ?, ?, ?, 1)
           ON CONFLICT (app_name, user_id, session_id, filename) DO UPDATE SET next_version = agentctx_artifact_names.next_version + 1
           RETURNING next_version`,
          key,
        );
        const version = (rows[0]?.next_version ?? 1) - 1;
        await tx.run(
          `INSERT INTO agentctx_artifacts (app_name, user_id, session_id, filename, version, kind, mime_type, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          [...key, version, artifact.kind, artifact.mimeType, content],
        );
        return version;
      });
    },

    async load(input: ArtifactKey & { version?: number | undefined }): Promise<StoredArtifact | undefined> {
      checkArtifactInput(input, undefined, input.version);
      await ready();
      const rows =
        input.version === undefined
          ? await driver.query<ArtifactRow>(
              `SELECT version, kind, mime_type, content FROM agentctx_artifacts WHERE ${KEY_WHERE} ORDER BY version DESC LIMIT 1`,
              keyParams(input),
            )
          : await driver.query<ArtifactRow>(
              `SELECT version, kind, mime_type, content FROM agentctx_artifacts WHERE ${KEY_WHERE} AND version = ?`,
              [...keyParams(input), input.version],
            );
      const row = rows[0];
      if (row === undefined) return undefined;
      return row.kind === 'text'
        ? { kind: 'text', mimeType: row.mime_type, text: new TextDecoder().decode(row.content), version: row.version }
        : { kind: 'binary', mimeType: row.mime_type, data: new Uint8Array(row.content), version: row.version };
    },

    async list(input: SessionKey): Promise<string[]> {
      checkArtifactScope(input);
      await ready();
      // Session ids are never empty, so '' selects exactly the user's `user:` artifacts.
      const rows = await driver.query<{ filename: string }>(
        `SELECT filename FROM agentctx_artifact_names WHERE app_name = ? AND user_id = ? AND session_id IN (?, '')`,
        [input.appName, input.userId, input.sessionId],
      );
      // Sorted here, by code unit, whatever the database's collation.
      return rows.map((row) => row.filename).sort();
    },

    async listVersions(input: ArtifactKey): Promise<number[]> {
      checkArtifactInput(input);
      await ready();
      const rows = await driver.query<{ version: number }>(
        `SELECT version FROM agentctx_artifacts WHERE ${KEY_WHERE} ORDER BY version`,
        keyParams(input),
      );
      return rows.map((row) => row.version);
    },

    async delete(input: ArtifactKey & { version?: number | undefined }): Promise<void> {
      checkArtifactInput(input, undefined, input.version);
      await ready();
      const key = keyParams(input);
      if (input.version !== undefined) {
        const version = input.version;
        // The name row goes with the last version, so the name is no longer listed.
        await driver.transaction(async (tx) => {
          await tx.run(`DELETE FROM agentctx_artifacts WHERE ${KEY_WHERE} AND version = ?`, [...key, version]);
          const left = await tx.query<{ version: number }>(
            `SELECT version FROM agentctx_artifacts WHERE ${KEY_WHERE} LIMIT 1`,
            key,
          );
          if (left.length === 0) await tx.run(`DELETE FROM agentctx_artifact_names WHERE ${KEY_WHERE}`, key);
        });
        return;
      }
      // The name row first: a concurrent save holds it until it commits, so its version is deleted too.
      await driver.transaction(async (tx) => {
        await tx.run(`DELETE FROM agentctx_artifact_names WHERE ${KEY_WHERE}`, key);
        await tx.run(`DELETE FROM agentctx_artifacts WHERE ${KEY_WHERE}`, key);
      });
    },

    async close(): Promise<void> {
      await driver.close();
    },
  };
}
