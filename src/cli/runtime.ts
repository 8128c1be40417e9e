import type { SqliteSessionStoreOptions } from '../stores/sqlite/index.js';
import type { MemoryService } from '../contracts/memory-service.js';
import type { RememberSessions } from '../features/memory-tools/remember-sessions.js';
import { createInMemoryMemoryService } from '../engine/memory/in-memory-memory-service.js';
import type { ProfileName } from '../contracts/profile.js';
import type { AgentTree } from '../contracts/agent.js';
import type { ArtifactStore } from '../contracts/artifact-store.js';
import type { Model } from '../contracts/model.js';
import type { SessionStoreWithCallLog } from '../contracts/session-store.js';
import { createAgentTree, isLlmAgent } from '../engine/agent/agent-tree.js';
import type { Runner } from '../engine/runner/runner.js';
import { createRunner } from '../presets/create-runner.js';
import { loadAgentFile } from './load-agent.js';
import { profileOf } from '../presets/profile-spec.js';
import { loadBindings } from './bindings-option.js';
import { resolveModel } from './resolve-model.js';
import { withSimulatedBilling, type SimulatedBillingOptions } from '../testing/prompt-cache/simulated-billing.js';
import {
  resolveArtifactStore,
  resolveSqlStore,
  resolveStore,
  type OpenedArtifactStore,
  type OpenedSqlStore,
} from './resolve-store.js';

// How the store's memory service matches and embeds (the SQL stores all take the same options).
type SqlMemoryOptions = NonNullable<SqliteSessionStoreOptions['memory']>;

/** Where a command runs: its working folder (for relative paths) and its environment (for API keys). */
export type RuntimePlace = {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Where warnings about what an agent file holds but will not run go (the CLI's stderr). */
  stderr?: ((text: string) => void) | undefined;
};

/** How the runtime reaches stores and models; tests pass their own to watch what is opened and closed. */
export type Openers = {
  store(value: string | undefined, cwd: string, memory?: SqlMemoryOptions): Promise<SessionStoreWithCallLog>;
  sqlStore(value: string | undefined, cwd: string): Promise<OpenedSqlStore>;
  /** The artifact store beside the session store `value` names. */
  artifacts(value: string | undefined, cwd: string): Promise<OpenedArtifactStore>;
  model(name: string, cwd: string, env: RuntimePlace['env']): Promise<Model>;
};

/** The stores and models `--store` and `--model` name on this machine (`resolve-store.ts`, `resolve-model.ts`). */
export const nodeOpeners: Openers = Object.freeze({
  store: resolveStore,
  sqlStore: resolveSqlStore,
  artifacts: resolveArtifactStore,
  model: resolveModel,
});

/** What `agentctx run` and `serve` drive: an agent file's runner, and the stores it keeps sessions and artifacts in. */
export type AgentRunner = {
  runner: Runner<SessionStoreWithCallLog>;
  sessions: SessionStoreWithCallLog;
  artifacts: ArtifactStore;
};

export type RunnerChoices = {
  /** `--store`: where sessions live (the default SQLite file when absent). */
  store: string | undefined;
  /** `--model`: one model for every agent, instead of the models the agents name. */
  model: string | undefined;
  streaming: boolean;
  /** `--model-timeout`: time one model call may take, in ms (no limit when absent). */
  modelTimeoutMs?: number | undefined;
  /** `--tool-timeout`: time one tool call may take, in ms (no limit when absent). */
  toolTimeoutMs?: number | undefined;
  /** `--profile`: the conventions the runner follows (agentctx's when absent). */
  profile?: ProfileName | undefined;
  /** `--embed`: the embedding model memory searches with besides words (none when absent). */
  embed?: string | undefined;
  /** `--remember`: when sessions are added to memory by themselves (never when absent). */
  remember?: RememberSessions | undefined;
  /** `--bindings`: the module of TypeScript for the Python names an agent file gives. */
  bindings?: string | undefined;
  /**
   * `--bill-as`: every model's calls billed as this provider's model would bill them (its exact bodies, its prompt
   * cache rules), so offline runs of scripted models have tokens and USD; none when absent.
   */
  billAs?: SimulatedBillingOptions | undefined;
  /** The runner's ids of events, invocations and calls (random when absent): a counter makes two runs comparable. */
  newId?: (() => string) | undefined;
  /** The stores of a runner opened before, shared instead of opening `store` again (several apps on one server). */
  stores?: Pick<AgentRunner, 'sessions' | 'artifacts'> | undefined;
};

/**
 * The CLI's composition root: everything a command opens of the outside world (session stores, models, runners) is
 * opened here, once, and closed together by `close` when the command ends, whether it succeeded or threw. `main` opens
 * one per command. A store that cannot be opened is a one-line error naming it, its password hidden (`resolveStore`).
 */
export type CliRuntime = {
  /** The session store a `--store` value names: `memory`, a SQLite file, or a PostgreSQL URL (connected and migrated). */
  store(value: string | undefined, memory?: SqlMemoryOptions): Promise<SessionStoreWithCallLog>;
  /** A SQLite or PostgreSQL store, not yet migrated: for `agentctx migrate`. */
  sqlStore(value: string | undefined): Promise<OpenedSqlStore>;
  /** A model by name, as `--model` takes it; each name is resolved once. */
  model(name: string): Promise<Model>;
  /**
   * An agent file's (or module's) runner: the agents, then their models (the one `--model`, or every model the agents
   * name, all resolved before anything runs), then the session store and the artifact store beside it.
   */
  runner(file: string, choices: RunnerChoices): Promise<AgentRunner>;
  /** Closes every store opened, the latest first; the first failure is thrown after all were tried. */
  close(): Promise<void>;
};

export function openRuntime(place: RuntimePlace, open: Openers = nodeOpeners): CliRuntime {
  const opened: { close(): Promise<void> }[] = [];
  const models = new Map<string, Promise<Model>>();
  const runtime: CliRuntime = {
    async store(value, memory) {
      const store = await open.store(value, place.cwd, memory);
      opened.push(store);
      return store;
    },
    async sqlStore(value) {
      const sql = await open.sqlStore(value, place.cwd);
      opened.push(sql.store);
      return sql;
    },
    model(name) {
      const model = models.get(name) ?? open.model(name, place.cwd, place.env);
      models.set(name, model);
      return model;
    },
    async runner(file, choices) {
      const warn =
        place.stderr === undefined ? undefined : (message: string) => place.stderr?.(`warning: ${message}\n`);
      const loaded = await loadAgentFile(file, place.cwd, warn, await loadBindings(choices.bindings, place.cwd));
      const tree = createAgentTree(loaded.agent);
      // --profile names the conventions; the file's profile gives them (and its Python) when it does not.
      const named = choices.profile ?? loaded.profile?.name;
      const profile = named === undefined ? undefined : profileOf({ ...loaded.profile, name: named });
      const models = billed(await modelsFor(tree, choices.model ?? loaded.model, runtime), choices.billAs);
      // The store's memory follows the profile's matching, and embeds with --embed's model (recorded in invocations).
      const memoryOptions: SqlMemoryOptions = {
        ...(named === 'adk' ? { matching: 'adk' } : {}),
        ...(choices.embed === undefined ? {} : { embed: await runtime.model(choices.embed) }),
      };
      const sessions = choices.stores?.sessions ?? (await runtime.store(choices.store, memoryOptions));
      let artifacts = choices.stores?.artifacts;
      if (artifacts === undefined) opened.push((artifacts = await open.artifacts(choices.store, place.cwd)));
      const limits = {
        ...(choices.modelTimeoutMs === undefined ? {} : { modelTimeoutMs: choices.modelTimeoutMs }),
        ...(choices.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: choices.toolTimeoutMs }),
      };
      return {
        runner: createRunner({
          agents: tree,
          sessions,
          artifacts,
          // The SQL stores are memory services too; a store in memory gets one in memory beside it.
          memory: isMemoryService(sessions) ? sessions : createInMemoryMemoryService(memoryOptions),
          ...models,
          streaming: choices.streaming,
          ...limits,
          ...(profile === undefined ? {} : { profile }),
          ...(choices.remember === undefined ? {} : { remember: choices.remember }),
          ...(choices.newId === undefined ? {} : { newId: choices.newId }),
          ...(loaded.compaction === undefined ? {} : { eventsCompactionConfig: loaded.compaction }),
        }),
        sessions,
        artifacts,
      };
    },
    async close() {
      let failure: { error: unknown } | undefined;
      for (const resource of opened.splice(0).reverse()) {
        try {
          await resource.close();
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure !== undefined) throw failure.error;
    },
  };
  return runtime;
}

type RunnerModels = { model: Model } | { models: (name: string) => Model | undefined };

// One model for every agent (named, or the module's own), or the models the agents name, each resolved now so a bad
// name fails before any turn.
async function modelsFor(
  tree: AgentTree,
  override: string | Model | undefined,
  runtime: CliRuntime,
): Promise<RunnerModels> {
  if (typeof override === 'object') return { model: override };
  if (override !== undefined) return { model: await runtime.model(override) };
  const named = new Map<string, Model>();
  for (const node of tree.nodes) {
    const name = isLlmAgent(node.definition) ? node.definition.model : undefined;
    if (name !== undefined && !named.has(name)) named.set(name, await runtime.model(name));
  }
  return { models: (name) => named.get(name) };
}

// Each model wrapped in a simulation of its own, made for this runner: two runners never share a simulated cache.
function billed(models: RunnerModels, billAs: SimulatedBillingOptions | undefined): RunnerModels {
  if (billAs === undefined) return models;
  if ('model' in models) return { model: withSimulatedBilling(models.model, billAs) };
  const wrapped = new Map<Model, Model>();
  return {
    models: (name) => {
      const model = models.models(name);
      if (model === undefined) return undefined;
      let bill = wrapped.get(model);
      if (bill === undefined) wrapped.set(model, (bill = withSimulatedBilling(model, billAs)));
      return bill;
    },
  };
}

function isMemoryService(store: object): store is MemoryService {
  return typeof (store as Partial<MemoryService>).searchMemory === 'function';
}
