// The report analyst: a planning agent finds the reports, an analysis agent reads them in batches, computes, saves a
// result per batch and answers from the saved results. "paged" reads through instruction paging (bodies in state,
// the current batch in the prompt after its page-in, where a prompt cache keeps it); "paged-system" pages into the
// system text instead; "naive" returns the bodies into the history, as a plain tool would.
import { functionTool, llmAgent, type AgentDefinition, type Extension, type Tool, type ToolContext } from 'agentctx';
import { paging } from 'agentctx/paging';
import type { Processor } from 'agentctx/pipeline';
import { z } from 'zod';
import type { Report } from './reports.js';

export type Mode = 'paged' | 'paged-system' | 'naive';

export type AnalystOptions = {
  mode: Mode;
  reports: readonly Report[];
  /** For the proof that paging carries the data: page in, but never put the bodies in the instruction. */
  breakPageIn?: boolean;
  /** Counts every report fetch, to check each is loaded at most once per invocation. */
  onLoad?: (id: string) => void;
};

const NAIVE_CACHE = 'temp:naive:report:';

// Broken on purpose, for the proof that paging carries the data: the batch is paged in, but its text never
// reaches the prompt (everything else, the saved results included, works as usual).
function withoutPages(workingSetKey: string): Extension {
  const page = `state ${workingSetKey}`;
  const dropPages: Processor = {
    name: 'drop-pages',
    process: (draft) => ({
      ...draft,
      systemBlocks: draft.systemBlocks.filter((block) => block.source.field !== page),
      messages: draft.messages.filter((entry) => !entry.sources.some((source) => source.field === page)),
    }),
  };
  return { name: 'drop-pages', processors: [{ processor: dropPages, after: 'paging:reports:history' }] };
}

export function buildAnalyst(options: AnalystOptions): AgentDefinition {
  const byId = new Map(options.reports.map((report) => [report.id, report]));
  const fetchReport = (id: string): string => {
    const report = byId.get(id);
    if (report === undefined) throw new Error(`no report ${id}`);
    options.onLoad?.(id);
    return report.text;
  };

  const search = functionTool({
    name: 'search_reports',
    description: 'Finds the ids of the reports that match a query. Returns ids only.',
    parameters: z.object({ query: z.string() }),
    execute: ({ query }) => {
      const year = /20\d\d/.exec(query)?.[0];
      const ids = options.reports
        .filter((report) => year === undefined || report.quarter.startsWith(year))
        .map((report) => report.id);
      return { count: ids.length, ids };
    },
  });

  const paged = options.mode !== 'naive';
  const reports = paging({
    name: 'reports',
    description: 'quarterly reports',
    maxPerRead: 10,
    load: (id) => fetchReport(id),
    batchTools: ['calculate_with_state'],
    placement: options.mode === 'paged-system' ? 'system' : 'history',
  });
  const naiveGet = functionTool({
    name: 'get_reports',
    description: 'Returns the full text of up to 10 reports.',
    parameters: z.object({ ids: z.array(z.string()).max(10) }),
    execute: ({ ids }, context) => {
      const texts: Record<string, string> = {};
      for (const id of ids) {
        const key = `${NAIVE_CACHE}${id}`;
        if (!context.state.has(key)) context.state.set(key, fetchReport(id));
        texts[id] = context.state.get<string>(key) ?? '';
      }
      return { reports: texts };
    },
  });

  // calculate_with_state: arithmetic over report bodies that are already in state, not in the history.
  const calculate = functionTool({
    name: 'calculate_with_state',
    description:
      'Sums one figure (for example Costs) over reports that were loaded in this turn, reading them from state.',
    parameters: z.object({ ids: z.array(z.string()), figure: z.string() }),
    execute: ({ ids, figure }, context: ToolContext) => {
      let sum = 0;
      const missing: string[] = [];
      for (const id of ids) {
        const text = context.state.get<string>(paged ? reports.pageKey(id) : `${NAIVE_CACHE}${id}`);
        const value = text === undefined ? undefined : new RegExp(`^${figure}: ([\\d.]+)$`, 'm').exec(text)?.[1];
        if (value === undefined) missing.push(id);
        else sum += Number(value);
      }
      return missing.length > 0
        ? { error: `not loaded or without ${figure}: ${missing.join(', ')}` }
        : { figure, sum: Math.round(sum * 10) / 10 };
    },
  });

  const finish: Tool = functionTool({
    name: 'finish',
    description: 'Ends the analysis and hands the answer to the user.',
    execute: (_args, context) => {
      context.actions.escalate = true;
      context.actions.skipSummarization = true;
      return { done: true };
    },
  });

  // Paged, the paging extension offers get_reports, save_result and list_results and places its processors.
  const analysisTools: Tool[] = paged
    ? [calculate, finish]
    : [naiveGet, calculate, reports.saveResult, reports.listResults, finish];
  const analysis = llmAgent({
    name: 'analysis_agent',
    description: 'Reads reports in batches, computes figures and answers with totals.',
    instruction:
      'You analyze quarterly reports. Read them in batches of at most 10, compute what the question needs, save one result per batch with save_result, and when every report is done answer with the totals and call finish.',
    tools: analysisTools,
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
    ...(paged
      ? { extensions: options.breakPageIn === true ? [reports, withoutPages(reports.workingSetKey)] : [reports] }
      : {}),
  });
  return llmAgent({
    name: 'planning_agent',
    description: 'Finds the reports that answer a question.',
    instruction: 'Find the reports that answer the question with search_reports, then transfer to analysis_agent.',
    tools: [search],
    subAgents: [analysis],
  });
}
