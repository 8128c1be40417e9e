import type { Content } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { LlmRequest } from '../../contracts/request.js';
import { matchesWithin } from './bounded-match.js';

/** One scripted answer: text, thoughts and function calls, or a whole content, or an error. */
export type ScriptedResponse = {
  text?: string;
  thought?: string;
  functionCall?: ScriptedCall;
  functionCalls?: ScriptedCall[];
  content?: Content;
  usage?: Usage;
  finishReason?: string;
  error?: { code: string; message: string };
};

export type ScriptedCall = { name: string; args?: Record<string, unknown>; id?: string };

/** What a rule can look at, besides the request. */
export type ScriptCall = {
  /** 1 for the model's first call, 2 for the second… */
  index: number;
  /** 1 for this agent's first call of the model, 2 for its second… */
  agentIndex: number;
  agentName: string | undefined;
  /** The session state as the call sees it, when the runner tells it. */
  readState: ((key: string) => unknown) | undefined;
};

/** Conditions a file can state; all given ones must hold. */
export type RuleCondition = {
  /** The agent making the call. */
  agent?: string;
  /** The model's call number (1-based), counting every agent's calls. */
  call?: number;
  /** This agent's call number (1-based): its first call of the model is 1, whatever other agents did before. */
  agentCall?: number;
  /** The user's own latest text contains this (other agents' turns retold as user messages do not count). */
  lastUserText?: string;
  /** The user's own latest text matches this regular expression. */
  lastUserMatches?: string;
  systemContains?: string;
  /** The request's text — system text, every message's text, tool calls and tool results (as JSON) — contains this. */
  requestContains?: string;
  /** The request's text (as for `requestContains`) does not contain this: a fact the context dropped. */
  requestLacks?: string;
  /** The request ends with a response of this tool. */
  afterToolResponse?: string;
  /** The request ends with tool responses, one of which (as JSON) contains this text. */
  toolResultContains?: string;
  /** The request declares this tool. */
  hasTool?: string;
  /** Each of these state keys holds this value (compared as JSON; `null` also matches a key that is not set). */
  state?: Record<string, unknown>;
};

export type ScriptRule = {
  when?: RuleCondition | ((request: LlmRequest, call: ScriptCall) => boolean);
  respond: ScriptedResponse | ((request: LlmRequest, call: ScriptCall) => ScriptedResponse);
  /** How often the rule may answer; unlimited when absent. */
  times?: number;
};

/**
 * A script: answers in order, or rules tried in order before them (the first whose condition holds answers),
 * and a fallback for when both are used up.
 */
export type Script = {
  responses?: ScriptedResponse[];
  rules?: ScriptRule[];
  fallback?: ScriptedResponse;
};

/** Whether a file-stated condition holds for a request. */
export function conditionHolds(condition: RuleCondition, request: LlmRequest, call: ScriptCall): boolean {
  if (condition.agent !== undefined && condition.agent !== call.agentName) return false;
  if (condition.call !== undefined && condition.call !== call.index) return false;
  if (condition.agentCall !== undefined && condition.agentCall !== call.agentIndex) return false;
  const userText = lastUserText(request);
  if (condition.lastUserText !== undefined && !userText.includes(condition.lastUserText)) return false;
  if (condition.lastUserMatches !== undefined && !matchesWithin(new RegExp(condition.lastUserMatches, 'u'), userText))
    return false;
  if (condition.systemContains !== undefined && !request.system.includes(condition.systemContains)) return false;
  if (condition.requestContains !== undefined || condition.requestLacks !== undefined) {
    const text = requestText(request);
    if (condition.requestContains !== undefined && !text.includes(condition.requestContains)) return false;
    if (condition.requestLacks !== undefined && text.includes(condition.requestLacks)) return false;
  }
  if (condition.hasTool !== undefined && !request.tools.some((tool) => tool.name === condition.hasTool)) return false;
  if (condition.afterToolResponse !== undefined) {
    const lastPart = request.messages.at(-1)?.content.at(-1);
    if (
      lastPart === undefined ||
      !('functionResponse' in lastPart) ||
      lastPart.functionResponse.name !== condition.afterToolResponse
    )
      return false;
  }
  if (condition.toolResultContains !== undefined) {
    const results = (request.messages.at(-1)?.content ?? []).flatMap((part) =>
      'functionResponse' in part ? [JSON.stringify(part.functionResponse.response)] : [],
    );
    if (!results.some((result) => result.includes(condition.toolResultContains as string))) return false;
  }
  if (condition.state !== undefined) {
    for (const [key, expected] of Object.entries(condition.state)) {
      const actual = call.readState?.(key);
      if (JSON.stringify(actual ?? null) !== JSON.stringify(expected ?? null)) return false;
    }
  }
  return true;
}

/**
 * Everything the model reads in a request, as one text: the system text, then each message's parts — texts (thoughts
 * included), tool calls and tool results as JSON — a line each. Tool declarations are not in it (`hasTool` is).
 */
export function requestText(request: LlmRequest): string {
  const lines = [request.system];
  for (const message of request.messages)
    for (const part of message.content) {
      if ('text' in part) lines.push(part.text);
      else if ('functionCall' in part) lines.push(JSON.stringify(part.functionCall));
      else if ('functionResponse' in part) lines.push(JSON.stringify(part.functionResponse));
    }
  return lines.join('\n');
}

/**
 * The text of the user's own latest message: function responses are skipped, and so are other agents' turns, which
 * reach an agent as user messages that start `For context:` (ADK's retelling).
 */
export function lastUserText(request: LlmRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role !== 'user') continue;
    const first = message.content[0];
    if (first !== undefined && 'text' in first && first.text === 'For context:') continue;
    const texts = message.content.flatMap((part) => ('text' in part && part.thought !== true ? [part.text] : []));
    if (texts.length > 0) return texts.join('\n');
  }
  return '';
}
