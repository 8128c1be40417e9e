// The agentctx side of `npm run bench:runner`: the scenario on agentctx's runner, through the built package.
import {
  createEvent,
  createInMemorySessionStore,
  createRunner,
  functionTool,
  llmAgent,
  type LlmRequest,
  type Session,
  type SessionStore,
} from 'agentctx';
import { createScriptedModel } from 'agentctx/models/scripted';
import { createSqliteSessionStore } from 'agentctx/stores/sqlite';
import { z } from 'zod';
import {
  AGENT_DESCRIPTION,
  AGENT_NAME,
  APP_NAME,
  INITIAL_STATE,
  INSTRUCTION,
  MODEL_REPLY,
  shapeOf,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USER_ID,
  type BenchSide,
  type HistoryEvent,
  type RequestShape,
} from './runner-scenario.js';

export async function createAgentctxSide(options: {
  sqlitePath?: string | undefined;
  synchronous?: 'normal' | 'full';
}): Promise<BenchSide> {
  const lookup = functionTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => ({ answer: q }),
  });
  const agent = llmAgent({
    name: AGENT_NAME,
    description: AGENT_DESCRIPTION,
    instruction: INSTRUCTION,
    tools: [lookup],
  });
  let calls = 0;
  let last: LlmRequest | undefined;
  // Answers every call at once and records nothing; the rule only counts calls and keeps a reference to the request.
  const model = createScriptedModel(
    {
      rules: [
        {
          respond: (request) => {
            calls++;
            last = request;
            return { text: MODEL_REPLY };
          },
        },
      ],
    },
    { record: false },
  );
  const sessions: SessionStore =
    options.sqlitePath === undefined
      ? createInMemorySessionStore()
      : createSqliteSessionStore({
          path: options.sqlitePath,
          ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
        });
  const runner = createRunner({ agents: agent, appName: APP_NAME, sessions, model });
  const session: Session = await runner.createSession({ userId: USER_ID, state: { ...INITIAL_STATE } });
  // History timestamps lie in the past, 10 ms apart, so the measured turns come after them.
  const start = Date.now() / 1000 - 1_000_000;

  return {
    async append(event: HistoryEvent, index: number): Promise<void> {
      await sessions.appendEvent({
        session,
        event: createEvent({
          author: event.author,
          invocationId: `inv${event.turn}`,
          timestamp: start + index / 100,
          content: event.content,
        }),
      });
    },
    async turn(message: string): Promise<number> {
      let yielded = 0;
      for await (const _event of runner.run({ userId: USER_ID, sessionId: session.id, message })) yielded++;
      return yielded;
    },
    get modelCalls() {
      return calls;
    },
    lastRequest(): RequestShape | undefined {
      if (last === undefined) return undefined;
      return shapeOf(
        last.messages.map((message) => message.content),
        last.system,
        last.tools.map((tool) => tool.name),
      );
    },
    async storedEvents(): Promise<number> {
      const stored = await sessions.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
      return stored?.events.length ?? -1;
    },
    close: () => sessions.close(),
  };
}
