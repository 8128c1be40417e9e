import type { Content } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { LlmRequest } from '../../contracts/request.js';

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
  agentName: string | undefined;
};

/** Conditions a file can state; all given ones must hold. */
export type RuleCondition = {
  /** The agent making the call. */
  agent?: string;
  /** The model's call number (1-based). */
  call?: number;
  /** The latest user text contains this. */
  lastUserText?: string;
  /** The latest user text matches this regular expression. */
  lastUserMatches?: string;
  systemContains?: string;
  /** The request ends with a response of this tool. */
  afterToolResponse?: string;
  /** The request declares this tool. */
  hasTool?: string;
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
  const userText = lastUserText(request);
  if (condition.lastUserText !== undefined && !userText.includes(condition.lastUserText)) return false;
  if (condition.lastUserMatches !== undefined && !new RegExp(condition.lastUserMatches, 'u').test(userText)) return false;
  if (condition.systemContains !== undefined && !request.system.includes(condition.systemContains)) return false;
  if (condition.hasTool !== undefined && !request.tools.some((tool) => tool.name === condition.hasTool)) return false;
  if (condition.afterToolResponse !== undefined) {
    const lastPart = request.messages.at(-1)?.content.at(-1);
    if (lastPart === undefined || !('functionResponse' in lastPart) || lastPart.functionResponse.name !== condition.afterToolResponse) return false;
  }
  return true;
}

/** The text of the latest user message that has text (function responses are skipped). */
export function lastUserText(request: LlmRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role !== 'user') continue;
    const texts = message.content.flatMap((part) => ('text' in part && part.thought !== true ? [part.text] : []));
    if (texts.length > 0) return texts.join('\n');
  }
  return '';
}
