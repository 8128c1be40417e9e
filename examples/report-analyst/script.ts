// The offline model for the analyst: rules that read the request they receive, as a model would. It takes the
// revenue of each report from the report text it finds (in the instruction when paged, in the last tool result
// when naive), so its answer is right only if the reports really reached it.
import type { LlmRequest, Part } from 'agentctx';
import type { Script, ScriptCall, ScriptedResponse } from 'agentctx/models/scripted';
import type { Mode } from './agents.js';
import { formatAnswer, QUESTION } from './reports.js';

const BATCH = 10;

export function analystScript(mode: Mode): Script {
  return {
    rules: [
      {
        when: (_request, call) => call.agentName === 'planning_agent' && lastPart(_request) === undefined,
        respond: { functionCall: { name: 'search_reports', args: { query: '2025 regional reports' } } },
      },
      {
        when: (request, call) => call.agentName === 'planning_agent' && isResponse(lastPart(request), 'search_reports'),
        respond: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'analysis_agent' } } },
      },
      {
        when: (_request, call: ScriptCall) => call.agentName === 'analysis_agent',
        respond: (request) => analyze(request, mode),
      },
    ],
  };
}

function analyze(request: LlmRequest, mode: Mode): ScriptedResponse {
  const all = allIds(request);
  // Paged into the system text, finished batches leave the history and their results are listed in the instruction;
  // otherwise the save_result calls stay in the history.
  const saved = mode === 'paged-system' ? savedInInstruction(request) : savedResults(request);
  const last = lastPart(request);
  if (isResponse(last, 'get_reports')) {
    return { functionCall: { name: 'calculate_with_state', args: { ids: currentBatch(request), figure: 'Costs' } } };
  }
  if (last !== undefined && isResponse(last, 'calculate_with_state')) {
    const batch = currentBatch(request);
    const texts =
      mode === 'naive'
        ? lastResponseWith(request, 'get_reports')
        : mode === 'paged-system'
          ? request.system
          : pageInMessages(request);
    const revenue = batch.reduce((sum, id) => sum + (revenueOf(texts, id) ?? 0), 0);
    const costs = Number((last.functionResponse.response as { sum?: number } | undefined)?.sum ?? 0);
    const result = `reports=${batch.length}; revenue=${revenue.toFixed(1)}; costs=${costs.toFixed(1)}`;
    return { functionCall: { name: 'save_result', args: { task_id: `batch-${saved.length + 1}`, result } } };
  }
  const done = saved.length * BATCH;
  if (done < all.length) return { functionCall: { name: 'get_reports', args: { ids: all.slice(done, done + BATCH) } } };
  const totals = saved.reduce(
    (sum, result) => ({
      count: sum.count + figure(result, 'reports'),
      revenue: sum.revenue + figure(result, 'revenue'),
      costs: sum.costs + figure(result, 'costs'),
    }),
    { count: 0, revenue: 0, costs: 0 },
  );
  return {
    text: `${QUESTION}\n${formatAnswer(totals.count, totals.revenue, totals.costs)}`,
    functionCall: { name: 'finish' },
  };
}

type ResponsePart = Extract<Part, { functionResponse: unknown }>;

// The latest tool result: the last one in the user turns after the model's last turn (a page may follow it).
function lastPart(request: LlmRequest): ResponsePart | undefined {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message === undefined || message.role === 'model') return undefined;
    const part = [...message.content].reverse().find((candidate) => 'functionResponse' in candidate);
    if (part !== undefined) return part as ResponsePart;
  }
  return undefined;
}

function isResponse(part: ResponsePart | undefined, name: string): boolean {
  return part !== undefined && part.functionResponse.name === name;
}

// The search result reaches the analysis agent as the planning agent's turn, retold in its history.
function allIds(request: LlmRequest): string[] {
  const text = JSON.stringify(request.messages);
  const match = /search_reports` tool returned result: (\{.*?\]\})/.exec(text.replace(/\\"/g, '"'));
  return match?.[1] === undefined ? [] : ((JSON.parse(match[1]) as { ids: string[] }).ids ?? []);
}

function savedResults(request: LlmRequest): string[] {
  return request.messages.flatMap((message) =>
    message.content.flatMap((part) =>
      'functionCall' in part && part.functionCall.name === 'save_result'
        ? [String(part.functionCall.args?.['result'] ?? '')]
        : [],
    ),
  );
}

function savedInInstruction(request: LlmRequest): string[] {
  const block = /--- SAVED RESULTS \(\d+\) ---\n([\s\S]*?)\n--- END SAVED RESULTS ---/.exec(request.system)?.[1];
  return block === undefined ? [] : block.split('\n').map((line) => line.slice(line.indexOf(': ') + 2));
}

function currentBatch(request: LlmRequest): string[] {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    for (const part of request.messages[index]?.content ?? []) {
      if ('functionCall' in part && part.functionCall.name === 'get_reports')
        return (part.functionCall.args?.['ids'] as string[]) ?? [];
    }
  }
  return [];
}

// The page sits in the history as a text turn after its receipt.
function pageInMessages(request: LlmRequest): string {
  return request.messages
    .flatMap((message) =>
      message.content.flatMap((part) =>
        'text' in part && part.text.startsWith('--- BEGIN REPORTS') ? [part.text] : [],
      ),
    )
    .join('\n');
}

function lastResponseWith(request: LlmRequest, name: string): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    for (const part of request.messages[index]?.content ?? [])
      if ('functionResponse' in part && part.functionResponse.name === name)
        return JSON.stringify(part.functionResponse.response);
  }
  return '';
}

// A report's revenue as it appears in a text: the instruction's page ("### rpt-001 … Revenue: 123.4") or a tool result.
function revenueOf(text: string, id: string): number | undefined {
  const plain = text.replace(/\\n/g, '\n');
  const start = plain.indexOf(`Report ${id} `);
  if (start === -1) return undefined;
  const value = /^Revenue: ([\d.]+)$/m.exec(plain.slice(start))?.[1];
  return value === undefined ? undefined : Number(value);
}

function figure(result: string, name: string): number {
  return Number(new RegExp(`${name}=([\\d.]+)`).exec(result)?.[1] ?? 0);
}
