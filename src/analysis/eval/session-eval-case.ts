import type { AgentNode } from '../../contracts/agent.js';
import type { EvalCase } from '../../contracts/evaluation.js';
import type { Session } from '../../contracts/session.js';
import { isLlmAgent } from '../../engine/agent/agent-tree.js';
import { invocationsFromEvents } from './invocations-from-events.js';

/**
 * A recorded session as an eval case, as ADK's dev server adds one (dev_server.py `add_session_to_eval_set`, commit
 * bb56aa56): the session's invocations are the expected ones, its session input the app, the user and ADK's empty
 * state. Shared by `agentctx eval add` and the ADK server's add_session route.
 */
export function evalCaseOfSession(input: {
  evalId: string;
  session: Session;
  /** The app's agents (`runner.tree.nodes`), whose instructions give the empty state. */
  agents: readonly AgentNode[];
  /** Seconds since the epoch (ADK's `time.time()`). */
  now?: number;
}): EvalCase {
  const { session } = input;
  return {
    evalId: input.evalId,
    conversation: invocationsFromEvents(session.events),
    sessionInput: { appName: session.appName, userId: session.userId, state: emptyEvalState(input.agents) },
    creationTimestamp: input.now ?? Date.now() / 1000,
    finalSessionState: {},
  };
}

/** ADK's `create_empty_state` (cli/utils/state.py): '' for every `{key}` the agents' text instructions name. */
export function emptyEvalState(agents: readonly AgentNode[]): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const node of agents) {
    const definition = node.definition;
    if (!isLlmAgent(definition) || typeof definition.instruction !== 'string') continue;
    for (const match of definition.instruction.matchAll(/\{([\p{L}\p{N}_]+)\}/gu)) state[match[1] as string] = '';
  }
  return state;
}
