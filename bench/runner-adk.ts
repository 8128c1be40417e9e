// The @google/adk 2.0.0 side of `npm run bench:runner`: the same scenario on ADK's Runner and session services.
import {
  BaseLlm,
  createEvent,
  DatabaseSessionService,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type BaseSessionService,
  type LlmRequest,
  type LlmResponse,
  type Session,
} from '@google/adk';
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

/** A model that answers every call at once with the same text and records nothing but a reference to the request. */
class FakeLlm extends BaseLlm {
  calls = 0;
  last: LlmRequest | undefined;

  constructor() {
    super({ model: 'fake-model' });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.calls++;
    this.last = request;
    yield { content: { role: 'model', parts: [{ text: MODEL_REPLY }] } };
  }

  override async connect(): Promise<never> {
    throw new Error('FakeLlm has no live mode');
  }
}

/** The system instruction as text, whatever form ADK left it in. */
function systemText(request: LlmRequest): string {
  const instruction: unknown = request.config?.systemInstruction;
  if (typeof instruction === 'string') return instruction;
  if (
    instruction !== null &&
    typeof instruction === 'object' &&
    'parts' in instruction &&
    Array.isArray(instruction.parts)
  ) {
    return instruction.parts
      .map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
      .join('');
  }
  return '';
}

export async function createAdkSide(options: { sqlitePath?: string | undefined }): Promise<BenchSide> {
  setLogLevel(LogLevel.ERROR);
  const model = new FakeLlm();
  const lookup = new FunctionTool({
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => ({ answer: q }),
  });
  const agent = new LlmAgent({
    name: AGENT_NAME,
    description: AGENT_DESCRIPTION,
    instruction: INSTRUCTION,
    model,
    tools: [lookup],
  });
  const sessionService: BaseSessionService =
    options.sqlitePath === undefined
      ? new InMemorySessionService()
      : new DatabaseSessionService(`sqlite://${options.sqlitePath}`);
  const runner = new Runner({ appName: APP_NAME, agent, sessionService });
  const session: Session = await sessionService.createSession({
    appName: APP_NAME,
    userId: USER_ID,
    state: { ...INITIAL_STATE },
  });
  // History timestamps (ms here) lie in the past, 10 ms apart, so the measured turns come after them.
  const start = Date.now() - 1_000_000_000;

  return {
    async append(event: HistoryEvent, index: number): Promise<void> {
      await sessionService.appendEvent({
        session,
        event: createEvent({
          author: event.author,
          invocationId: `inv${event.turn}`,
          timestamp: start + index * 10,
          content: event.content,
        }),
      });
    },
    async turn(message: string): Promise<number> {
      let yielded = 0;
      for await (const _event of runner.runAsync({
        userId: USER_ID,
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: message }] },
      }))
        yielded++;
      return yielded;
    },
    get modelCalls() {
      return model.calls;
    },
    lastRequest(): RequestShape | undefined {
      const last = model.last;
      if (last === undefined) return undefined;
      return shapeOf(
        last.contents.map((content) => content.parts ?? []),
        systemText(last),
        Object.keys(last.toolsDict),
      );
    },
    async storedEvents(): Promise<number> {
      const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
      return stored?.events.length ?? -1;
    },
    // DatabaseSessionService has no close(); the child process exits when it is done.
    close: async () => {},
  };
}
