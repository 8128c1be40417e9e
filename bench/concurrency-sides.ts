// The two frameworks of `npm run bench:concurrency`, each behind one small interface: the counting agent (a scripted
// model that calls `bump` once per turn, a tool that adds one to `user:counter` through the framework's own tool
// state API), a turn, a plain append, and the stored sessions read back in one neutral shape.
import { createRequire } from 'node:module';

export const APP = 'concurrency';
export const USER = 'one_user';
export const COUNTER_KEY = 'user:counter';
export const TOOL = 'bump';
/** The session every process appends to in the second workload. */
export const SHARED_SESSION = 'shared';

export type Framework = 'adk' | 'agentctx';
export type StoreKind = 'sqlite' | 'postgres';
/** Where one framework keeps its sessions in one run: a SQLite file path or a PostgreSQL URL. */
export type Target = { framework: Framework; store: StoreKind; location: string };

/** A stored event, as the checks see it. */
export type StoredEvent = {
  id: string;
  /** `interrupted`: an error answer the framework recorded for a call whose tool never answered (agentctx, on the next turn). */
  kind: 'user' | 'call' | 'response' | 'interrupted' | 'answer' | 'other';
  label: string | undefined;
  counter?: number;
};
export type StoredSession = { id: string; state: Record<string, unknown>; events: StoredEvent[] };

/** An opaque loaded session of the framework, updated in place by appends. */
export type Handle = { readonly id: string };

export type Side = {
  createSession(sessionId: string): Promise<void>;
  /** One full run of `message`, drained; the messages of error events it yielded (it throws when the run throws). */
  turn(sessionId: string, message: string): Promise<string[]>;
  load(sessionId: string): Promise<Handle>;
  /** Appends a user event whose text is `label` through the session service; returns the event id. */
  append(handle: Handle, label: string): Promise<string>;
  read(sessionId: string): Promise<StoredSession | undefined>;
  /** Writes refused as conflicts and retried inside the framework's runner. */
  runnerConflicts(): number;
  /** What the store's connection runs with, read from it (ADK on SQLite: journal mode and busy timeout). */
  storeSettings(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
};

/** The model's answer to a request of the counting agent: a `bump` call for the user's turn, then a confirmation. */
export function scriptedAnswer(
  lastUserText: string,
  afterBump: boolean,
): { text: string } | { call: { turn: string } } {
  return afterBump ? { text: `counted ${lastUserText}` } : { call: { turn: lastUserText } };
}

type LooseEvent = { id: string; author?: string; content?: { parts?: readonly Record<string, unknown>[] } };
type Call = { id?: string; name?: string; args?: { turn?: unknown } };
type Response = { id?: string; name?: string; response?: { turn?: unknown; counter?: unknown; error?: unknown } };

/** Both frameworks store Gemini-shaped parts, so one reader serves both; a response without a turn takes its call's. */
export function toStoredEvents(events: readonly LooseEvent[]): StoredEvent[] {
  const callLabels = new Map<string, string>();
  for (const event of events) {
    const call = event.content?.parts?.[0]?.['functionCall'] as Call | undefined;
    if (call?.name === TOOL && call.id !== undefined) callLabels.set(call.id, String(call.args?.turn));
  }
  return events.map((event) => {
    const part = event.content?.parts?.[0];
    const call = part?.['functionCall'] as Call | undefined;
    const response = part?.['functionResponse'] as Response | undefined;
    const text = typeof part?.['text'] === 'string' ? (part['text'] as string) : undefined;
    if (call?.name === TOOL) return { id: event.id, kind: 'call', label: String(call.args?.turn) };
    if (response?.name === TOOL) {
      const counter = response.response?.counter;
      if (typeof counter === 'number')
        return { id: event.id, kind: 'response', label: String(response.response?.turn), counter };
      const label = response.id === undefined ? undefined : callLabels.get(response.id);
      return {
        id: event.id,
        kind: String(response.response?.error).startsWith('interrupted') ? 'interrupted' : 'other',
        label,
      };
    }
    if (text !== undefined && event.author === 'user') return { id: event.id, kind: 'user', label: text };
    if (text?.startsWith('counted ')) return { id: event.id, kind: 'answer', label: text.slice('counted '.length) };
    return { id: event.id, kind: 'other', label: text };
  });
}

/** Why ADK's database service cannot run on `store` here, or undefined when it can. */
export function adkUnavailable(store: StoreKind): string | undefined {
  const driver = store === 'sqlite' ? '@mikro-orm/sqlite' : '@mikro-orm/postgresql';
  try {
    createRequire(import.meta.url).resolve(driver);
    return undefined;
  } catch {
    return `ADK's DatabaseSessionService needs the optional peer package ${driver} for ${store === 'sqlite' ? 'sqlite://' : 'postgres://'} URLs, and it is not installed here (not in package.json)`;
  }
}

export async function openSide(target: Target): Promise<Side> {
  return target.framework === 'adk' ? openAdk(target) : openAgentctx(target);
}

async function openAgentctx(target: Target): Promise<Side> {
  const { createEvent, createRunner, functionTool, llmAgent } = await import('agentctx');
  const { createScriptedModel, lastUserText } = await import('agentctx/models/scripted');
  type Session = import('agentctx').Session;
  const sessions =
    target.store === 'sqlite'
      ? (await import('agentctx/stores/sqlite')).createSqliteSessionStore({ path: target.location })
      : (await import('agentctx/stores/postgres')).createPostgresSessionStore({ url: target.location });
  const bump = functionTool({
    name: TOOL,
    description: 'Counts one turn for the user.',
    jsonSchema: { type: 'object', properties: { turn: { type: 'string' } }, required: ['turn'] },
    execute: async ({ turn }: { turn: string }, context) => {
      const counter = (context.state.get(COUNTER_KEY) as number | undefined) ?? 0;
      context.state.set(COUNTER_KEY, counter + 1);
      return { turn, counter: counter + 1 };
    },
  });
  const agent = llmAgent({ name: 'counter', instruction: 'Count every turn with bump, then confirm.', tools: [bump] });
  const respond = (afterBump: boolean) => (request: import('agentctx').LlmRequest) => {
    const answer = scriptedAnswer(lastUserText(request), afterBump);
    return 'text' in answer ? { text: answer.text } : { functionCall: { name: TOOL, args: answer.call } };
  };
  const model = createScriptedModel(
    { rules: [{ when: { afterToolResponse: TOOL }, respond: respond(true) }, { respond: respond(false) }] },
    { record: false },
  );
  const runner = createRunner({ agents: agent, appName: APP, sessions, model });
  const key = (sessionId: string) => ({ appName: APP, userId: USER, sessionId });
  return {
    async createSession(sessionId) {
      await sessions.createSession(key(sessionId));
    },
    async turn(sessionId, message) {
      const errors: string[] = [];
      for await (const event of runner.run({ userId: USER, sessionId, message })) {
        if (event.errorCode !== undefined || event.errorMessage !== undefined)
          errors.push(`${event.errorCode ?? 'error'}: ${event.errorMessage ?? ''}`);
      }
      return errors;
    },
    async load(sessionId) {
      const session = await sessions.getSession(key(sessionId));
      if (session === undefined) throw new Error(`no session ${sessionId}`);
      return session;
    },
    async append(handle, label) {
      const event = createEvent({
        author: 'user',
        invocationId: label,
        content: { role: 'user', parts: [{ text: label }] },
      });
      await sessions.appendEvent({ session: handle as Session, event });
      return event.id;
    },
    async read(sessionId) {
      const session = await sessions.getSession(key(sessionId));
      return session === undefined
        ? undefined
        : { id: session.id, state: session.state, events: toStoredEvents(session.events as unknown as LooseEvent[]) };
    },
    runnerConflicts: () => runner.stats.conflictsRetried,
    storeSettings: async () => ({}),
    close: () => sessions.close(),
  };
}

async function openAdk(target: Target): Promise<Side> {
  const adk = await import('@google/adk');
  adk.setLogLevel(adk.LogLevel.ERROR);
  type Session = import('@google/adk').Session;
  type LlmRequest = import('@google/adk').LlmRequest;
  type LlmResponse = import('@google/adk').LlmResponse;

  /** ADK's scripted model: the same answers as agentctx's, read from ADK's request. */
  class CountingLlm extends adk.BaseLlm {
    constructor() {
      super({ model: 'counting-model' });
    }
    override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
      const contents = request.contents;
      const lastParts = contents[contents.length - 1]?.parts ?? [];
      const afterBump = lastParts.some((part) => part.functionResponse?.name === TOOL);
      let userText = '';
      for (let index = contents.length - 1; index >= 0 && userText === ''; index--) {
        const content = contents[index];
        if (content?.role === 'user') userText = (content.parts ?? []).map((part) => part.text ?? '').join('');
      }
      const answer = scriptedAnswer(userText, afterBump);
      const part = 'text' in answer ? { text: answer.text } : { functionCall: { name: TOOL, args: answer.call } };
      yield { content: { role: 'model', parts: [part] } };
    }
    override async connect(): Promise<never> {
      throw new Error('CountingLlm has no live mode');
    }
  }

  const { z } = await import('zod');
  const bump = new adk.FunctionTool({
    name: TOOL,
    description: 'Counts one turn for the user.',
    parameters: z.object({ turn: z.string() }),
    execute: async ({ turn }, context) => {
      if (context === undefined) throw new Error('ADK passed no tool context');
      const counter = (context.state.get(COUNTER_KEY) as number | undefined) ?? 0;
      context.state.set(COUNTER_KEY, counter + 1);
      return { turn, counter: counter + 1 };
    },
  });
  const agent = new adk.LlmAgent({
    name: 'counter',
    instruction: 'Count every turn with bump, then confirm.',
    model: new CountingLlm(),
    tools: [bump],
  });
  // The form ADK documents: a connection string, with MikroORM's defaults for the driver (for SQLite: the `sqlite3`
  // package, a rollback journal, a busy timeout of 1 s).
  const service = new adk.DatabaseSessionService(
    target.store === 'sqlite' ? `sqlite://${target.location}` : target.location,
  );
  const runner = new adk.Runner({ appName: APP, agent, sessionService: service });
  const key = (sessionId: string) => ({ appName: APP, userId: USER, sessionId });
  return {
    async createSession(sessionId) {
      await service.createSession(key(sessionId));
    },
    async turn(sessionId, message) {
      const errors: string[] = [];
      for await (const event of runner.runAsync({
        userId: USER,
        sessionId,
        newMessage: { role: 'user', parts: [{ text: message }] },
      })) {
        if (event.errorCode !== undefined || event.errorMessage !== undefined)
          errors.push(`${event.errorCode ?? 'error'}: ${event.errorMessage ?? ''}`);
      }
      return errors;
    },
    async load(sessionId) {
      const session = await service.getSession(key(sessionId));
      if (session === undefined) throw new Error(`no session ${sessionId}`);
      return session;
    },
    async append(handle, label) {
      const event = adk.createEvent({
        author: 'user',
        invocationId: label,
        content: { role: 'user', parts: [{ text: label }] },
      });
      await service.appendEvent({ session: handle as Session, event });
      return event.id;
    },
    async read(sessionId) {
      const session = await service.getSession(key(sessionId));
      return session === undefined
        ? undefined
        : { id: session.id, state: session.state, events: toStoredEvents(session.events as unknown as LooseEvent[]) };
    },
    // ADK's runner retries nothing: its database service reloads a stale session inside the append instead.
    runnerConflicts: () => 0,
    async storeSettings() {
      if (target.store !== 'sqlite') return {};
      const connection = ormOf(service)?.em.getConnection();
      const pragma = async (name: string) =>
        Object.values(
          ((await connection?.execute(`PRAGMA ${name}`)) as Record<string, unknown>[] | undefined)?.[0] ?? {},
        )[0];
      return { journalMode: await pragma('journal_mode'), busyTimeoutMs: await pragma('busy_timeout') };
    },
    // DatabaseSessionService has no close(); its MikroORM instance does.
    close: async () => void (await ormOf(service)?.close(true)),
  };
}

type Orm = {
  close(force?: boolean): Promise<void>;
  em: { getConnection(): { execute(sql: string): Promise<unknown> } };
};
/** ADK keeps its MikroORM instance in a private field; the bench reaches it only to read pragmas and to close it. */
const ormOf = (service: object): Orm | undefined => (service as { orm?: Orm }).orm;
