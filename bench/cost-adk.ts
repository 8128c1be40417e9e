// The @google/adk 2.0.0 row of `npm run bench:cost`: the report analyst in its naive form (ADK has no instruction
// paging) on ADK's own Runner and InMemorySessionService, answered by the analyst's script through a BaseLlm. Every
// request ADK sends is caught by ADK's own beforeModelCallback (after its request processors, as it goes out),
// converted to agentctx's LlmRequest, billed under each provider's caching rules as a framework that marks nothing
// (no Anthropic breakpoints, no OpenAI cache key) and priced by agentctx's cost engine, like agentctx's own runs.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  BaseLlm,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LogLevel,
  Runner,
  setLogLevel,
  type Context,
  type Event as AdkEvent,
  type LlmRequest as AdkRequest,
  type LlmResponse as AdkResponse,
  type SingleBeforeModelCallback,
} from '@google/adk';
import { type AgentDefinition, type LlmAgentDefinition, type LlmRequest, type ModelResponse } from 'agentctx';
import { costOfCall, DEFAULT_PRICES, sumCosts } from 'agentctx/cost';
import { createScriptedModel } from 'agentctx/models/scripted';
import { z } from 'zod';
import { buildAnalyst } from '../examples/report-analyst/agents.js';
import { expectedAnswer, QUESTION, type Report } from '../examples/report-analyst/reports.js';
import { analystScript } from '../examples/report-analyst/script.js';
import { forScript, fromAdkRequest, toAdkResponse } from './cost-adk-convert.js';
import { createBilling, PRICED_MODEL, PROVIDERS, type Provider } from './cost-billing.js';

/** One provider's bill of the ADK run. */
export type AdkProviderCost = { usd: number; promptTokens: number; cacheHitRatio: number; calls: number };

export type AdkRow = {
  /** @google/adk's version, from its package.json. */
  version: string;
  mode: 'naive';
  /** Model calls ADK made. */
  calls: number;
  answerCorrect: true;
  providers: Record<Provider, AdkProviderCost>;
};

/** One model call of the ADK run: the request as ADK sent it, the agent that sent it and the script's answer. */
export type AdkCall = { agentName: string; request: LlmRequest; response: ModelResponse };

const APP = 'report_analyst_adk';
const USER = 'analyst';
// The label ADK puts on every request with the name of the agent that makes it.
const AGENT_LABEL = 'adk_agent_name';
// Where the naive get_reports keeps the bodies for calculate_with_state, as agents.ts does.
const NAIVE_CACHE = 'temp:naive:report:';
const RESULT_PREFIX = 'reports:result:';

/** The analyst's script as an ADK model: each request converted to agentctx's form, each answer back to ADK's. */
class ScriptedAnalystLlm extends BaseLlm {
  /** Every call the model answered, in order, with the request as it arrived. */
  readonly seen: AdkCall[] = [];
  private readonly script = createScriptedModel(analystScript('naive'), {
    record: false,
    modelId: 'report-analyst-naive-adk',
  });

  constructor() {
    super({ model: 'scripted-report-analyst' });
  }

  override async *generateContentAsync(adkRequest: AdkRequest): AsyncGenerator<AdkResponse, void> {
    const agentName = adkRequest.config?.labels?.[AGENT_LABEL];
    if (agentName === undefined) throw new Error(`ADK sent a request without its ${AGENT_LABEL} label`);
    const request = fromAdkRequest(adkRequest);
    const response = await this.script.generate(forScript(request), { agentName });
    this.seen.push({ agentName, request, response });
    yield toAdkResponse(response, request.tools);
  }

  override async connect(): Promise<never> {
    throw new Error('the scripted analyst has no live mode');
  }
}

/** The analyst's two agents as agents.ts defines them in naive mode: their instructions and descriptions, read from there. */
function agentctxTexts(reports: readonly Report[]) {
  const planning = buildAnalyst({ mode: 'naive', reports });
  const analysis = planning.subAgents.find((agent) => agent.name === 'analysis_agent');
  if (planning.kind !== 'llm' || analysis?.kind !== 'llm') throw new Error('agents.ts no longer builds two LLM agents');
  const instruction = (agent: LlmAgentDefinition): string => {
    if (typeof agent.instruction !== 'string') throw new Error(`${agent.name}'s instruction is not a plain text`);
    return agent.instruction;
  };
  const tool = (agent: AgentDefinition, name: string): string => {
    const found = agent.kind === 'llm' ? agent.tools.find((each) => each.name === name) : undefined;
    if (found === undefined) throw new Error(`agents.ts gives ${agent.name} no tool ${name}`);
    return found.description;
  };
  return { planning, analysis, instruction, tool };
}

/** The naive analyst on ADK: planning_agent with search_reports, and analysis_agent reached by ADK's transfer_to_agent. */
function buildAdkAnalyst(reports: readonly Report[], model: BaseLlm, capture: SingleBeforeModelCallback): LlmAgent {
  const { planning, analysis, instruction, tool } = agentctxTexts(reports);
  const byId = new Map(reports.map((report) => [report.id, report]));
  const needContext = (context: Context | undefined): Context => {
    if (context === undefined) throw new Error('ADK called a tool without its context');
    return context;
  };

  const search = new FunctionTool({
    name: 'search_reports',
    description: tool(planning, 'search_reports'),
    parameters: z.object({ query: z.string() }),
    execute: ({ query }) => {
      const year = /20\d\d/.exec(query)?.[0];
      const ids = reports
        .filter((report) => year === undefined || report.quarter.startsWith(year))
        .map((report) => report.id);
      return { count: ids.length, ids };
    },
  });
  const getReports = new FunctionTool({
    name: 'get_reports',
    description: tool(analysis, 'get_reports'),
    parameters: z.object({ ids: z.array(z.string()).max(10) }),
    execute: ({ ids }, context) => {
      const { state } = needContext(context);
      const texts: Record<string, string> = {};
      for (const id of ids) {
        const key = `${NAIVE_CACHE}${id}`;
        if (state.get<string>(key) === undefined) {
          const report = byId.get(id);
          if (report === undefined) throw new Error(`no report ${id}`);
          state.set(key, report.text);
        }
        texts[id] = state.get<string>(key) ?? '';
      }
      return { reports: texts };
    },
  });
  const calculate = new FunctionTool({
    name: 'calculate_with_state',
    description: tool(analysis, 'calculate_with_state'),
    parameters: z.object({ ids: z.array(z.string()), figure: z.string() }),
    execute: ({ ids, figure }, context) => {
      const { state } = needContext(context);
      let sum = 0;
      const missing: string[] = [];
      for (const id of ids) {
        const text = state.get<string>(`${NAIVE_CACHE}${id}`);
        const value = text === undefined ? undefined : new RegExp(`^${figure}: ([\\d.]+)$`, 'm').exec(text)?.[1];
        if (value === undefined) missing.push(id);
        else sum += Number(value);
      }
      return missing.length > 0
        ? { error: `not loaded or without ${figure}: ${missing.join(', ')}` }
        : { figure, sum: Math.round(sum * 10) / 10 };
    },
  });
  const saveResult = new FunctionTool({
    name: 'save_result',
    description: tool(analysis, 'save_result'),
    parameters: z.object({ task_id: z.string(), result: z.string() }),
    execute: ({ task_id, result }, context) => {
      needContext(context).state.set(`${RESULT_PREFIX}${task_id}`, result);
      return { result: `Saved result ${task_id}.` };
    },
  });
  const listResults = new FunctionTool({
    name: 'list_results',
    description: tool(analysis, 'list_results'),
    parameters: z.object({}),
    execute: (_args, context) => {
      const state = needContext(context).state.toRecord();
      const results = Object.fromEntries(
        Object.keys(state)
          .filter((key) => key.startsWith(RESULT_PREFIX))
          .sort()
          .map((key) => [key.slice(RESULT_PREFIX.length), String(state[key])]),
      );
      return { results };
    },
  });
  // ADK's own way to end: escalate, and skip the summarizing call, so the tool's response is the final event.
  const finish = new FunctionTool({
    name: 'finish',
    description: tool(analysis, 'finish'),
    execute: (_args, context) => {
      const { actions } = needContext(context);
      actions.escalate = true;
      actions.skipSummarization = true;
      return { done: true };
    },
  });

  const analysisAgent = new LlmAgent({
    name: analysis.name,
    description: analysis.description,
    instruction: instruction(analysis),
    model,
    tools: [getReports, calculate, saveResult, listResults, finish],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
    beforeModelCallback: capture,
  });
  return new LlmAgent({
    name: planning.name,
    description: planning.description,
    instruction: instruction(planning),
    model,
    tools: [search],
    subAgents: [analysisAgent],
    beforeModelCallback: capture,
  });
}

/** Runs the naive analyst once on ADK; returns every model call (as ADK sent it) and the final answer. */
export async function runAdkAnalyst(reports: readonly Report[]): Promise<{ calls: AdkCall[]; answer: string }> {
  setLogLevel(LogLevel.ERROR);
  const model = new ScriptedAnalystLlm();
  const captured: { agentName: string; request: LlmRequest }[] = [];
  const capture: SingleBeforeModelCallback = ({ context, request }) => {
    captured.push({ agentName: context.agentName, request: fromAdkRequest(request) });
    return undefined;
  };
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent: buildAdkAnalyst(reports, model, capture), sessionService });
  const session = await sessionService.createSession({ appName: APP, userId: USER });
  const events: AdkEvent[] = [];
  for await (const event of runner.runAsync({
    userId: USER,
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text: QUESTION }] },
  })) {
    if (event.errorCode !== undefined)
      throw new Error(`ADK run failed: ${event.errorCode} ${event.errorMessage ?? ''}`);
    events.push(event);
  }

  // What the callback caught is what the model was sent: same count, same agents, same requests.
  if (captured.length !== model.seen.length)
    throw new Error(`ADK's callback caught ${captured.length} requests, the model answered ${model.seen.length}`);
  const calls = captured.map((each, index): AdkCall => {
    const seen = model.seen[index];
    if (
      seen === undefined ||
      seen.agentName !== each.agentName ||
      JSON.stringify(seen.request) !== JSON.stringify(each.request)
    ) {
      throw new Error(`call ${index + 1}: the request ADK's callback caught is not the one the model got`);
    }
    return { agentName: each.agentName, request: each.request, response: seen.response };
  });
  const answer = [...events]
    .reverse()
    .find(
      (event) =>
        event.author === 'analysis_agent' &&
        event.content?.parts?.some((part) => typeof part.text === 'string' && part.thought !== true),
    )
    ?.content?.parts?.flatMap((part) => (typeof part.text === 'string' && part.thought !== true ? [part.text] : []))
    .join('');
  return { calls, answer: answer ?? '' };
}

/** One provider's bill of the calls: each billed in order as that provider would (nothing marked), then priced. */
export async function priceAdkCalls(calls: readonly AdkCall[], provider: Provider): Promise<AdkProviderCost> {
  const billing = createBilling({ provider, anthropic: false, openai: false });
  const rows = [];
  for (const call of calls)
    rows.push(
      costOfCall(
        { provider, modelId: PRICED_MODEL[provider] },
        await billing.bill(call.request, { agentName: call.agentName }, call.response),
        DEFAULT_PRICES,
      ),
    );
  const total = sumCosts(rows);
  if (total.usd === undefined || total.unpricedCalls > 0)
    throw new Error(
      `${total.unpricedCalls} of the ADK run's calls could not be priced under ${provider}:${PRICED_MODEL[provider]}`,
    );
  return {
    usd: round(total.usd, 4),
    promptTokens: total.promptTokens,
    cacheHitRatio: round(total.cacheHitRatio, 3),
    calls: total.calls,
  };
}

/** The @google/adk row: the naive analyst run on ADK, checked for the right answer, billed under every provider. */
export async function adkAnalystRow(reports: readonly Report[]): Promise<AdkRow> {
  const { calls, answer } = await runAdkAnalyst(reports);
  const expected = expectedAnswer(reports);
  if (!answer.endsWith(expected))
    throw new Error(
      `the ADK analyst answered wrongly after ${calls.length} calls: ${JSON.stringify(answer)} (expected ${expected})`,
    );
  const providers = Object.fromEntries(
    await Promise.all(PROVIDERS.map(async (provider) => [provider, await priceAdkCalls(calls, provider)])),
  ) as Record<Provider, AdkProviderCost>;
  return { version: await adkVersion(), mode: 'naive', calls: calls.length, answerCorrect: true, providers };
}

async function adkVersion(): Promise<string> {
  // The package's exports do not include its package.json; find it next to the resolved entry point.
  const entry = createRequire(import.meta.url).resolve('@google/adk');
  const root = entry.slice(0, entry.lastIndexOf('/dist/'));
  const { version } = JSON.parse(await readFile(`${root}/package.json`, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error(`no version in ${root}/package.json`);
  return version;
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));
