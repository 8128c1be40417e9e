import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { ModelCallRecord } from '../contracts/model-call.js';
import type { SessionStoreWithCallLog } from '../contracts/session-store.js';
import type { SessionKey } from '../contracts/session.js';
import { isAgentModulePath } from './import-agent-module.js';
import { loadAgent } from './load-agent.js';
import { refuseMissingStore } from './resolve-store.js';
import type { CliRuntime } from './runtime.js';

export type RecordedSessionOptions = {
  session?: string | undefined;
  app?: string | undefined;
  user?: string | undefined;
  store?: string | undefined;
};

/**
 * Opens the store (through the command's runtime, which closes it) and finds a session that `agentctx run`
 * recorded: the app comes from `--app`, an agent file's root agent, or, for a JavaScript or TypeScript module, the
 * store itself. A module is never imported to read what it recorded: importing runs its code (a program that runs
 * its turns when loaded would add turns to the session being read).
 */
export async function openRecordedSession(
  file: string | undefined,
  options: RecordedSessionOptions,
  cwd: string,
  runtime: CliRuntime,
): Promise<{ store: SessionStoreWithCallLog; key: SessionKey }> {
  if (options.session === undefined) throw new UsageError('Name the session with --session.');
  const fromModule = options.app === undefined && file !== undefined && isAgentModulePath(file);
  const appName = options.app ?? (file === undefined || fromModule ? undefined : (await loadAgent(file, cwd)).name);
  if (appName === undefined && !fromModule)
    throw new UsageError('--session needs the app: name the agent file, or pass --app.');
  const userId = options.user ?? 'user';
  refuseMissingStore(options.store, cwd);
  const store = await runtime.store(options.store);
  const key = {
    appName: appName ?? (await appOfSession(store, userId, options.session)),
    userId,
    sessionId: options.session,
  };
  await requireSession(store, key);
  return { store, key };
}

// The one app of the store that has this session of this user.
async function appOfSession(store: SessionStoreWithCallLog, userId: string, sessionId: string): Promise<string> {
  const apps = (await store.listApps?.()) ?? [];
  const holding: string[] = [];
  for (const appName of apps)
    if ((await store.getSession({ appName, userId, sessionId, numRecentEvents: 0 })) !== undefined)
      holding.push(appName);
  if (holding.length === 1) return holding[0] as string;
  if (holding.length === 0) {
    throw new NotFoundError({
      resource: 'session',
      id: sessionId,
      message: `Session ${sessionId} of user ${userId} is in no app of the store.`,
      hint: 'Check --session, --user and --store, or pass --app.',
    });
  }
  throw new UsageError(
    `Session ${sessionId} of user ${userId} is in several apps: ${holding.join(', ')}.`,
    'Pass --app to say which.',
  );
}

/** Refuses a session that is not in the store, in one line naming what to check. */
export async function requireSession(store: SessionStoreWithCallLog, key: SessionKey): Promise<void> {
  const session = await store.getSession({ ...key, numRecentEvents: 0 });
  if (session === undefined) {
    throw new NotFoundError({
      resource: 'session',
      id: key.sessionId,
      message: `Session ${key.sessionId} of user ${key.userId} in app ${key.appName} is not in the store.`,
      hint: 'Check --session, --user, --app and --store.',
    });
  }
}

/** Call `value` (a `--call` option) of a recorded session; a number out of range is a one-line error. */
export async function recordedCall(
  store: SessionStoreWithCallLog,
  key: SessionKey,
  value: string,
): Promise<ModelCallRecord> {
  if (value === 'last') {
    const last = (await store.listModelCalls(key)).at(-1);
    if (last === undefined)
      throw new NotFoundError({
        resource: 'model call',
        id: 'last',
        message: `Session ${key.sessionId} has no recorded call.`,
        hint: 'Run a turn of it first (its calls are recorded in the store it runs on).',
      });
    return recordedCall(store, key, String(last.index));
  }
  const index = Number(value);
  if (!Number.isInteger(index) || index < 1)
    throw new UsageError(`--call must be a whole number from 1 or 'last', got '${value}'.`);
  const record = await store.getModelCall({ ...key, index });
  if (record === undefined) {
    const count = (await store.listModelCalls(key)).length;
    throw new NotFoundError({
      resource: 'model call',
      id: String(index),
      message: `Session ${key.sessionId} has no call ${index}; it has ${count}.`,
      hint: 'List them with --session alone.',
    });
  }
  return record;
}
