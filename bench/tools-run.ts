// Runs the 50 tasks of bench:tools through agentctx's real runner twice: with every tool definition in every request
// (all-tools), and with the five toolsets deferred behind `toolSearch()` (deferred). A scripted model plays the agent:
// all-tools, it calls the tools a task needs at once; deferred, it first searches with the task's own words for each
// tool (never the tool's name), then calls the tools. Every request is measured as sent: its prompt tokens and its
// tool definitions' tokens (agentctx's local o200k count), and whether each tool the model calls is in it.
import { createRunner, llmAgent, type LlmRequest } from 'agentctx';
import { createScriptedModel, lastUserText, type ScriptedResponse } from 'agentctx/models/scripted';
import { countRequestTokens, loadTokenCounter, type TokenCounter } from 'agentctx/tokens';
import { SEARCH_TOOLS, toolSearch } from 'agentctx/tools';
import { generateToolsets, type BenchToolset } from './tools-generate.js';
import { TASKS, type Task } from './tools-tasks.js';

export type Mode = 'all-tools' | 'deferred';
export const MODES: readonly Mode[] = ['all-tools', 'deferred'];
const INSTRUCTION =
  'You are an engineering assistant. Use the tools for GitHub, Slack, Jira, Sentry and Grafana to do what the user asks, then say what you did.';

/** One model call: its task, its step in the task, and what its request held. */
export type CallRecord = {
  task: number;
  step: 'search' | 'tools' | 'answer';
  promptTokens: number;
  definitionTokens: number;
  tools: number;
};
/** A tool the model called when the request did not offer it. */
export type Miss = { task: number; tool: string };
export type ModeRun = {
  mode: Mode;
  calls: CallRecord[];
  missed: Miss[];
  searches: number;
  loaded: number;
  ranks: number[];
};

// agentctx's counter, remembering the texts it counted: the same 152 definitions come back in every all-tools request.
function rememberingCounter(counter: TokenCounter): TokenCounter {
  const counts = new Map<string, number>();
  return {
    encoding: counter.encoding,
    count: (text) => {
      let count = counts.get(text);
      if (count === undefined) counts.set(text, (count = counter.count(text)));
      return count;
    },
  };
}

const functionResponses = (request: LlmRequest) =>
  (request.messages.at(-1)?.content ?? []).flatMap((part) =>
    'functionResponse' in part ? [part.functionResponse] : [],
  );

// Arguments for a call: every required parameter of the definition the request offers, with a plausible value.
function argsFor(request: LlmRequest, name: string): Record<string, unknown> {
  const schema = request.tools.find((tool) => tool.name === name)?.parameters as
    | { properties?: Record<string, { type?: string }>; required?: string[] }
    | undefined;
  const args: Record<string, unknown> = {};
  for (const key of schema?.required ?? []) {
    const type = schema?.properties?.[key]?.type;
    args[key] = type === 'integer' ? 42 : type === 'boolean' ? true : type === 'array' ? ['acme'] : `${key}-value`;
  }
  return args;
}

/** Runs the tasks in one mode; `onTask` hears of each task done. */
export async function runMode(
  mode: Mode,
  options: { toolsets: BenchToolset[]; counter: TokenCounter; tasks?: readonly Task[]; onTask?: (task: Task) => void },
): Promise<ModeRun> {
  const tasks = options.tasks ?? TASKS;
  const byText = new Map(tasks.map((task) => [task.text, task]));
  const run: ModeRun = { mode, calls: [], missed: [], searches: 0, loaded: 0, ranks: [] };
  const record = (request: LlmRequest, task: Task, step: CallRecord['step']) => {
    const count = countRequestTokens(request, options.counter);
    run.calls.push({
      task: task.id,
      step,
      promptTokens: count.total,
      definitionTokens: count.tools.total,
      tools: request.tools.length,
    });
  };
  const callTools = (request: LlmRequest, task: Task): ScriptedResponse => {
    for (const need of task.needs)
      if (!request.tools.some((tool) => tool.name === need.tool)) run.missed.push({ task: task.id, tool: need.tool });
    return {
      functionCalls: task.needs.map((need, index) => ({
        id: `t${task.id}-${index}`,
        name: need.tool,
        args: argsFor(request, need.tool),
      })),
    };
  };
  const respond = (request: LlmRequest): ScriptedResponse => {
    const task = byText.get(lastUserText(request));
    if (task === undefined)
      throw new Error(`bench:tools: no task has the text ${JSON.stringify(lastUserText(request))}`);
    const responses = functionResponses(request);
    if (responses.length === 0) {
      if (mode === 'all-tools') {
        record(request, task, 'tools');
        return callTools(request, task);
      }
      record(request, task, 'search');
      run.searches += task.needs.length;
      return {
        functionCalls: task.needs.map((need, index) => ({
          id: `s${task.id}-${index}`,
          name: SEARCH_TOOLS,
          args: { query: need.words },
        })),
      };
    }
    if (responses.every((response) => response.name === SEARCH_TOOLS)) {
      responses.forEach((response, index) => {
        const loaded = Array.isArray(response.response?.['loaded']) ? (response.response['loaded'] as unknown[]) : [];
        run.loaded += loaded.length;
        run.ranks.push(loaded.indexOf(task.needs[index]?.tool));
      });
      record(request, task, 'tools');
      return callTools(request, task);
    }
    record(request, task, 'answer');
    return { text: `Done: ${task.needs.map((need) => need.tool).join(', ')}.` };
  };
  const model = createScriptedModel({ rules: [{ respond }] }, { record: false });
  const agent = llmAgent({
    name: 'assistant',
    instruction: INSTRUCTION,
    toolsets: options.toolsets.map((each) =>
      mode === 'deferred' ? { ...each.toolset, deferred: true } : each.toolset,
    ),
    extensions: mode === 'deferred' ? [toolSearch()] : [],
  });
  let id = 0;
  let time = 1_800_000_000;
  const runner = createRunner({ agents: agent, model, now: () => (time += 0.001), newId: () => `${mode}-${++id}` });
  for (const task of tasks) {
    const sessionId = `task-${task.id}`;
    await runner.createSession({ userId: 'bench', sessionId });
    for await (const event of runner.run({ userId: 'bench', sessionId, message: task.text })) {
      if (event.errorCode !== undefined)
        throw new Error(
          `bench:tools: task ${task.id} (${mode}) ended with ${event.errorCode}: ${event.errorMessage ?? ''}`,
        );
    }
    options.onTask?.(task);
  }
  return run;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** Both modes over the same toolsets, and the numbers bench:tools reports. */
export async function runToolsBench(
  options: { tasks?: readonly Task[]; onTask?: (mode: Mode, task: Task) => void } = {},
) {
  const counter = rememberingCounter(await loadTokenCounter());
  const toolsets = generateToolsets(counter, false);
  const tasks = options.tasks ?? TASKS;
  const runs = {} as Record<Mode, ModeRun>;
  for (const mode of MODES)
    runs[mode] = await runMode(mode, { toolsets, counter, tasks, onTask: (task) => options.onTask?.(mode, task) });
  const summary = (run: ModeRun) => ({
    calls: run.calls.length,
    tokensPerCall: round(mean(run.calls.map((call) => call.promptTokens))),
    definitionTokensPerCall: round(mean(run.calls.map((call) => call.definitionTokens))),
    definitionShare: round(mean(run.calls.map((call) => call.definitionTokens / call.promptTokens)), 4),
    tokensPerTask: round(run.calls.reduce((sum, call) => sum + call.promptTokens, 0) / tasks.length),
    toolsPerCall: round(mean(run.calls.map((call) => call.tools))),
    missed: run.missed,
  });
  const all = summary(runs['all-tools']);
  const deferred = summary(runs.deferred);
  const searchCalls = runs.deferred.calls.filter((call) => call.step === 'search');
  const ratio = round(deferred.definitionTokensPerCall / all.definitionTokensPerCall, 4);
  return {
    tasks: tasks.length,
    needs: tasks.reduce((sum, task) => sum + task.needs.length, 0),
    tools: toolsets.reduce((sum, each) => sum + each.tools.length, 0),
    toolsets: toolsets.map((each) => ({
      name: each.server.name,
      tools: each.tools.length,
      definitionTokens: each.tokens,
      tokensPerTool: round(each.tokens / each.tools.length),
      published: {
        tools: each.server.published.tools,
        tokens: each.server.published.tokens,
        tokensPerTool: round(each.server.published.tokens / each.server.published.tools),
        ...(each.server.published.note === undefined ? {} : { note: each.server.published.note }),
      },
    })),
    allToolsTokensPerCall: all.tokensPerCall,
    deferredTokensPerCall: deferred.tokensPerCall,
    allToolsDefinitionTokensPerCall: all.definitionTokensPerCall,
    deferredDefinitionTokensPerCall: deferred.definitionTokensPerCall,
    definitionRatio: ratio,
    allToolsDefinitionShare: all.definitionShare,
    deferredDefinitionShare: deferred.definitionShare,
    allToolsTokensPerTask: all.tokensPerTask,
    deferredTokensPerTask: deferred.tokensPerTask,
    allToolsCalls: all.calls,
    deferredCalls: deferred.calls,
    allToolsToolsPerCall: all.toolsPerCall,
    deferredToolsPerCall: deferred.toolsPerCall,
    searchToolTokens: mean(searchCalls.map((call) => call.definitionTokens)),
    searches: runs.deferred.searches,
    loadedPerSearch: round(runs.deferred.loaded / Math.max(1, runs.deferred.searches), 2),
    // Where each search put the tool its task needed: 1 is the best match; `notLoaded` is a search that missed it.
    neededToolRank: Object.fromEntries([
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        .map((rank) => [String(rank + 1), runs.deferred.ranks.filter((each) => each === rank).length] as const)
        .filter(([, count]) => count > 0),
      ['notLoaded', runs.deferred.ranks.filter((each) => each === -1).length],
    ]),
    missedTools: deferred.missed.length,
    missedToolsAllTools: all.missed.length,
    missed: deferred.missed,
    acceptance: {
      definitionRatioAtMost: 0.15,
      missedTools: 0,
      pass: ratio <= 0.15 && deferred.missed.length === 0 && all.missed.length === 0,
    },
    tokenizer: `${counter.encoding} (agentctx's local count of each request as sent)`,
  };
}

export type ToolsBenchResult = Awaited<ReturnType<typeof runToolsBench>>;
