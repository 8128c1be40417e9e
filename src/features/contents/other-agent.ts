import type { Part } from '../../contracts/content.js';
import type { Source } from '../../contracts/source.js';
import { pythonStrip } from '../../engine/python/python-text.js';
import { functionResponses, withParts, type WorkEvent } from './work-event.js';

/**
 * Whether an event is another agent's turn, to be retold as context rather than shown as the model's own
 * (ADK's `_is_other_agent_reply`; in live sessions every non-user event counts).
 */
export function isOtherAgentReply(agentName: string, author: string, liveSessionId?: string): boolean {
  if (liveSessionId !== undefined && liveSessionId !== '') return author !== 'user';
  return agentName !== '' && author !== agentName && author !== 'user';
}

/** Marks the events to retell: other agents' turns, and responses to calls another agent made (ADK 2.0). */
export function findOtherAgentEvents(agentName: string, events: readonly WorkEvent[]): Set<WorkEvent> {
  const callAuthors = new Map<string | undefined, string>();
  for (const event of events) {
    for (const part of event.parts) if ('functionCall' in part) callAuthors.set(part.functionCall.id, event.author);
  }
  const others = new Set<WorkEvent>();
  for (const event of events) {
    if (isOtherAgentReply(agentName, event.author)) {
      others.add(event);
      continue;
    }
    const answersOther = functionResponses(event).some((response) => {
      const caller = callAuthors.get(response.id);
      return caller !== undefined && caller !== '' && caller !== agentName && caller !== 'user';
    });
    if (answersOther) others.add(event);
  }
  return others;
}

const RETOLD_NOTE = "another agent's turn, retold as context";

/** Renders a tool's arguments or result inside a retold turn; ADK uses Python's `str()`. */
export type EmbedValue = (value: unknown) => string;

/**
 * Another agent's turn as a user message (ADK's `_present_other_agent_message`): `For context:`, then one line per
 * text, call and result; thoughts and blank text are dropped, data parts kept. `undefined` when nothing is left.
 */
export function presentOtherAgentEvent(event: WorkEvent, embed: EmbedValue): WorkEvent | undefined {
  if (event.parts.length === 0) return event;
  const parts: Part[] = [{ text: 'For context:' }];
  // Parts of one event usually share one source: retell it once.
  let lastSource: Source | undefined;
  let lastRetold: Source | undefined;
  const retold = (source: Source): Source => {
    if (source !== lastSource || lastRetold === undefined) {
      lastSource = source;
      lastRetold = retellSource(source);
    }
    return lastRetold;
  };
  const firstSource = event.sources[0] as Source;
  const sources: Source[] = [retold(firstSource)];
  event.parts.forEach((part, index) => {
    const line = retellPart(event.author, part, embed);
    if (line === undefined) return;
    parts.push(line);
    sources.push(retold(event.sources[index] ?? firstSource));
  });
  if (parts.length === 1) return undefined;
  return withParts({ ...event, author: 'user', role: 'user' }, parts, sources);
}

// Built field by field: spreading a Source is slow enough to matter on long histories.
function retellSource(source: Source): Source {
  const summary = source.kind === 'summary';
  const retold: Source = {
    kind: summary ? 'summary' : 'other-agent',
    processor: source.processor,
    agent: source.agent,
    note: summary ? `${source.note ?? 'summary'}, retold as another agent's turn (ADK behaviour)` : RETOLD_NOTE,
  };
  if (source.field !== undefined) retold.field = source.field;
  if (source.eventIds !== undefined) retold.eventIds = source.eventIds;
  if (source.substitutions !== undefined) retold.substitutions = source.substitutions;
  return retold;
}

function retellPart(author: string, part: Part, embed: EmbedValue): Part | undefined {
  if ('text' in part) {
    if (part.thought === true || pythonStrip(part.text) === '') return undefined;
    return { text: `[${author}] said: ${part.text}` };
  }
  if ('functionCall' in part) {
    return {
      text: `[${author}] called tool \`${part.functionCall.name}\` with parameters: ${embed(part.functionCall.args ?? null)}`,
    };
  }
  if ('functionResponse' in part) {
    return {
      text: `[${author}] \`${part.functionResponse.name}\` tool returned result: ${embed(part.functionResponse.response ?? null)}`,
    };
  }
  return part;
}
