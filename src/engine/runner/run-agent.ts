import type { AgentNode, CustomAgentDefinition, WorkflowAgentDefinition } from '../../contracts/agent.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import { isLlmAgent, isLlmNode } from '../agent/agent-tree.js';
import { stateActions } from '../state/state-changes.js';
import { createCallbackContext } from './contexts.js';
import { firstResult } from './first-result.js';
import { firstHook, hookSources } from './hooks.js';
import type { AgentRun } from './invocation.js';
import { mergeStreams } from './merge-streams.js';
import { openSpan } from '../telemetry/spans.js';
import { runCustomAgent } from './run-custom-agent.js';
import { runLlmAgent } from './run-llm-agent.js';

/**
 * Runs any agent of the tree: the `beforeAgent` hooks and callbacks, then its own logic (the model loop, or its
 * workflow), then the agent it transferred to, if any, then the `afterAgent` hooks and callbacks.
 */
export async function* runAgent(given: AgentRun): AsyncGenerator<Event> {
  if (given.invocation.ended) return;
  const definition = given.node.definition;
  const { invocation, node } = given;
  const span = openSpan(
    invocation.settings.telemetry,
    `invoke_agent ${node.name}`,
    given.span ?? invocation.span,
    () => ({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': node.name,
      ...(definition.description === undefined || definition.description === ''
        ? {}
        : { 'gen_ai.agent.description': definition.description }),
      'gen_ai.conversation.id': invocation.session.id,
      'agentctx.invocation.id': invocation.id,
      'agentctx.agent.kind': definition.kind,
      ...(given.branch === undefined ? {} : { 'agentctx.branch': given.branch }),
    }),
  );
  const run: AgentRun = { invocation, node, branch: given.branch, span };
  try {
    const skip = yield* agentHook(run, 'beforeAgent');
    if (skip) return;
    const outcome = yield* runOwnLogic(run);
    // The agent it hands over to runs beside it, under the same parent.
    if (outcome.transferTo !== undefined)
      yield* runAgent({ invocation, node: outcome.transferTo, branch: run.branch, span: given.span });
    if (!invocation.ended) yield* agentHook(run, 'afterAgent');
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}

// Hooks first, then the agent's callbacks; an answer (or state changes alone) becomes an event of the agent; true when it answered.
async function* agentHook(run: AgentRun, kind: 'beforeAgent' | 'afterAgent'): AsyncGenerator<Event, boolean> {
  const definition = run.node.definition;
  const callbacks = isLlmAgent(definition) ? definition.callbacks?.[kind] : undefined;
  const sources = hookSources(run);
  if (callbacks === undefined && !sources.some((extension) => extension.hooks?.[kind] !== undefined)) return false;
  const { context, delta, ops, artifactDelta } = createCallbackContext(run);
  const content =
    (await firstHook(sources, kind, { agent: run.node, context })) ?? (await firstResult(callbacks, { context }));
  if (
    content === undefined &&
    Object.keys(delta).length === 0 &&
    ops.length === 0 &&
    Object.keys(artifactDelta).length === 0
  )
    return false;
  const event = run.invocation.event({
    author: run.node.name,
    ...(run.branch === undefined ? {} : { branch: run.branch }),
    ...(content === undefined ? {} : { content }),
    actions: { ...stateActions({ delta, ops }), artifactDelta },
  });
  yield await run.invocation.persist(event);
  return content !== undefined;
}

/** What an agent's own logic ends with: the agent it hands the conversation to, if any. */
type Outcome = { transferTo?: AgentNode };

// The node's kind is narrowed here, once: each kind's runner takes a node of its kind.
function runOwnLogic(run: AgentRun): AsyncGenerator<Event, Outcome> {
  const { node } = run;
  if (isLlmNode(node)) return runLlmAgent({ ...run, node });
  if (isCustomNode(node)) return runCustomAgent({ ...run, node });
  if (isWorkflowNode(node)) return runWorkflow({ ...run, node });
  throw new ValidationError({
    subject: `agent '${node.name}'`,
    issues: [{ path: 'kind', message: `unknown kind ${JSON.stringify((node.definition as { kind?: unknown }).kind)}` }],
    hint: 'Define agents with llmAgent, sequentialAgent, parallelAgent, loopAgent or customAgent.',
  });
}

function isCustomNode(node: AgentNode): node is AgentNode<CustomAgentDefinition> {
  return node.definition.kind === 'custom';
}

function isWorkflowNode(node: AgentNode): node is AgentNode<WorkflowAgentDefinition> {
  const kind = node.definition.kind;
  return kind === 'sequential' || kind === 'parallel' || kind === 'loop';
}

async function* runWorkflow(
  run: AgentRun & { node: AgentNode<WorkflowAgentDefinition> },
): AsyncGenerator<Event, Outcome> {
  const { invocation, node } = run;
  const definition = node.definition;
  const child = (index: number, branch = run.branch): AgentRun => ({
    invocation,
    node: node.children[index] as AgentNode,
    branch,
    span: run.span,
  });
  if (definition.kind === 'sequential') {
    for (let index = 0; index < node.children.length && !invocation.ended; index++) yield* runAgent(child(index));
    return {};
  }
  if (definition.kind === 'parallel') {
    // Each child gets its own branch, so it sees its own turns and its ancestors', never its siblings'.
    const prefix = run.branch === undefined ? '' : `${run.branch}.`;
    yield* mergeStreams(
      node.children.map((childNode, index) => runAgent(child(index, `${prefix}${node.name}.${childNode.name}`))),
    );
    return {};
  }
  for (let iteration = 0; definition.maxIterations === undefined || iteration < definition.maxIterations; iteration++) {
    let produced = false;
    for (let index = 0; index < node.children.length; index++) {
      for await (const event of runAgent(child(index))) {
        produced = true;
        yield event;
        if (event.actions.escalate === true) return {};
      }
      if (invocation.ended) return {};
    }
    // A round that did nothing would repeat forever.
    if (!produced) return {};
  }
  return {};
}
