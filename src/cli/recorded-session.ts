import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { SessionKey } from '../contracts/session.js';
import type { SessionStore } from '../contracts/session-store.js';
import { loadAgent } from './load-agent.js';
import type { CliIo } from './io.js';
import { resolveStore } from './resolve-store.js';

export type RecordedSessionOptions = {
  session?: string | undefined;
  app?: string | undefined;
  user?: string | undefined;
  store?: string | undefined;
};

/**
 * Opens the store and finds a session that `agentctx run` recorded: the app comes from `--app` or the agent file's
 * root agent. Runs `use` with the store open, and closes it after.
 */
export async function withRecordedSession<T>(file: string | undefined, options: RecordedSessionOptions, io: CliIo, use: (store: SessionStore, key: SessionKey) => Promise<T>): Promise<T> {
  if (options.session === undefined) throw new UsageError('Name the session with --session.');
  const appName = options.app ?? (file === undefined ? undefined : (await loadAgent(file, io.cwd)).name);
  if (appName === undefined) throw new UsageError('--session needs the app: name the agent file, or pass --app.');
  const key = { appName, userId: options.user ?? 'user', sessionId: options.session };
  const store = await resolveStore(options.store, io.cwd);
  try {
    const session = await store.getSession({ ...key, numRecentEvents: 0 });
    if (session === undefined) {
      throw new NotFoundError({
        resource: 'session',
        id: key.sessionId,
        message: `Session ${key.sessionId} of user ${key.userId} in app ${appName} is not in the store.`,
        hint: 'Check --session, --user, --app and --store.',
      });
    }
    return await use(store, key);
  } finally {
    await store.close();
  }
}
