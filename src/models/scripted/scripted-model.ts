import type { Part } from '../../contracts/content.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { cloneRequest } from '../../engine/assembly/request-json.js';
import { conditionHolds, type Script, type ScriptCall, type ScriptedResponse } from './script.js';

/** A scripted model, with what it was asked. */
export type ScriptedModel = Model & {
  /** Every request received, copied, in order (unless created with `record: false`, as benchmarks do). */
  readonly requests: LlmRequest[];
  /** The agent behind each request. */
  readonly agents: (string | undefined)[];
};

/**
 * A deterministic model that answers from a script: the offline model for examples, demos and tests.
 * A list answers call by call; rules answer by looking at the request. Streaming splits text into word chunks.
 */
export function createScriptedModel(
  script: Script | ScriptedResponse[],
  options: { modelId?: string; record?: boolean } = {},
): ScriptedModel {
  const plan: Script = Array.isArray(script) ? { responses: script } : script;
  const used = new Map<number, number>();
  let nextResponse = 0;
  let calls = 0;
  const agentCalls = new Map<string | undefined, number>();
  const loop = { key: '', repeats: 0 };
  const requests: LlmRequest[] = [];
  const agents: (string | undefined)[] = [];

  const answer = (request: LlmRequest, callOptions: ModelCallOptions | undefined): ModelResponse => {
    callOptions?.signal?.throwIfAborted();
    calls += 1;
    if (options.record !== false) {
      requests.push(cloneRequest(request));
      agents.push(callOptions?.agentName);
    }
    const agentName = callOptions?.agentName;
    agentCalls.set(agentName, (agentCalls.get(agentName) ?? 0) + 1);
    const call: ScriptCall = {
      index: calls,
      agentIndex: agentCalls.get(agentName) ?? 1,
      agentName,
      readState: callOptions?.readState,
    };
    const rules = plan.rules ?? [];
    for (const [position, rule] of rules.entries()) {
      if ((used.get(position) ?? 0) >= (rule.times ?? Infinity)) continue;
      const holds =
        rule.when === undefined ||
        (typeof rule.when === 'function' ? rule.when(request, call) : conditionHolds(rule.when, request, call));
      if (!holds) continue;
      used.set(position, (used.get(position) ?? 0) + 1);
      const response = typeof rule.respond === 'function' ? rule.respond(request, call) : rule.respond;
      checkLoop(loop, position, request, call, response);
      return toModelResponse(response);
    }
    const next = plan.responses?.[nextResponse];
    if (next !== undefined) {
      nextResponse += 1;
      return toModelResponse(next);
    }
    if (plan.fallback !== undefined) return toModelResponse(plan.fallback);
    throw new AgentctxError({
      code: 'invalid_input',
      message: `The script has no answer for call ${call.index}${call.agentName === undefined ? '' : ` (agent '${call.agentName}')`}: its ${plan.responses?.length ?? 0} responses are used up and no rule matched.`,
      hint: 'Add a response, a rule or a fallback to the script.',
    });
  };

  return {
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId: options.modelId ?? 'scripted',
    requests,
    agents,
    async generate(request: LlmRequest, callOptions?: ModelCallOptions): Promise<ModelResponse> {
      return answer(request, callOptions);
    },
    async *stream(request: LlmRequest, callOptions?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const response = answer(request, callOptions);
      for (const part of response.content?.parts ?? []) {
        if (!('text' in part) || part.thought === true) continue;
        for (const word of part.text.match(/\S+\s*/g) ?? [])
          yield { content: { role: 'model', parts: [{ text: word }] }, partial: true };
      }
      yield { ...response, partial: false };
    },
  };
}

/** How many times in a row one rule may ask one agent for the same tool call, each after its result, before it is a loop. */
export const SCRIPT_LOOP_LIMIT = 20;

/**
 * Refuses a rule that would loop: it answers the same agent with the same function calls again and again, each time
 * right after their results (a text answer ends the turn, and a new user message starts afresh). Without this, such a
 * script runs until the runner's call limit, hundreds of calls later.
 */
function checkLoop(
  loop: { key: string; repeats: number },
  position: number,
  request: LlmRequest,
  call: ScriptCall,
  response: ScriptedResponse,
): void {
  const calls = [
    ...(response.functionCall === undefined ? [] : [response.functionCall]),
    ...(response.functionCalls ?? []),
  ];
  const afterResults = (request.messages.at(-1)?.content ?? []).some((part) => 'functionResponse' in part);
  if (calls.length === 0 || !afterResults) {
    loop.key = '';
    loop.repeats = 0;
    return;
  }
  const key = JSON.stringify([position, call.agentName, calls.map((each) => [each.name, each.args ?? {}])]);
  loop.repeats = key === loop.key ? loop.repeats + 1 : 1;
  loop.key = key;
  if (loop.repeats < SCRIPT_LOOP_LIMIT) return;
  const asked = calls.map((each) => `${each.name}(${JSON.stringify(each.args ?? {})})`).join(', ');
  throw new AgentctxError({
    code: 'invalid_input',
    message: `The script loops: rule ${position + 1} answered${call.agentName === undefined ? '' : ` agent '${call.agentName}'`} with ${asked} ${loop.repeats} times in a row, each right after its result.`,
    hint: 'Give the rule a condition that stops holding once the tool has answered (afterToolResponse on another rule before it, agentCall, or times).',
  });
}

/** A scripted answer as a model response. */
export function toModelResponse(response: ScriptedResponse): ModelResponse {
  if (response.error !== undefined)
    return {
      errorCode: response.error.code,
      errorMessage: response.error.message,
      ...(response.usage === undefined ? {} : { usage: response.usage }),
    };
  const parts: Part[] = response.content?.parts.slice() ?? [];
  if (response.thought !== undefined) parts.push({ text: response.thought, thought: true });
  if (response.text !== undefined) parts.push({ text: response.text });
  for (const call of [
    ...(response.functionCall === undefined ? [] : [response.functionCall]),
    ...(response.functionCalls ?? []),
  ]) {
    parts.push({
      functionCall: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, args: call.args ?? {} },
    });
  }
  return {
    content: { role: 'model', parts },
    ...(response.usage === undefined ? {} : { usage: response.usage }),
    ...(response.finishReason === undefined ? {} : { finishReason: response.finishReason }),
  };
}
