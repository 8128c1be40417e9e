import type { Content, FunctionCall, FunctionResponse, Part } from './content.js';

// The evaluation data of Google ADK Python 2.5.0 (commit bb56aa56), field for field, in the camelCase its pydantic
// models take by alias: src/google/adk/evaluation/{eval_case.py, eval_set.py, eval_rubrics.py, app_details.py,
// conversation_scenarios.py, eval_metrics.py, eval_config.py, evaluator.py}. Files ADK writes are snake_case; the
// readers in src/analysis/eval take both spellings. Defaults ADK fills in are filled in by the readers, so a field
// that has one is not optional here.

/** What an agent produced on its way to a final answer (`IntermediateData`, eval_case.py). */
export type IntermediateData = {
  /** Tool calls in the order made. */
  toolUses: FunctionCall[];
  toolResponses: FunctionResponse[];
  /** Progress messages of sub-agents: ADK's `tuple[str, list[Part]]`, in JSON a two-element list `[author, parts]`. */
  intermediateResponses: [author: string, parts: Part[]][];
};

/** A projection of a session event for evaluation (`InvocationEvent`, eval_case.py). */
export type InvocationEvent = {
  author: string;
  content?: Content;
};

/** The other form of `intermediateData`: the invocation's events (`InvocationEvents`, eval_case.py). */
export type InvocationEvents = {
  invocationEvents: InvocationEvent[];
};

/** A yes/no property an LLM judge checks (`Rubric`, eval_rubrics.py). */
export type Rubric = {
  rubricId: string;
  rubricContent: { textProperty?: string };
  description?: string;
  /** Free text such as `TOOL_USE_QUALITY` or `FINAL_RESPONSE_QUALITY`. */
  type?: string;
};

/** A judge's verdict on one rubric (`RubricScore`, eval_rubrics.py). */
export type RubricScore = {
  rubricId: string;
  rationale?: string;
  score?: number;
};

/** The agents an invocation ran, by name (`AppDetails`, app_details.py). */
export type AppDetails = {
  agentDetails: Record<string, { name: string; instructions: string; toolDeclarations: unknown[] }>;
};

/** One user turn and what the agent did with it (`Invocation`, eval_case.py). */
export type Invocation = {
  /** `''` when not given (ADK's default). */
  invocationId: string;
  userContent: Content;
  finalResponse?: Content;
  intermediateData?: IntermediateData | InvocationEvents;
  /** Seconds since the epoch; 0 when not given. */
  creationTimestamp: number;
  rubrics?: Rubric[];
  appDetails?: AppDetails;
};

/** How to start the session an eval case runs in (`SessionInput`, eval_case.py). */
export type SessionInput = {
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  /** Fields ADK does not know, kept as written: its `SessionInput` allows extra fields and writes them back. */
  extra?: Record<string, unknown>;
};

/** What a simulated user should try, instead of a fixed conversation (`ConversationScenario`). */
export type ConversationScenario = {
  startingPrompt: string;
  conversationPlan: string;
  /** A persona object or a pre-built persona's id, as written (not checked here). */
  userPersona?: string | Record<string, unknown>;
};

/** One test: exactly one of `conversation` and `conversationScenario` (`EvalCase`, eval_case.py). */
export type EvalCase = {
  evalId: string;
  conversation?: Invocation[];
  conversationScenario?: ConversationScenario;
  sessionInput?: SessionInput;
  creationTimestamp: number;
  rubrics?: Rubric[];
  /** The state expected at the end; `{}` when not given, absent when given as null. */
  finalSessionState?: Record<string, unknown>;
  /** Fields ADK does not know, kept as written: its `EvalCase` allows extra fields and writes them back. */
  extra?: Record<string, unknown>;
};

/** A file of eval cases (`EvalSet`, eval_set.py). */
export type EvalSet = {
  evalSetId: string;
  name?: string;
  description?: string;
  evalCases: EvalCase[];
  creationTimestamp: number;
};

/**
 * The outcome of a metric. ADK's `EvalStatus` is an int enum (eval_metrics.py): PASSED = 1, FAILED = 2,
 * NOT_EVALUATED = 3, and result JSON holds those numbers (`"eval_status": 1`); `evalStatusToAdk` and
 * `evalStatusFromAdk` (src/analysis/eval/eval-status.ts) convert.
 */
export type EvalStatus = 'PASSED' | 'FAILED' | 'NOT_EVALUATED';

/**
 * A metric's criterion (`BaseCriterion`, eval_metrics.py). ADK's allows extra fields, which each metric reads as its
 * own criterion type (judge options, rubrics, `match_type`): they are kept in `extra` as written.
 */
export type BaseCriterion = {
  threshold: number;
  includeIntermediateResponsesInFinal: boolean;
  extra?: Record<string, unknown>;
};

/**
 * How actual tool calls are matched to expected ones (`ToolTrajectoryCriterion.MatchType`: EXACT = 0, IN_ORDER = 1,
 * ANY_ORDER = 2): the same calls in the same order; the expected ones in order among others; the expected ones in any
 * order among others.
 */
export type ToolTrajectoryMatchType = 'EXACT' | 'IN_ORDER' | 'ANY_ORDER';

/** The criterion of `tool_trajectory_avg_score` (`ToolTrajectoryCriterion`). */
export type ToolTrajectoryCriterion = {
  threshold: number;
  matchType: ToolTrajectoryMatchType;
};

/** A metric to compute, with its threshold and criterion (`EvalMetric`, eval_metrics.py). */
export type EvalMetric = {
  metricName: string;
  /** ADK keeps it beside `criterion` for older callers; `criterion.threshold` is the one metrics read. */
  threshold?: number;
  criterion?: BaseCriterion;
  /** The dotted name of a custom metric's function. */
  customFunctionPath?: string;
};

/** A custom metric's code (`CustomMetricConfig`, eval_config.py). */
export type CustomMetricConfig = {
  codeConfig: { name: string; args?: unknown[] };
  /** ADK's `MetricInfo`, as written (not checked here). */
  metricInfo?: Record<string, unknown>;
  description: string;
};

/** The simulated user's settings (`LlmBackedUserSimulatorConfig` or `LlmAudioUserSimulatorConfig`). */
export type UserSimulatorConfig = {
  /** ADK's discriminator; a config without one is `llm_backed` (its backward compatibility). */
  type: 'llm_backed' | 'llm_audio';
  /** The other fields (model, max_allowed_invocations, …), as written (not checked here). */
  extra?: Record<string, unknown>;
};

/** `test_config.json` (`EvalConfig`, eval_config.py): per metric name, a threshold or a criterion. */
export type EvalConfig = {
  criteria: Record<string, number | BaseCriterion>;
  customMetrics?: Record<string, CustomMetricConfig>;
  userSimulatorConfig?: UserSimulatorConfig;
};

/** A metric's result on one invocation (`PerInvocationResult`, evaluator.py). */
export type PerInvocationResult = {
  actualInvocation: Invocation;
  expectedInvocation?: Invocation;
  score?: number;
  evalStatus: EvalStatus;
  rubricScores?: RubricScore[];
};

/** A metric's result over a conversation (`EvaluationResult`, evaluator.py). */
export type EvaluationResult = {
  /** Absent when nothing was evaluated. */
  overallScore?: number;
  overallEvalStatus: EvalStatus;
  perInvocationResults: PerInvocationResult[];
  overallRubricScores?: RubricScore[];
};

// Results, as ADK 2.5.0 keeps and writes them: `EvalMetricResult`, `EvalMetricResultPerInvocation` (eval_metrics.py
// L303–350) and `EvalCaseResult`, `EvalSetResult` (eval_result.py). src/analysis/eval/evaluate-case.ts builds them;
// src/analysis/eval/eval-set-result-file.ts writes them as ADK's results manager does.

/** Judge details of a metric's result (`EvalMetricResultDetails`). */
export type EvalMetricResultDetails = {
  rubricScores?: RubricScore[];
};

/** A metric with what it gave (`EvalMetricResult`: the `EvalMetric`'s fields, then score, status and details). */
export type EvalMetricResult = EvalMetric & {
  /** Absent when the metric was not evaluated. */
  score?: number;
  evalStatus: EvalStatus;
  details: EvalMetricResultDetails;
};

/** Every metric's result on one invocation (`EvalMetricResultPerInvocation`). */
export type EvalMetricResultPerInvocation = {
  actualInvocation: Invocation;
  /** Absent when the case has no conversation (a conversation scenario). */
  expectedInvocation?: Invocation;
  evalMetricResults: EvalMetricResult[];
};

/** One eval case's results (`EvalCaseResult`). */
export type EvalCaseResult = {
  /** Deprecated in ADK for `evalSetId`, which ADK's evaluation also puts here. */
  evalSetFile?: string;
  evalSetId: string;
  evalId: string;
  finalEvalStatus: EvalStatus;
  /** Deprecated in ADK for `overallEvalMetricResults`; ADK 2.5.0 leaves it unset. */
  evalMetricResults?: [EvalMetric, EvalMetricResult][];
  /** Per metric, over the whole case, in the order the metrics were given. */
  overallEvalMetricResults: EvalMetricResult[];
  evalMetricResultPerInvocation: EvalMetricResultPerInvocation[];
  sessionId: string;
  /** ADK's `Session` of the run, as ADK writes it; absent when not kept. */
  sessionDetails?: Record<string, unknown>;
  userId?: string;
};

/** One run of an eval set (`EvalSetResult`). */
export type EvalSetResult = {
  evalSetResultId: string;
  evalSetResultName?: string;
  evalSetId: string;
  evalCaseResults: EvalCaseResult[];
  /** Seconds since the epoch; 0 when not given. */
  creationTimestamp: number;
};

/**
 * What one run of an eval case cost (agentctx's addition; ADK measures none of it): from the run's recorded model
 * calls, priced with prompt caching, and its events.
 */
export type EvalEfficiency = {
  /** Model calls of the run (embedding calls not counted). */
  modelCalls: number;
  /** Tool calls the agents made. */
  toolCalls: number;
  /** Prompt tokens as the providers reported them: input billed in full, read from the cache and written to it. */
  promptTokens: number;
  /** The part of `promptTokens` read from a prompt cache. */
  cachedTokens: number;
  outputTokens: number;
  /** `cachedTokens / promptTokens` (0 without prompt tokens). */
  cacheHitRatio: number;
  /** USD of the calls, prompt caching included; absent when no call could be priced. */
  usd?: number;
  /** Calls whose model the price table does not know (their tokens counted, not their cost). */
  unpricedCalls: number;
  /** Time the model calls took, added up, in milliseconds. */
  modelLatencyMs: number;
  /** Time the whole run took, from its session's creation to its last event, in milliseconds. */
  wallMs: number;
};

/** One run of an eval case as agentctx's runner returns it: ADK's result, and what the run cost. */
export type EvalCaseRun = EvalCaseResult & { efficiency: EvalEfficiency };
