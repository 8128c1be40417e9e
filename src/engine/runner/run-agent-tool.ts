import type { AgentDefinition } from '../../contracts/agent.js';
import type { SessionState, ToolContext } from '../../contracts/contexts.js';
import type { ModelCallParent } from '../../contracts/model-call.js';
import type { StateOp } from '../../contracts/state-op.js';
import type { Tool } from '../../contracts/tool.js';
import { createAgentTree } from '../agent/agent-tree.js';
import { outputSchemaOf, parseAnswerText } from '../agent/output-schema.js';
import { createInMemorySessionStore } from '../session/in-memory-session-store.js';
import { mergeStateChanges, type StateChanges } from '../state/state-changes.js';
import { isTempKey } from '../state/state-keys.js';
import { copyValue } from '../util/copy-value.js';
import { openSpan } from '../telemetry/spans.js';
import { Invocation, type AgentRun } from './invocation.js';
import { inputSchemaOf } from '../tools/agent-tool.js';

/**
 * Runs an agent tool: the agent answers the request in a session of its own, seeded with a copy of the caller's
 * state (not its `temp:` keys); state it changes comes back to the caller's state; its final text is the result.
 * Its model calls are recorded with the caller's, linked to `origin`, the tool call that started it.
 */
export async function runAgentTool(
  run: AgentRun,
  target: NonNullable<Tool['agent']>,
  args: Record<string, unknown>,
  context: ToolContext,
  origin: ModelCallParent,
): Promise<Record<string, unknown>> {
  const parent = run.invocation;
  const agent = asAgentDefinition(target);
  const tree = createAgentTree(agent);
  const sessions = createInMemorySessionStore({ now: parent.settings.now, newId: parent.settings.newId });
  const seed = Object.fromEntries(Object.entries(context.state.toRecord({ includeTemp: false })));
  const session = await sessions.createSession({
    appName: parent.session.appName,
    userId: parent.session.userId,
    state: seed,
  });
  const before = copyValue(session.state);
  // With an input schema, the checked arguments as compact JSON (ADK's `model_dump_json(exclude_none=True)`).
  const request =
    inputSchemaOf(agent) === undefined && typeof args['request'] === 'string' ? args['request'] : JSON.stringify(args);
  const settings = { ...parent.settings, tree, sessions };
  // Its model calls are recorded in the caller's session, under the tool call they were made for.
  const calls = { ...parent.calls, parent: origin };
  const id = `e-${settings.newId()}`;
  // Its spans go under the tool call's (run.span), as an invocation of its own.
  const span = openSpan(settings.telemetry, 'invocation', run.span ?? parent.span, () => ({
    'gen_ai.conversation.id': session.id,
    'agentctx.app': session.appName,
    'agentctx.invocation.id': id,
    'agentctx.agent_tool': agent.name,
  }));
  const invocation = new Invocation({
    settings,
    session,
    id,
    userContent: { role: 'user', parts: [{ text: request }] },
    signal: context.signal,
    calls,
    span,
  });
  let answer: string | undefined;
  let failure: string | undefined;
  try {
    await invocation.persist(
      invocation.event({ author: 'user', content: { role: 'user', parts: [{ text: request }] } }),
    );
    for await (const event of settings.runAgent({ invocation, node: tree.root, branch: undefined })) {
      if (event.errorMessage !== undefined) failure = event.errorMessage;
      const texts = (event.content?.parts ?? []).flatMap((part) =>
        'text' in part && part.thought !== true ? [part.text] : [],
      );
      if (event.author !== 'user' && texts.length > 0) answer = texts.join('');
    }
  } finally {
    span.end();
  }
  parent.llmCalls += invocation.llmCalls;
  // Keys the agent only changed by operations come back as those operations, so they stay free of conflicts.
  const changes: StateChanges = { delta: {}, ops: [] };
  for (const event of session.events)
    mergeStateChanges(changes, {
      delta: event.actions.stateDelta,
      ops: (event.actions.stateOps ?? []).filter((op) => !isTempKey(op.key)),
    });
  const operated = new Set(changes.ops.map((op) => op.key));
  for (const [key, value] of Object.entries(session.state)) {
    if (isTempKey(key) || operated.has(key) || JSON.stringify(before[key]) === JSON.stringify(value)) continue;
    context.state.set(key, value);
  }
  for (const op of changes.ops) replayStateOp(context.state, op);
  if (failure !== undefined && answer === undefined) return { error: `Agent '${agent.name}' failed: ${failure}` };
  return await structuredResult(agent, answer ?? '');
}

// ADK's AgentTool: an agent with an output schema answers with the parsed value (an object as the response itself).
async function structuredResult(agent: AgentDefinition, answer: string): Promise<Record<string, unknown>> {
  const schema = outputSchemaOf(agent);
  if (schema === undefined) return { result: answer };
  const parsed = parseAnswerText(answer);
  const checked = parsed.ok ? await schema.check(parsed.value) : undefined;
  if (checked?.ok !== true) return { result: answer };
  const value = checked.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { result: value };
}

// An agent tool carries its agent typed loosely (tools do not know agents); it must be a whole definition.
function asAgentDefinition(target: NonNullable<Tool['agent']>): AgentDefinition {
  const candidate = target as Partial<AgentDefinition>;
  if (
    ['llm', 'sequential', 'parallel', 'loop', 'custom'].includes(String(candidate.kind)) &&
    Array.isArray(candidate.subAgents)
  )
    return target as AgentDefinition;
  throw new TypeError(
    `the tool's agent '${target.name}' is not an agent definition (make agent tools with agentTool(llmAgent({ … })))`,
  );
}

function replayStateOp(state: SessionState, op: StateOp): void {
  if (op.op === 'add') state.add(op.key, op.by);
  else if (op.op === 'append') state.append(op.key, ...op.items);
  else if (op.op === 'setField') state.setField(op.key, op.field, op.value);
  else state.addToSet(op.key, ...op.items);
}
