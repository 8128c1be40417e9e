import { firstResult } from '../agent/callbacks.js';
import type { LlmAgentDefinition } from '../agent/agent.js';
import { outputKeyDelta } from '../agent/output-key.js';
import { AgentctxError } from '../errors/agentctx-error.js';
import { isFinalResponse } from '../agent/output-key.js';
import type { Model, ModelResponse } from '../model/model.js';
import { assembleRequest, type AssembledRequest } from '../request/assemble.js';
import { cloneRequest, type LlmRequest } from '../request/request.js';
import { artifactTextReader } from '../session/artifact-rules.js';
import type { Content, FunctionCall } from '../session/content.js';
import type { Event } from '../session/event.js';
import { checkModelResponse } from './check-model-response.js';
import { compactBeforeCall } from './compaction-steps.js';
import { createCallbackContext } from './contexts.js';
import { Deadline } from './deadline.js';
import { executeFunctionCalls } from './execute-tools.js';
import type { AgentRun } from './invocation.js';

/** Runs the agent that transfer named; set by the runner to avoid a cycle between the two modules. */
export type RunAgent = (run: AgentRun) => AsyncGenerator<Event>;

const MAX_INVALID_TRANSFERS = 3;

/**
 * An LLM agent's turn: call the model, run the tools it asks for, and call it again with the results, until it
 * answers, transfers, escalates, or the invocation ends.
 */
export async function* runLlmAgent(run: AgentRun, runAgent: RunAgent): AsyncGenerator<Event> {
  const outcome: StepOutcome = { last: undefined, stop: false };
  while (!run.invocation.ended) {
    outcome.last = undefined;
    yield* runStep(run, runAgent, outcome);
    if (outcome.stop || outcome.last === undefined || isFinalResponse(outcome.last)) return;
  }
}

type StepOutcome = { last: Event | undefined; stop: boolean };

async function* runStep(run: AgentRun, runAgent: RunAgent, outcome: StepOutcome): AsyncGenerator<Event> {
  const { invocation, node, branch } = run;
  const settings = invocation.settings;
  const agent = node.definition as LlmAgentDefinition;
  const onBranch = branch === undefined ? {} : { branch };
  if (invocation.llmCalls >= settings.maxLlmCalls) {
    outcome.stop = true;
    const message = `The invocation reached its limit of ${settings.maxLlmCalls} model calls and was stopped. Raise maxLlmCalls if the task needs more.`;
    yield await invocation.persist(invocation.failure(agent.name, branch, 'max_llm_calls', message));
    return;
  }
  invocation.llmCalls += 1;

  const model = await settings.modelFor(agent, node);
  const callNumber = invocation.llmCalls;
  let assembled: AssembledRequest;
  try {
    assembled = await assemble(run, model.pairsCallsById === true);
    // A compaction changes the history, so the request is built again from it.
    const compaction = await compactBeforeCall(run, assembled);
    if (compaction !== undefined) {
      yield compaction;
      if (compaction.actions.compaction !== undefined) assembled = await assemble(run, model.pairsCallsById === true);
    }
  } catch (error) {
    outcome.stop = true;
    const code = AgentctxError.isInstance(error) ? error.code : 'assembly_failed';
    const message = AgentctxError.isInstance(error) ? error.describe() : String(error);
    yield await invocation.persist(invocation.failure(agent.name, branch, code, message));
    return;
  }

  const { context, delta, artifactDelta } = createCallbackContext(run);
  let request: LlmRequest = assembled.request;
  let response: ModelResponse | undefined;
  let edited = false;
  if (agent.callbacks?.beforeModel !== undefined) {
    request = cloneRequest(request);
    const before = JSON.stringify(request);
    response = await firstResult(agent.callbacks.beforeModel, { context, request });
    edited = JSON.stringify(request) !== before;
  }
  const modelCalled = response === undefined;
  if (response === undefined) {
    const deadline = new Deadline(invocation.signal, settings.modelTimeoutMs);
    try {
      response = checkModelResponse(yield* callModel(run, model, request, deadline), model.provider);
    } catch (error) {
      outcome.stop = true;
      const reason = AgentctxError.isInstance(error) ? error.describe() : error instanceof Error ? error.message : String(error);
      const failure = deadline.expired
        ? { code: 'model_timeout', message: `The model call got no complete answer within ${deadline.ms} ms and was abandoned (call ${callNumber} of this invocation, agent '${agent.name}'). Raise modelTimeoutMs if the model needs longer.` }
        : { code: 'model_error', message: `The model call failed (call ${callNumber} of this invocation, agent '${agent.name}'): ${reason}` };
      yield await invocation.persist(invocation.failure(agent.name, branch, failure.code, failure.message));
      await record(run, assembled, request, edited, undefined, undefined);
      return;
    } finally {
      deadline.dispose();
    }
    response = (await firstResult(agent.callbacks?.afterModel, { context, response })) ?? response;
  }

  const content = response.content === undefined ? undefined : withCallIds(response.content, settings.newId);
  const draft = invocation.event({
    author: agent.name,
    ...onBranch,
    ...(content === undefined ? {} : { content }),
    ...(response.usage === undefined ? {} : { usage: response.usage }),
    ...(response.errorCode === undefined ? {} : { errorCode: response.errorCode }),
    ...(response.errorMessage === undefined ? {} : { errorMessage: response.errorMessage }),
    actions: { stateDelta: delta, artifactDelta },
  });
  const modelEvent = await invocation.persist(withOutputKey(agent, draft));
  if (modelCalled) await record(run, assembled, request, edited, modelEvent.id, response);
  yield modelEvent;
  outcome.last = modelEvent;
  if (response.errorCode !== undefined) {
    outcome.stop = true;
    return;
  }

  const calls = (modelEvent.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));
  if (calls.length === 0) return;
  // Tools read state as it was loaded; after a conflict they run again on the session as it now is.
  const respond = async () => withOutputKey(agent, await executeFunctionCalls(run, calls, runAgent));
  const responseEvent = await invocation.persist(await respond(), respond);
  yield responseEvent;
  outcome.last = responseEvent;
  if (invocation.invalidTransfers >= MAX_INVALID_TRANSFERS) {
    outcome.stop = true;
    const message = `The model asked ${invocation.invalidTransfers} times to transfer to an agent it cannot reach; the invocation was stopped instead of looping.`;
    yield await invocation.persist(invocation.failure(agent.name, branch, 'transfer_failed', message));
    return;
  }
  const target = responseEvent.actions.transferToAgent;
  if (target !== undefined) {
    outcome.stop = true;
    yield* runAgent({ invocation, node: settings.tree.getAgent(target), branch });
    return;
  }
  if (responseEvent.actions.escalate === true) outcome.stop = true;
}

function assemble(run: AgentRun, preserveFunctionCallIds: boolean): Promise<AssembledRequest> {
  const { invocation, node, branch } = run;
  const { settings, session } = invocation;
  const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
  return assembleRequest({
    agents: settings.tree,
    agentName: node.name,
    ...key,
    events: session.events,
    state: session.state,
    artifacts: settings.artifacts === undefined ? undefined : artifactTextReader(settings.artifacts, key),
    branch,
    invocationId: invocation.id,
    userContent: invocation.userContent,
    valueFormat: settings.valueFormat,
    preserveFunctionCallIds,
    pipeline: settings.pipeline,
    contentsCache: invocation.contents,
    adkCompatibility: settings.adkCompatibility,
  });
}

/**
 * Calls the model, streaming when the runner streams: partial events go to the caller but are never stored. The
 * deadline covers the whole call; when it passes, the call is abandoned even if the model ignores its signal.
 */
async function* callModel(run: AgentRun, model: Model, request: LlmRequest, deadline: Deadline): AsyncGenerator<Event, ModelResponse> {
  const { invocation, node, branch } = run;
  const options = { signal: deadline.signal, agentName: node.name };
  if (!invocation.settings.streaming || model.stream === undefined) return deadline.race(model.generate(request, options));
  let final: ModelResponse | undefined;
  const chunks = model.stream(request, options)[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (let next = await deadline.race(chunks.next()); next.done !== true; next = await deadline.race(chunks.next())) {
      const chunk = next.value;
      if (!chunk.partial) {
        const { partial: _partial, ...response } = chunk;
        final = response;
        continue;
      }
      if (chunk.content !== undefined) {
        yield invocation.event({ author: node.name, ...(branch === undefined ? {} : { branch }), content: chunk.content, partial: true });
      }
    }
    finished = true;
  } finally {
    // A stream left early is closed, as `for await` would; an abandoned one is told to stop, without waiting for it.
    if (!finished) {
      const closing = Promise.resolve(chunks.return?.()).catch(() => undefined);
      if (!deadline.expired) await closing;
    }
  }
  if (final === undefined) throw new Error('the stream ended without a complete response');
  return final;
}

async function record(run: AgentRun, assembled: AssembledRequest, request: LlmRequest, edited: boolean, responseEventId: string | undefined, response: ModelResponse | undefined): Promise<void> {
  const { invocation, node } = run;
  const session = invocation.session;
  await invocation.settings.sessions.recordModelCall({
    appName: session.appName,
    userId: session.userId,
    sessionId: session.id,
    call: {
      invocationId: invocation.id,
      agent: node.name,
      timestamp: invocation.settings.now(),
      request,
      provenance: assembled.provenance,
      editedByCallback: edited,
      ...(responseEventId === undefined ? {} : { responseEventId }),
      ...(response?.usage === undefined ? {} : { usage: response.usage }),
    },
  });
}

// ADK gives calls without an id one of its own (`adk-…`), so every response can be paired with its call.
function withCallIds(content: Content, newId: () => string): Content {
  if (!content.parts.some((part) => 'functionCall' in part && part.functionCall.id === undefined)) return content;
  return {
    role: content.role,
    parts: content.parts.map((part) => {
      if (!('functionCall' in part) || part.functionCall.id !== undefined) return part;
      const call: FunctionCall = { ...part.functionCall, id: `adk-${newId()}` };
      return { ...part, functionCall: call };
    }),
  };
}

function withOutputKey(agent: LlmAgentDefinition, event: Event): Event {
  const delta = outputKeyDelta(agent, event);
  if (Object.keys(delta).length === 0) return event;
  return { ...event, actions: { ...event.actions, stateDelta: { ...event.actions.stateDelta, ...delta } } };
}
