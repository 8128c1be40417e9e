import type { AgentNode } from '../../contracts/agent.js';
import type { Content, FunctionCall } from '../../contracts/content.js';
import type { CallbackContext } from '../../contracts/contexts.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Event } from '../../contracts/event.js';
import type { Model, ModelResponse, StablePrefix } from '../../contracts/model.js';
import type { AssembledRequest } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import { answerOutput, isFinalResponse } from '../agent/output-key.js';
import { pythonJsonDumps } from '../python/python-json.js';
import { stablePrefixOf } from '../assembly/stable-prefix.js';
import { recordSet, stateActions, stateChangesOf } from '../state/state-changes.js';
import { runBeforeModel } from './before-model.js';
import { calledModel, PendingCall } from './call-log.js';
import { checkModelResponse } from './check-model-response.js';
import { createCallbackContext } from './contexts.js';
import { Deadline } from './deadline.js';
import { answeredAlready, confirmationRequest, confirmedCalls } from './confirmations.js';
import { executeFunctionCalls, longRunningCallIds } from './execute-tools.js';
import { firstResult } from './first-result.js';
import { chainHook, firstHook, hookSources } from './hooks.js';
import { stillOpen } from './interrupted-calls.js';
import type { AgentRun, LlmAgentRun } from './invocation.js';
import { noteSaved, savedFor } from './saved-artifacts.js';
import { callModel } from './model-call.js';
import { prepareRequest } from './prepare-request.js';

/** How an LLM agent's turn ended, for the dispatcher: with a transfer to another agent, or not. */
export type LlmAgentOutcome = { transferTo?: AgentNode };

/**
 * An LLM agent's turn: call the model, run the tools it asks for, and call it again with the results, until it
 * answers, transfers, escalates, or the invocation ends.
 */
export async function* runLlmAgent(run: LlmAgentRun): AsyncGenerator<Event, LlmAgentOutcome> {
  if ((yield* resumeConfirmed(run)) === 'paused') return {};
  let retries = run.invocation.settings.outputSchemaRetries;
  while (!run.invocation.ended) {
    const step = yield* runStep(run);
    if (step.transferTo !== undefined) return { transferTo: step.transferTo };
    if (step.problems !== undefined) {
      // An answer that misses the output schema: asked again with what was wrong, else the turn fails saying so.
      yield await run.invocation.persist(
        retries > 0 ? correction(run, step.problems) : schemaFailure(run, step.problems),
      );
      if (retries-- > 0) continue;
      break;
    }
    if (step.stop || step.last === undefined || isFinalResponse(step.last)) break;
  }
  return {};
}

/**
 * Calls a person's answer in the last message confirmed or rejected run again first, with the answer in their
 * context, and their responses are stored; 'paused' when they end the turn (one asked again).
 */
async function* resumeConfirmed(run: LlmAgentRun): AsyncGenerator<Event, 'paused' | undefined> {
  const { calls, confirmations, answeredBefore } = confirmedCalls(run.invocation.session.events);
  // Two answers to one request (two tabs, two processes): the first one stored wins; this one changes nothing.
  if (calls.length === 0 && answeredBefore.length > 0) throw answeredAlready(answeredBefore);
  if (calls.length === 0) return undefined;
  const answered = await executeFunctionCalls(run, calls, { tools: [], handlers: [] }, undefined, confirmations);
  if (answered.event === undefined) return 'paused';
  const response = withDelta(answered.event, (await answerOutput(run.node.definition, answered.event)).delta);
  const confirmation = confirmationRequest(run, calls, response);
  if (confirmation !== undefined) yield await run.invocation.persist(confirmation);
  const stored = await run.invocation.persist(response);
  yield stored;
  return isFinalResponse(stored) ? 'paused' : undefined;
}

/**
 * How one step (a model call and the tools it asked for) ended: its last event, whether the turn stops, a transfer,
 * and how the agent's final answer misses its output schema.
 */
type StepResult = {
  readonly last: Event | undefined;
  readonly stop: boolean;
  readonly transferTo?: AgentNode;
  readonly problems?: readonly string[];
};

function correction(run: LlmAgentRun, problems: readonly string[]): Event {
  const text = `Your answer does not match the required output schema:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with JSON that matches the schema exactly.`;
  return run.invocation.event({
    author: 'user',
    ...(run.branch === undefined ? {} : { branch: run.branch }),
    content: { role: 'user', parts: [{ text }] },
    actions: { stateDelta: {}, artifactDelta: {} },
  });
}

function schemaFailure(run: LlmAgentRun, problems: readonly string[]): Event {
  const name = run.node.name;
  const message = `The answer of agent '${name}' does not match its output schema: ${problems.join('; ')}. Raise outputSchemaRetries to ask the model again, or loosen the schema.`;
  return run.invocation.failure(name, run.branch, 'output_schema_mismatch', message);
}

const STOPPED: StepResult = { last: undefined, stop: true };

/** Every call of a step was answered by another run while its tools ran here: nothing is left to store. */
class AnsweredElsewhere extends Error {}

/** Every call of a step went to a long-running tool that returned nothing: the answers come later, from the client. */
class AnsweredLater extends Error {}

async function* runStep(run: LlmAgentRun): AsyncGenerator<Event, StepResult> {
  const { invocation, node, branch } = run;
  const settings = invocation.settings;
  const agent = node.definition;
  if (invocation.llmCalls >= settings.maxLlmCalls) {
    const message = `The invocation reached its limit of ${settings.maxLlmCalls} model calls and was stopped. Raise maxLlmCalls if the task needs more.`;
    yield await invocation.persist(invocation.failure(agent.name, branch, 'max_llm_calls', message));
    return STOPPED;
  }
  invocation.llmCalls += 1;

  const model = await settings.modelFor(node);
  const callNumber = invocation.llmCalls;
  let assembled: AssembledRequest;
  try {
    assembled = yield* prepareRequest(run, model);
  } catch (error) {
    const code = AgentctxError.isInstance(error) ? error.code : 'assembly_failed';
    const message = AgentctxError.isInstance(error) ? error.describe() : String(error);
    yield await invocation.persist(invocation.failure(agent.name, branch, code, message));
    return STOPPED;
  }

  const { context, delta, ops, artifactDelta } = createCallbackContext(run);
  const sources = hookSources(run);
  const prepared = await runBeforeModel(run, assembled, sources, context);
  const request = prepared.request;
  let response = prepared.response;
  let pending: PendingCall | undefined;
  let answered: ModelResponse | undefined;
  if (response === undefined) {
    pending = await PendingCall.begin(
      invocation.calls,
      settings.now,
      {
        invocationId: invocation.id,
        agent: node.name,
        model: calledModel(model),
        request,
        provenance: prepared.provenance,
        editedByCallback: prepared.edited,
        ...(assembled.warnings.length === 0 ? {} : { warnings: [...assembled.warnings] }),
      },
      { telemetry: settings.telemetry, parent: run.span ?? invocation.span, price: settings.priceCall },
    );
    const called = yield* callWithin(
      run,
      model,
      request,
      stablePrefixOf(request, prepared.provenance),
      callNumber,
      context,
      pending,
    );
    if (called.response === undefined) {
      return STOPPED;
    }
    const got = called.response;
    // A stand-in from `onModelError` was recorded with the failure; only a real answer completes the call as answered.
    if (!called.standIn) answered = got;
    response =
      (await firstHook(sources, 'afterModel', { agent: node, context, response: got })) ??
      (await firstResult(agent.callbacks?.afterModel, { context, response: got })) ??
      got;
  }
  response = await chainHook(sources, 'processResponse', response, (current) => ({
    agent: node,
    context,
    response: current,
  }));

  const content =
    response.content === undefined
      ? undefined
      : withCallIds(response.content, settings.newId, settings.profile.generatedCallIdPrefix);
  const longRunning = longRunningCallIds(
    run,
    (content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : [])),
    assembled.tools,
  );
  const draft = invocation.event({
    author: agent.name,
    ...(branch === undefined ? {} : { branch }),
    ...(content === undefined ? {} : { content }),
    ...(longRunning.length === 0 ? {} : { longRunningToolIds: longRunning }),
    ...(response.usage === undefined ? {} : { usage: response.usage }),
    ...(response.errorCode === undefined ? {} : { errorCode: response.errorCode }),
    ...(response.errorMessage === undefined ? {} : { errorMessage: response.errorMessage }),
    actions: { ...stateActions({ delta, ops }), artifactDelta },
  });
  // The answer and its call's completion go in one write when the call is recorded in this session (not for agent tools).
  const session = invocation.session;
  const together =
    pending !== undefined &&
    answered !== undefined &&
    pending.recordedIn(settings.sessions, { appName: session.appName, userId: session.userId, sessionId: session.id });
  const completes = together
    ? pending?.outcome({ status: 'answered', response: answered, responseEventId: draft.id })
    : undefined;
  const output = await answerOutput(agent, draft);
  let modelEvent: Event;
  try {
    modelEvent = await invocation.persist(
      withDelta(draft, output.delta),
      undefined,
      completes === undefined ? undefined : { index: (pending as PendingCall).index as number, outcome: completes },
    );
  } catch (error) {
    // The model answered, but its answer could not be stored: the record says so rather than staying pending.
    const failure = `the answer could not be stored: ${error instanceof Error ? error.message : String(error)}`;
    if (completes === undefined)
      await pending?.end({ status: 'failed', response: answered, error: failure }).catch(() => undefined);
    else {
      const { responseEventId: _unstored, ...outcome } = completes;
      const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
      await settings.calls
        ?.completeModelCall({
          ...key,
          index: (pending as PendingCall).index as number,
          outcome: { ...outcome, status: 'failed', error: failure },
        })
        .catch(() => undefined);
    }
    throw error;
  }
  if (!together && pending !== undefined && answered !== undefined)
    await pending.end({ status: 'answered', response: answered, responseEventId: modelEvent.id });
  yield modelEvent;
  if (response.errorCode !== undefined) {
    return { last: modelEvent, stop: true };
  }

  const calls = (modelEvent.content?.parts ?? []).flatMap((part) =>
    'functionCall' in part ? [part.functionCall] : [],
  );
  if (calls.length === 0)
    return output.problems === undefined
      ? { last: modelEvent, stop: false }
      : { last: modelEvent, stop: false, problems: output.problems };
  // Tools read state as it was loaded; after a conflict they run again on the session as it now is, for the calls
  // no other run has answered meanwhile (another process may have recorded them as interrupted).
  let ending: { code: string; message: string } | undefined;
  let structured: { value: unknown } | undefined;
  const respond = async () => {
    const open = stillOpen(calls, invocation.session.events, modelEvent.id);
    if (open.length === 0) throw new AnsweredElsewhere();
    const answered = await executeFunctionCalls(run, open, assembled, pending?.index);
    ending = answered.endInvocation;
    structured = answered.setModelResponse;
    if (answered.event === undefined) throw new AnsweredLater();
    const event = withDelta(answered.event, (await answerOutput(agent, answered.event)).delta);
    noteSaved(event, savedFor(answered.event));
    return event;
  };
  let responseEvent: Event;
  try {
    const response = await respond();
    // ADK's order: the request for confirmation, then the responses (the one that asked says it waits).
    const confirmation = confirmationRequest(run, calls, response);
    if (confirmation !== undefined) yield await invocation.persist(confirmation);
    responseEvent = await invocation.persist(response, respond);
  } catch (error) {
    // The run pauses here: the model's event is final (its calls are long-running), and the client answers later.
    if (error instanceof AnsweredLater) return { last: modelEvent, stop: true };
    if (!(error instanceof AnsweredElsewhere)) throw error;
    const names = calls.map((call) => `'${call.name}'`).join(', ');
    const message = `The results of tool calls ${names} were not stored: while they ran, another run on this session recorded them as interrupted. This turn ends here; the tools may have taken effect.`;
    yield await invocation.persist(invocation.failure(agent.name, branch, 'tool_results_discarded', message));
    return { last: modelEvent, stop: true };
  }
  yield responseEvent;
  if (ending !== undefined) {
    yield await invocation.persist(invocation.failure(agent.name, branch, ending.code, ending.message));
    return { last: responseEvent, stop: true };
  }
  if (structured !== undefined) {
    // ADK's create_final_model_response_event: the answer given to `set_model_response`, as the agent's own text.
    const text = pythonJsonDumps(structured.value, { ensureAscii: false });
    const final = invocation.event({
      author: agent.name,
      ...(branch === undefined ? {} : { branch }),
      content: { role: 'model', parts: [{ text }] },
      actions: { stateDelta: {}, artifactDelta: {} },
    });
    const answer = await answerOutput(agent, final);
    const stored = await invocation.persist(withDelta(final, answer.delta));
    yield stored;
    return answer.problems === undefined
      ? { last: stored, stop: false }
      : { last: stored, stop: false, problems: answer.problems };
  }
  const target = responseEvent.actions.transferToAgent;
  if (target !== undefined) {
    return { last: responseEvent, stop: true, transferTo: settings.tree.getAgent(target) };
  }
  return { last: responseEvent, stop: responseEvent.actions.escalate === true };
}

/**
 * The model's response, within the runner's time limit, and the pending record ended by how the call went. A failure
 * goes to the `onModelError` hooks, whose answer stands in for the response; without one it ends the invocation with
 * an error event, and no response is returned.
 */
async function* callWithin(
  run: AgentRun,
  model: Model,
  request: LlmRequest,
  prefix: StablePrefix,
  callNumber: number,
  context: CallbackContext,
  pending: PendingCall,
): AsyncGenerator<Event, { response: ModelResponse | undefined; standIn: boolean }> {
  const { invocation, node, branch } = run;
  const deadline = new Deadline(invocation.signal, invocation.settings.modelTimeoutMs);
  try {
    return {
      response: checkModelResponse(yield* callModel(run, model, request, prefix, deadline, pending), model.provider),
      standIn: false,
    };
  } catch (error) {
    const reason = AgentctxError.isInstance(error)
      ? error.describe()
      : error instanceof Error
        ? error.message
        : String(error);
    const status = deadline.expired ? 'timed_out' : invocation.signal?.aborted === true ? 'aborted' : 'failed';
    const standIn = await firstHook(hookSources(run), 'onModelError', { agent: node, context, request, error });
    if (standIn !== undefined) {
      await pending.end({ status, error: reason });
      return { response: standIn, standIn: true };
    }
    const failure = deadline.expired
      ? {
          code: 'model_timeout',
          message: `The model call got no complete answer within ${deadline.ms} ms and was abandoned (call ${callNumber} of this invocation, agent '${node.name}'). Raise modelTimeoutMs if the model needs longer.`,
        }
      : status === 'aborted'
        ? {
            code: 'aborted',
            message: `The run was aborted during a model call (call ${callNumber} of this invocation, agent '${node.name}'): ${reason}`,
          }
        : {
            code: 'model_error',
            message: `The model call failed (call ${callNumber} of this invocation, agent '${node.name}'): ${reason}`,
          };
    // Recorded first: an aborted run may not get to store its error event.
    await pending.end({ status, error: reason });
    yield await invocation.persist(invocation.failure(node.name, branch, failure.code, failure.message));
    return { response: undefined, standIn: false };
  } finally {
    deadline.dispose();
  }
}

// ADK gives calls without an id one of its own (`adk-…`), so every response can be paired with its call.
function withCallIds(content: Content, newId: () => string, prefix: string): Content {
  if (!content.parts.some((part) => 'functionCall' in part && part.functionCall.id === undefined)) return content;
  return {
    role: content.role,
    parts: content.parts.map((part) => {
      if (!('functionCall' in part) || part.functionCall.id !== undefined) return part;
      const call: FunctionCall = { ...part.functionCall, id: `${prefix}${newId()}` };
      return { ...part, functionCall: call };
    }),
  };
}

function withDelta(event: Event, delta: Record<string, unknown>): Event {
  if (Object.keys(delta).length === 0) return event;
  // A set after the event's other writes: it replaces any operation on the key.
  const changes = stateChangesOf(event.actions);
  for (const [key, value] of Object.entries(delta)) recordSet(changes, key, value);
  const { stateOps: _replaced, ...actions } = event.actions;
  return { ...event, actions: { ...actions, ...stateActions(changes) } };
}
