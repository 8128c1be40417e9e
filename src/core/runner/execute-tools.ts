import { firstResult } from '../agent/callbacks.js';
import type { ToolActions } from '../agent/contexts.js';
import type { LlmAgentDefinition } from '../agent/agent.js';
import { transferTargets } from '../processors/agent-transfer.js';
import type { FunctionCall, Part } from '../session/content.js';
import type { Event } from '../session/event.js';
import type { Tool } from '../tools/tool.js';
import { findNonJson } from '../util/json-value.js';
import { TRANSFER_TO_AGENT } from '../tools/transfer-to-agent.js';
import { createToolContext } from './contexts.js';
import { Deadline } from './deadline.js';
import type { AgentRun } from './invocation.js';
import { runAgentTool } from './run-agent-tool.js';
import type { RunAgent } from './run-llm-agent.js';

type CallResult = { part: Part; delta: Record<string, unknown>; artifactDelta: Record<string, number>; actions: ToolActions };

/**
 * Runs the function calls of one model response at the same time and answers them in one event, responses in call
 * order with their ids. A failing tool, unknown tool or bad arguments become an `{ error }` response the model can
 * act on; the invocation goes on.
 */
export async function executeFunctionCalls(run: AgentRun, calls: readonly FunctionCall[], runAgent: RunAgent): Promise<Event> {
  const agent = run.node.definition as LlmAgentDefinition;
  const results = await Promise.all(calls.map((call) => executeCall(run, agent, call, runAgent)));
  const stateDelta: Record<string, unknown> = {};
  const artifactDelta: Record<string, number> = {};
  const actions: ToolActions = {};
  for (const result of results) {
    Object.assign(stateDelta, result.delta);
    Object.assign(artifactDelta, result.artifactDelta);
    if (result.actions.transferToAgent !== undefined) actions.transferToAgent = result.actions.transferToAgent;
    if (result.actions.escalate === true) actions.escalate = true;
    if (result.actions.skipSummarization === true) actions.skipSummarization = true;
  }
  return run.invocation.event({
    author: agent.name,
    ...(run.branch === undefined ? {} : { branch: run.branch }),
    content: { role: 'user', parts: results.map((result) => result.part) },
    actions: { stateDelta, artifactDelta, ...actions },
  });
}

async function executeCall(run: AgentRun, agent: LlmAgentDefinition, call: FunctionCall, runAgent: RunAgent): Promise<CallResult> {
  const deadline = new Deadline(run.invocation.signal, run.invocation.settings.toolTimeoutMs);
  try {
    return await executeWithin(run, agent, call, runAgent, deadline);
  } finally {
    deadline.dispose();
  }
}

async function executeWithin(run: AgentRun, agent: LlmAgentDefinition, call: FunctionCall, runAgent: RunAgent, deadline: Deadline): Promise<CallResult> {
  const { context, delta, artifactDelta, actions } = createToolContext(run, call.id, deadline.signal);
  const args = call.args ?? {};
  const respond = (response: Record<string, unknown>): CallResult => ({
    part: { functionResponse: { ...(call.id === undefined ? {} : { id: call.id }), name: call.name, response } },
    delta,
    artifactDelta,
    actions,
  });
  if (call.name === TRANSFER_TO_AGENT) return respond(transfer(run, args, actions));
  const tool = agent.tools.find((candidate) => candidate.name === call.name);
  if (tool === undefined) {
    const names = agent.tools.map((candidate) => candidate.name);
    return respond({ error: `Tool '${call.name}' is not available. ${names.length === 0 ? 'This agent has no tools.' : `Available tools: ${names.join(', ')}.`}` });
  }
  try {
    let checked = args;
    if (tool.checkArgs !== undefined) {
      const check = await tool.checkArgs(args);
      if (!check.ok) return respond({ error: `Invalid arguments for tool '${tool.name}': ${check.issues.join('; ')}. Call it again with arguments that match its parameters.` });
      checked = check.value;
    }
    const callbacks = agent.callbacks;
    const result: Record<string, unknown> =
      (await firstResult(callbacks?.beforeTool, { tool, args: checked, context })) ??
      (await deadline.race(tool.agent === undefined ? Promise.resolve(runTool(tool, checked, context)).then(toResponse) : runAgentTool(run, tool.agent, checked, context, runAgent)));
    const response = (await firstResult(callbacks?.afterTool, { tool, args: checked, context, result })) ?? result;
    const problem = findNonJson(response, 'response');
    if (problem !== undefined) {
      return respond({ error: `Tool '${tool.name}' returned a value that cannot be stored as JSON (${problem.path}: found ${problem.found}); it must return plain JSON data.` });
    }
    return respond(response);
  } catch (error) {
    if (deadline.expired) return respond({ error: `Tool '${tool.name}' did not answer within ${deadline.ms} ms and was stopped. Try again with a smaller task, or without this tool.` });
    return respond({ error: `Tool '${tool.name}' failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

function runTool(tool: Tool, args: Record<string, unknown>, context: Parameters<NonNullable<Tool['execute']>>[1]): unknown {
  if (tool.execute === undefined) throw new Error('it has a declaration but no implementation (declared in a file?)');
  return tool.execute(args, context);
}

/** ADK's rule: a plain object is the response as it is; anything else is wrapped as `{ result }`. */
function toResponse(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype) {
    return value as Record<string, unknown>;
  }
  return { result: value === undefined ? null : value };
}

// The built-in transfer: only agents the transfer text offered are accepted; anything else is an error for the model.
function transfer(run: AgentRun, args: Record<string, unknown>, actions: ToolActions): Record<string, unknown> {
  const targets = transferTargets(run.node).map((node) => node.name);
  const name = args['agent_name'];
  if (typeof name === 'string' && targets.includes(name)) {
    actions.transferToAgent = name;
    return { result: null };
  }
  run.invocation.invalidTransfers += 1;
  const offered = targets.length === 0 ? 'This agent cannot transfer to any agent.' : `You can transfer to: ${targets.join(', ')}.`;
  return { error: `Cannot transfer to ${JSON.stringify(name ?? null)}: no such agent is reachable from ${run.node.name}. ${offered}` };
}
