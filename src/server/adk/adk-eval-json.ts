import type { Content } from '../../contracts/content.js';
import type {
  BaseCriterion,
  EvalCase,
  EvalCaseResult,
  EvalMetric,
  EvalMetricResult,
  EvalMetricResultPerInvocation,
  EvalSet,
  EvalSetResult,
  Invocation,
  Rubric,
} from '../../contracts/evaluation.js';
import { evalStatusToAdk } from '../../analysis/eval/eval-status.js';
import { withoutProviderMetadata } from '../../engine/session/parts.js';

// Evaluation data as ADK's servers send it: FastAPI dumps its pydantic models by alias (camelCase) with
// `response_model_exclude_none`, so fields without a value are left out; statuses are ADK's numbers (PASSED 1, FAILED 2,
// NOT_EVALUATED 3), which the dev UI compares against. Tool arguments, responses and states are sent as they are.

type Json = Record<string, unknown>;

/** An `EvalSet`. */
export function evalSetJson(set: EvalSet): Json {
  return defined({
    evalSetId: set.evalSetId,
    name: set.name,
    description: set.description,
    evalCases: set.evalCases.map(evalCaseJson),
    creationTimestamp: set.creationTimestamp,
  });
}

/** An `EvalCase`, its extra fields after its own (ADK's `EvalCase` keeps them). */
export function evalCaseJson(item: EvalCase): Json {
  const session = item.sessionInput;
  return defined({
    evalId: item.evalId,
    conversation: item.conversation?.map(invocationJson),
    conversationScenario: item.conversationScenario,
    sessionInput:
      session === undefined
        ? undefined
        : { appName: session.appName, userId: session.userId, state: session.state, ...session.extra },
    creationTimestamp: item.creationTimestamp,
    rubrics: item.rubrics?.map(rubricJson),
    finalSessionState: item.finalSessionState,
    ...item.extra,
  });
}

/**
 * One case's result as ADK's run route answers it (`RunEvalResult`, dev_server.py): the case result's fields but the
 * session's details, with the deprecated `evalMetricResults` at its default, an empty list.
 */
export function runEvalResultJson(result: EvalCaseResult): Json {
  return defined({
    evalSetFile: result.evalSetFile ?? result.evalSetId,
    evalSetId: result.evalSetId,
    evalId: result.evalId,
    finalEvalStatus: evalStatusToAdk(result.finalEvalStatus),
    evalMetricResults: [],
    overallEvalMetricResults: result.overallEvalMetricResults.map(metricResultJson),
    evalMetricResultPerInvocation: result.evalMetricResultPerInvocation.map(perInvocationJson),
    userId: result.userId ?? '',
    sessionId: result.sessionId,
  });
}

/** An `EvalSetResult`, as ADK's result routes answer it. */
export function evalSetResultJson(result: EvalSetResult): Json {
  return defined({
    evalSetResultId: result.evalSetResultId,
    evalSetResultName: result.evalSetResultName,
    evalSetId: result.evalSetId,
    evalCaseResults: result.evalCaseResults.map(caseResultJson),
    creationTimestamp: result.creationTimestamp,
  });
}

function caseResultJson(result: EvalCaseResult): Json {
  return defined({
    evalSetFile: result.evalSetFile,
    evalSetId: result.evalSetId,
    evalId: result.evalId,
    finalEvalStatus: evalStatusToAdk(result.finalEvalStatus),
    evalMetricResults: result.evalMetricResults?.map(([metric, metricResult]) => [
      metricJson(metric),
      metricResultJson(metricResult),
    ]),
    overallEvalMetricResults: result.overallEvalMetricResults.map(metricResultJson),
    evalMetricResultPerInvocation: result.evalMetricResultPerInvocation.map(perInvocationJson),
    sessionId: result.sessionId,
    sessionDetails: result.sessionDetails,
    userId: result.userId,
  });
}

function perInvocationJson(entry: EvalMetricResultPerInvocation): Json {
  return defined({
    actualInvocation: invocationJson(entry.actualInvocation),
    expectedInvocation: entry.expectedInvocation === undefined ? undefined : invocationJson(entry.expectedInvocation),
    evalMetricResults: entry.evalMetricResults.map(metricResultJson),
  });
}

function metricJson(metric: EvalMetric): Json {
  return defined({
    metricName: metric.metricName,
    threshold: metric.threshold,
    criterion: metric.criterion === undefined ? undefined : criterionJson(metric.criterion),
    customFunctionPath: metric.customFunctionPath,
  });
}

function metricResultJson(result: EvalMetricResult): Json {
  return {
    ...metricJson(result),
    ...defined({ score: result.score }),
    evalStatus: evalStatusToAdk(result.evalStatus),
    details: defined({ rubricScores: result.details.rubricScores }),
  };
}

function criterionJson(criterion: BaseCriterion): Json {
  return {
    threshold: criterion.threshold,
    includeIntermediateResponsesInFinal: criterion.includeIntermediateResponsesInFinal,
    ...criterion.extra,
  };
}

function invocationJson(invocation: Invocation): Json {
  return defined({
    invocationId: invocation.invocationId,
    userContent: contentJson(invocation.userContent),
    finalResponse: invocation.finalResponse === undefined ? undefined : contentJson(invocation.finalResponse),
    intermediateData: invocation.intermediateData,
    creationTimestamp: invocation.creationTimestamp,
    rubrics: invocation.rubrics?.map(rubricJson),
    appDetails: invocation.appDetails,
  });
}

function rubricJson(rubric: Rubric): Json {
  return defined({ ...rubric });
}

// A genai `Part` has no field for providers' opaque data.
function contentJson(content: Content): Content {
  return { ...content, parts: content.parts.map(withoutProviderMetadata) };
}

function defined(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
