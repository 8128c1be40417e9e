// The scenario of `npm run bench:runner`, shared word for word by its agentctx and ADK sides: the agent's texts,
// the session state, the history both stores receive and what one measured turn is. Imports no framework.

export const APP_NAME = 'bench';
export const USER_ID = 'u';
export const AGENT_NAME = 'bench_agent';
export const AGENT_DESCRIPTION = 'Benchmark agent.';
export const INSTRUCTION = 'You are a benchmark agent. User name: {user_name?}. Keep answers short.';
/** What the templated instruction must render to in every request. */
export const RENDERED_INSTRUCTION = 'You are a benchmark agent. User name: Ada. Keep answers short.';
export const INITIAL_STATE = { user_name: 'Ada' } as const;
export const TOOL_NAME = 'lookup';
export const TOOL_DESCRIPTION = 'Looks up a fact.';
export const MODEL_REPLY = 'fine, thanks';

/** 3 warm-up turns, then 15 measured ones (9 at 10,000 events). */
export const WARMUP_TURNS = 3;
export const measuredTurns = (events: number): number => (events >= 10_000 ? 9 : 15);
export const turnMessage = (turn: number): string => `bench turn ${turn}`;

/** A part in the Gemini form both frameworks share. */
export type HistoryPart =
  | { text: string }
  | { functionCall: { id: string; name: string; args: Record<string, unknown> } }
  | { functionResponse: { id: string; name: string; response: Record<string, unknown> } };

export type HistoryEvent = {
  /** `user`, or the agent's name. */
  author: string;
  /** The conversation turn it belongs to; each framework turns this into its own invocation id. */
  turn: number;
  content: { role: 'user' | 'model'; parts: HistoryPart[] };
};

const FILLER = 'lorem ipsum dolor sit amet '.repeat(7); // 189 characters

/**
 * Exactly `count` events: per turn a user question and a model answer (~200 characters each), and on every 5th turn a
 * `lookup` functionCall/functionResponse pair between them.
 */
export function* historyEvents(count: number): Generator<HistoryEvent> {
  let emitted = 0;
  for (let turn = 0; emitted < count; turn++) {
    const events: HistoryEvent[] = [
      { author: 'user', turn, content: { role: 'user', parts: [{ text: `question ${turn}: ${FILLER}` }] } },
    ];
    // A tool turn only where all four of its events fit: a history cut between a call and its response would leave
    // an orphan call, which agentctx answers as interrupted on the next turn (one message more than ADK sends), so
    // the two frameworks would not get the same history. Only the smallest size (10 events) was cut there.
    if (turn % 5 === 4 && count - emitted >= 4) {
      const id = `call_${turn}`;
      events.push({
        author: AGENT_NAME,
        turn,
        content: { role: 'model', parts: [{ functionCall: { id, name: TOOL_NAME, args: { q: `q${turn}` } } }] },
      });
      events.push({
        author: AGENT_NAME,
        turn,
        content: {
          role: 'user',
          parts: [{ functionResponse: { id, name: TOOL_NAME, response: { answer: `a${turn} ${FILLER}` } } }],
        },
      });
    }
    events.push({
      author: AGENT_NAME,
      turn,
      content: { role: 'model', parts: [{ text: `answer ${turn}: ${FILLER}` }] },
    });
    for (const event of events) {
      if (emitted === count) return;
      emitted++;
      yield event;
    }
  }
}

/** What the last model call received, counted the same way for both frameworks. */
export type RequestShape = {
  messages: number;
  textParts: number;
  functionCalls: number;
  functionResponses: number;
  /** Characters of text in the messages (function payloads excluded). */
  textChars: number;
  /** Whether the system text holds the rendered instruction and the description, and the tool is declared. */
  instructionRendered: boolean;
  toolDeclared: boolean;
};

export function shapeOf(
  messages: readonly (readonly object[])[],
  system: string,
  toolNames: readonly string[],
): RequestShape {
  let textParts = 0;
  let functionCalls = 0;
  let functionResponses = 0;
  let textChars = 0;
  for (const parts of messages) {
    for (const part of parts) {
      if ('text' in part && typeof part.text === 'string') {
        textParts++;
        textChars += part.text.length;
      } else if ('functionCall' in part) functionCalls++;
      else if ('functionResponse' in part) functionResponses++;
    }
  }
  return {
    messages: messages.length,
    textParts,
    functionCalls,
    functionResponses,
    textChars,
    instructionRendered: system.includes(RENDERED_INSTRUCTION) && system.includes(AGENT_DESCRIPTION),
    toolDeclared: toolNames.includes(TOOL_NAME),
  };
}

/** One framework set up for one (store, N) run. */
export type BenchSide = {
  /** Appends one history event through the framework's session store. */
  append(event: HistoryEvent, index: number): Promise<void>;
  /** One full run of a user message, drained to the end; returns how many events it yielded. */
  turn(message: string): Promise<number>;
  /** Model calls so far. */
  readonly modelCalls: number;
  /** What the latest model call received. */
  lastRequest(): RequestShape | undefined;
  /** Events the stored session holds now, read back from the store. */
  storedEvents(): Promise<number>;
  close(): Promise<void>;
};

export type Store = 'memory' | 'sqlite';
export type Framework = 'agentctx' | 'adk';
