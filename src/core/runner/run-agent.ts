import { firstResult, type AfterAgentCallback, type BeforeAgentCallback } from '../agent/callbacks.js';
import { isLlmAgent, type WorkflowAgentDefinition } from '../agent/agent.js';
import type { Event } from '../session/event.js';
import { createCallbackContext } from './contexts.js';
import type { AgentRun } from './invocation.js';
import { runLlmAgent } from './run-llm-agent.js';
import { mergeStreams } from './merge-streams.js';

/** Runs any agent of the tree: its callbacks around it, then its own logic (model loop or workflow). */
export async function* runAgent(run: AgentRun): AsyncGenerator<Event> {
  if (run.invocation.ended) return;
  const definition = run.node.definition;
  const callbacks = isLlmAgent(definition) ? definition.callbacks : undefined;
  const skip = yield* agentCallback(run, callbacks?.beforeAgent);
  if (skip) return;
  if (isLlmAgent(definition)) yield* runLlmAgent(run, runAgent);
  else yield* runWorkflow(run, definition);
  if (!run.invocation.ended) yield* agentCallback(run, callbacks?.afterAgent);
}

// A callback's answer (or its state changes alone) becomes an event of the agent; true when it answered.
async function* agentCallback(run: AgentRun, callback: BeforeAgentCallback | readonly BeforeAgentCallback[] | AfterAgentCallback | readonly AfterAgentCallback[] | undefined): AsyncGenerator<Event, boolean> {
  if (callback === undefined) return false;
  const { context, delta, artifactDelta } = createCallbackContext(run);
  const content = await firstResult(callback as BeforeAgentCallback, { context });
  if (content === undefined && Object.keys(delta).length === 0 && Object.keys(artifactDelta).length === 0) return false;
  const event = run.invocation.event({
    author: run.node.name,
    ...(run.branch === undefined ? {} : { branch: run.branch }),
    ...(content === undefined ? {} : { content }),
    actions: { stateDelta: delta, artifactDelta },
  });
  yield await run.invocation.persist(event);
  return content !== undefined;
}

async function* runWorkflow(run: AgentRun, definition: WorkflowAgentDefinition): AsyncGenerator<Event> {
  const { invocation, node } = run;
  const child = (index: number, branch = run.branch): AgentRun => ({ invocation, node: node.children[index] as AgentRun['node'], branch });
  if (definition.kind === 'sequential') {
    for (let index = 0; index < node.children.length && !invocation.ended; index++) yield* runAgent(child(index));
    return;
  }
  if (definition.kind === 'parallel') {
    // Each child gets its own branch, so it sees its own turns and its ancestors', never its siblings'.
    const prefix = run.branch === undefined ? '' : `${run.branch}.`;
    yield* mergeStreams(node.children.map((childNode, index) => runAgent(child(index, `${prefix}${node.name}.${childNode.name}`))));
    return;
  }
  for (let iteration = 0; definition.maxIterations === undefined || iteration < definition.maxIterations; iteration++) {
    let produced = false;
    for (let index = 0; index < node.children.length; index++) {
      for await (const event of runAgent(child(index))) {
        produced = true;
        yield event;
        if (event.actions.escalate === true) return;
      }
      if (invocation.ended) return;
    }
    // A round that did nothing would repeat forever.
    if (!produced) return;
  }
}
