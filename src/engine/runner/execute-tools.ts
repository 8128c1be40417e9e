import type { LlmAgentDefinition } from '../../contracts/agent.js';
import type { FunctionCall, Part } from '../../contracts/content.js';
import type { ToolActions, ToolConfirmation, ToolContext } from '../../contracts/contexts.js';
import type { DraftTool } from '../../contracts/draft.js';
import type { Event } from '../../contracts/event.js';
import type { AssembledRequest } from '../../contracts/provenance.js';
import type { StateOp } from '../../contracts/state-op.js';
import type { Tool } from '../../contracts/tool.js';
import { mergeStateChanges, stateActions, type StateChanges } from '../state/state-changes.js';
import { findNonJson } from '../util/json-value.js';
import { createToolContext } from './contexts.js';
import { Deadline } from './deadline.js';
import { firstResult } from './first-result.js';
import { firstHook, hookSources } from './hooks.js';
import { noteSaved, type SavedVersion } from './saved-artifacts.js';
import type { AgentRun, LlmAgentRun } from './invocation.js';
import { runAgentTool } from './run-agent-tool.js';
import { addAttributes, openSpan } from '../telemetry/spans.js';

type CallResult = {
  /** Absent for a long-running tool that returned nothing: its answer comes later from the client. */
  part: Part | undefined;
  delta: Record<string, unknown>;
  ops: StateOp[];
  artifactDelta: Record<string, number>;
  saved: SavedVersion[];
  actions: ToolActions;
};

/**
 * The response event to one model turn's calls (none when every call went to a long-running tool that returned
 * nothing), the error to end the invocation with when a tool asked for that, and the structured answer when
 * `set_model_response` gave one.
 */
export type AnsweredCalls = {
  event: Event | undefined;
  endInvocation?: { code: string; message: string };
  setModelResponse?: { value: unknown };
};

/**
 * Runs the function calls of one model response at the same time and answers them in one event, responses in call
 * order with their ids. A call is answered by the tool the request offered under its name (else the agent's own, an
 * extension's, or a handler the request keeps for names it does not offer). A failing tool, unknown tool or bad arguments become an `{ error }` response the
 * model can act on; the invocation goes on. `callIndex` is the recorded call that asked, which calls made by agent
 * tools are linked to; `confirmations` are a person's answers to calls that asked for them, by call id.
 */
export async function executeFunctionCalls(
  run: LlmAgentRun,
  calls: readonly FunctionCall[],
  assembled: Pick<AssembledRequest, 'tools' | 'handlers'>,
  callIndex?: number,
  confirmations?: ReadonlyMap<string, ToolConfirmation>,
): Promise<AnsweredCalls> {
  const agent = run.node.definition;
  const tools = callableTools(run, agent, assembled.tools);
  const handlers = new Map(assembled.handlers.map((tool) => [tool.name, tool]));
  const results = await Promise.all(
    calls.map((call) =>
      executeCall(run, agent, call, { tools, handlers, callIndex, confirmation: confirmations?.get(call.id ?? '') }),
    ),
  );
  const requested: Record<string, ToolConfirmation> = {};
  const state: StateChanges = { delta: {}, ops: [] };
  const artifactDelta: Record<string, number> = {};
  const actions: Omit<ToolActions, 'endInvocation'> = {};
  let endInvocation: AnsweredCalls['endInvocation'];
  let setModelResponse: AnsweredCalls['setModelResponse'];
  for (const result of results) {
    // In call order, as the deltas were merged before: a later call's set of a key wins.
    mergeStateChanges(state, result);
    Object.assign(artifactDelta, result.artifactDelta);
    if (result.actions.transferToAgent !== undefined) actions.transferToAgent = result.actions.transferToAgent;
    if (result.actions.escalate === true) actions.escalate = true;
    if (result.actions.skipSummarization === true) actions.skipSummarization = true;
    endInvocation ??= result.actions.endInvocation;
    if ('setModelResponse' in result.actions) setModelResponse ??= { value: result.actions.setModelResponse };
    const id =
      result.part !== undefined && 'functionResponse' in result.part ? result.part.functionResponse.id : undefined;
    if (result.actions.requestedConfirmation !== undefined && id !== undefined)
      requested[id] = result.actions.requestedConfirmation;
  }
  const parts = results.flatMap((result) => (result.part === undefined ? [] : [result.part]));
  const event =
    parts.length === 0
      ? undefined
      : run.invocation.event({
          author: agent.name,
          ...(run.branch === undefined ? {} : { branch: run.branch }),
          content: { role: 'user', parts },
          actions: {
            ...stateActions(state),
            artifactDelta,
            ...actions,
            ...(Object.keys(requested).length === 0 ? {} : { requestedToolConfirmations: requested }),
          },
        });
  if (event !== undefined)
    noteSaved(
      event,
      results.flatMap((result) => result.saved),
    );
  return {
    event,
    ...(endInvocation === undefined ? {} : { endInvocation }),
    ...(setModelResponse === undefined ? {} : { setModelResponse }),
  };
}

/** The ids of the calls that go to long-running tools (ADK's `long_running_tool_ids` of the model's event). */
export function longRunningCallIds(
  run: LlmAgentRun,
  calls: readonly FunctionCall[],
  offered: readonly DraftTool[],
): string[] {
  const tools = callableTools(run, run.node.definition, offered);
  return calls.flatMap((call) =>
    call.id !== undefined && tools.get(call.name)?.longRunning === true ? [call.id] : [],
  );
}

// The tools a call may reach, by name: those the request offered first, then the agent's own and its extensions'
// (not deferred ones: a deferred tool the request left out is not loaded, and the request's handler says so).
function callableTools(run: AgentRun, agent: LlmAgentDefinition, offered: readonly DraftTool[]): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const entry of offered)
    if (entry.tool !== undefined && !tools.has(entry.declaration.name)) tools.set(entry.declaration.name, entry.tool);
  for (const tool of agent.tools) if (!tools.has(tool.name) && tool.deferred !== true) tools.set(tool.name, tool);
  for (const extension of hookSources(run))
    for (const tool of extension.tools ?? [])
      if (!tools.has(tool.name) && tool.deferred !== true) tools.set(tool.name, tool);
  return tools;
}

/** Where a call finds its tool, the recorded call it came from, and a person's answer when it asked for one. */
type CallScope = {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly handlers: ReadonlyMap<string, Tool>;
  readonly callIndex: number | undefined;
  readonly confirmation: ToolConfirmation | undefined;
};

async function executeCall(
  given: AgentRun,
  agent: LlmAgentDefinition,
  call: FunctionCall,
  scope: CallScope,
): Promise<CallResult> {
  const { tools, handlers } = scope;
  const { invocation } = given;
  const deadline = new Deadline(invocation.signal, invocation.settings.toolTimeoutMs);
  const tool = tools.get(call.name) ?? handlers.get(call.name);
  const span = openSpan(
    invocation.settings.telemetry,
    `execute_tool ${call.name}`,
    given.span ?? invocation.span,
    () => ({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.name,
      ...(tool === undefined || tool.description === '' ? {} : { 'gen_ai.tool.description': tool.description }),
      'gen_ai.tool.type': tool?.agent === undefined ? 'function' : 'agent',
      ...(call.id === undefined ? {} : { 'gen_ai.tool.call.id': call.id }),
      'gen_ai.tool.call.arguments': JSON.stringify(call.args ?? {}),
      'gen_ai.conversation.id': invocation.session.id,
      'agentctx.invocation.id': invocation.id,
    }),
  );
  // An agent this tool runs gets its spans under the tool call's.
  const run: AgentRun = { ...given, span };
  try {
    const result = await executeWithin(run, agent, call, scope, deadline);
    const response =
      result.part !== undefined && 'functionResponse' in result.part
        ? result.part.functionResponse.response
        : undefined;
    addAttributes(span, () => ({
      'gen_ai.tool.call.result': JSON.stringify(response ?? {}),
      ...(response?.['error'] === undefined ? {} : { 'error.type': 'tool_error' }),
    }));
    return result;
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
    deadline.dispose();
  }
}

async function executeWithin(
  run: AgentRun,
  agent: LlmAgentDefinition,
  call: FunctionCall,
  scope: CallScope,
  deadline: Deadline,
): Promise<CallResult> {
  const { tools, handlers, callIndex } = scope;
  // An agent run from inside this tool call records its model calls under it, as an agent tool's do.
  const origin = (tool: string) => ({
    ...(callIndex === undefined ? {} : { callIndex }),
    functionCallId: call.id ?? '',
    tool,
  });
  const runAgent: ToolContext['runAgent'] = (target, request) =>
    runAgentTool(run, target, { request }, context, origin(call.name));
  const { context, delta, ops, artifactDelta, saved, actions } = createToolContext(
    run,
    call.id,
    deadline.signal,
    runAgent,
    scope.confirmation,
  );
  const args = call.args ?? {};
  const respond = (response: Record<string, unknown> | undefined): CallResult => ({
    part:
      response === undefined
        ? undefined
        : { functionResponse: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, response } },
    delta,
    ops,
    artifactDelta,
    saved,
    actions,
  });
  const tool = tools.get(call.name) ?? handlers.get(call.name);
  if (tool === undefined) {
    const names = [...tools.keys()];
    return respond({
      error: `Tool '${call.name}' is not available. ${names.length === 0 ? 'This agent has no tools.' : `Available tools: ${names.join(', ')}.`}`,
    });
  }
  let checked = args;
  const sources = hookSources(run);
  try {
    if (tool.checkArgs !== undefined) {
      const check = await tool.checkArgs(args);
      if (!check.ok)
        return respond({
          error: `Invalid arguments for tool '${tool.name}': ${check.issues.join('; ')}. Call it again with arguments that match its parameters.`,
        });
      checked = check.value;
    }
    const confirming = await confirmationAnswer(tool, checked, context);
    if (confirming !== undefined) return respond(confirming);
    const callbacks = agent.callbacks;
    const result: Record<string, unknown> | undefined =
      (await firstHook(sources, 'beforeTool', { tool, args: checked, context })) ??
      (await firstResult(callbacks?.beforeTool, { tool, args: checked, context })) ??
      (await deadline.race(
        tool.agent === undefined
          ? Promise.resolve(runTool(tool, checked, context)).then((value) =>
              // A long-running tool that returns nothing leaves its call waiting for the client's answer.
              tool.longRunning === true && value == null ? undefined : toResponse(value),
            )
          : runAgentTool(run, tool.agent, checked, context, origin(tool.name)),
      ));
    if (result === undefined) return respond(undefined);
    if (tool.skipSummarization === true) actions.skipSummarization = true;
    const response =
      (await firstHook(sources, 'afterTool', { tool, args: checked, context, result })) ??
      (await firstResult(callbacks?.afterTool, { tool, args: checked, context, result })) ??
      result;
    const problem = findNonJson(response, 'response');
    if (problem !== undefined) {
      return respond({
        error: `Tool '${tool.name}' returned a value that cannot be stored as JSON (${problem.path}: found ${problem.found}); it must return plain JSON data.`,
      });
    }
    return respond(response);
  } catch (error) {
    if (deadline.expired)
      return respond({
        error: `Tool '${tool.name}' did not answer within ${deadline.ms} ms and was stopped. Try again with a smaller task, or without this tool.`,
      });
    const standIn = await firstHook(sources, 'onToolError', { tool, args: checked, context, error }).catch(
      () => undefined,
    );
    if (standIn !== undefined) return respond(standIn);
    return respond({ error: `Tool '${tool.name}' failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** ADK's hint and answers for a tool that requires confirmation (tools/function_tool.py at 2.5.0). */
const confirmationHint = (name: string) =>
  `Please approve or reject the tool call ${name}() by responding with a FunctionResponse with an expected ToolConfirmation payload.`;
const UNCONFIRMED = { error: 'This tool call requires confirmation, please approve or reject.' };
const REJECTED = { error: 'This tool call is rejected.' };

// A tool that requires confirmation for these arguments: without the person's answer it asks for one and the run
// pauses after this response (ADK skips the summary); a rejection answers with ADK's error; a confirmation runs it.
async function confirmationAnswer(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<Record<string, unknown> | undefined> {
  const rule = tool.requireConfirmation;
  if (rule === undefined || rule === false) return undefined;
  if (rule !== true && !(await rule(args, context))) return undefined;
  if (context.toolConfirmation === undefined) {
    context.requestConfirmation({ hint: confirmationHint(tool.name) });
    context.actions.skipSummarization = true;
    return UNCONFIRMED;
  }
  return context.toolConfirmation.confirmed ? undefined : REJECTED;
}

function runTool(tool: Tool, args: Record<string, unknown>, context: ToolContext): unknown {
  if (tool.execute === undefined) throw new Error('it has a declaration but no implementation (declared in a file?)');
  return tool.execute(args, context);
}

/** ADK's rule: a plain object is the response as it is; anything else is wrapped as `{ result }`. */
function toResponse(value: unknown): Record<string, unknown> {
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return value as Record<string, unknown>;
  }
  return { result: value === undefined ? null : value };
}
