import type { AgentNode, CustomAgentDefinition, CustomAgentReply } from '../../contracts/agent.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import type { Event } from '../../contracts/event.js';
import { stateActions } from '../state/state-changes.js';
import { createCallbackContext } from './contexts.js';
import type { AgentRun } from './invocation.js';

/** How a custom agent's run ended, for the dispatcher: with a transfer to another agent, or not. */
export type CustomAgentOutcome = { transferTo?: AgentNode };

/**
 * A custom agent's turn: its `run` yields replies, each stored as an event of the agent carrying the state and
 * artifacts written since the last one, and its sub-agents' events (from `runSubAgent`, stored already), passed on
 * as they are. State written after its last reply is stored on an event of its own.
 */
export async function* runCustomAgent(
  run: AgentRun & { node: AgentNode<CustomAgentDefinition> },
): AsyncGenerator<Event, CustomAgentOutcome> {
  const { invocation, node, branch } = run;
  const settings = invocation.settings;
  // Events its sub-agents stored: yielded on as they are, never stored twice.
  const stored = new WeakSet<Event>();
  let pending = createCallbackContext(run);
  let transferTo: AgentNode | undefined;
  const context = {
    ...pending.context,
    // The live view: a write travels on the next reply, whichever context object made it.
    get state() {
      return pending.context.state;
    },
    get artifacts() {
      return pending.context.artifacts;
    },
    events: [...invocation.session.events],
    signal: invocation.signal,
    async *runSubAgent(name: string): AsyncGenerator<Event> {
      const child = node.children.find((each) => each.name === name);
      if (child === undefined) throw notASubAgent(node, name);
      for await (const event of settings.runAgent({ invocation, node: child, branch, span: run.span })) {
        stored.add(event);
        yield event;
      }
    },
  };
  const store = async (reply: CustomAgentReply | undefined): Promise<Event> => {
    const { delta, ops, artifactDelta } = pending;
    pending = createCallbackContext(run);
    const actions = {
      ...stateActions({ delta, ops }),
      artifactDelta,
      ...(reply?.escalate === true ? { escalate: true } : {}),
      ...(reply?.transferToAgent === undefined ? {} : { transferToAgent: reply.transferToAgent }),
    };
    return invocation.persist(
      invocation.event({
        author: node.name,
        ...(branch === undefined ? {} : { branch }),
        ...(reply?.content === undefined ? {} : { content: reply.content }),
        actions,
      }),
    );
  };
  for await (const item of node.definition.run(context)) {
    if (invocation.ended) break;
    if (stored.has(item as Event)) {
      yield item as Event;
      continue;
    }
    const reply = item as CustomAgentReply;
    if (reply.transferToAgent !== undefined) transferTo = settings.tree.getAgent(reply.transferToAgent);
    yield await store(reply);
    if (reply.escalate === true || transferTo !== undefined) break;
  }
  const { delta, ops, artifactDelta } = pending;
  if (!invocation.ended && (Object.keys(delta).length > 0 || ops.length > 0 || Object.keys(artifactDelta).length > 0))
    yield await store(undefined);
  return transferTo === undefined ? {} : { transferTo };
}

function notASubAgent(node: AgentNode, name: string): NotFoundError {
  const children = node.children.map((child) => child.name);
  return new NotFoundError({
    resource: 'agent',
    id: name,
    message: `Agent '${node.name}' has no sub-agent '${name}'.`,
    hint: children.length === 0 ? 'Give it subAgents to run.' : `Its sub-agents are: ${children.join(', ')}.`,
  });
}
