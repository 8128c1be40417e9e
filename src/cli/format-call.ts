import type { Usage } from '../contracts/event.js';
import type { ModelCallRecord, ModelCallStatus, ModelCallSummary, WireRecord } from '../contracts/model-call.js';
import { plural } from './format-request.js';
import type { Style } from './style.js';

/**
 * A session's recorded calls, one line each, calls made inside a tool call indented under the call that asked for
 * it: `  3  answered  researcher  412 ms · 1,204 in (800 cached) · 35 out · 2,310 chars`.
 */
export function formatCallTree(calls: readonly ModelCallSummary[], sessionId: string, style: Style): string {
  if (calls.length === 0) return `Session ${sessionId} has no recorded model calls.\n`;
  const children = new Map<number | undefined, ModelCallSummary[]>();
  const known = new Set(calls.map((call) => call.index));
  for (const call of calls) {
    // A call whose parent is not in the list (a hook answered in its place) is shown at the top.
    const parent =
      call.parent?.callIndex !== undefined && known.has(call.parent.callIndex) ? call.parent.callIndex : undefined;
    children.set(parent, [...(children.get(parent) ?? []), call]);
  }
  const lines: string[] = [];
  const walk = (parent: number | undefined, depth: number) => {
    for (const call of children.get(parent) ?? []) {
      const via = call.parent === undefined ? '' : style.dim(` via ${call.parent.tool}`);
      const indent = '   '.repeat(depth) + (depth > 0 ? '└ ' : '');
      const what = call.operation === 'embeddings' ? ` ${style.cyan('embeddings')}` : '';
      lines.push(
        `  ${String(call.index).padStart(3)}  ${statusText(call.status, style)}  ${indent}${call.agent}${via}${what}  ${style.dim(callFacts(call))}`,
      );
      walk(call.index, depth + 1);
    }
  };
  walk(undefined, 0);
  return `Session ${sessionId}: ${plural(calls.length, 'model call')}\n${lines.join('\n')}\nShow one with --call <n>; its wire body with --call <n> --wire.\n`;
}

/** Time, usage and size of a call, in a few words. */
function callFacts(call: ModelCallSummary): string {
  const facts: string[] = [];
  if (call.latencyMs !== undefined) facts.push(`${formatMs(call.latencyMs)}`);
  if (call.usage !== undefined) facts.push(usageText(call.usage));
  facts.push(`${call.requestChars} chars`);
  return facts.join(' · ');
}

/** What came back, how long it took and what it used: the lines `inspect --call` prints after the request. */
export function formatAnswer(record: ModelCallRecord, style: Style): string {
  const lines: string[] = [style.bold(`ANSWER · ${statusText(record.status, style, false)}`)];
  const bar = style.dim('│');
  const billedAs = record.model?.billedAs;
  const model =
    record.model === undefined
      ? ''
      : `${record.model.provider}:${record.model.modelId}${billedAs === undefined ? '' : ` (usage simulated as ${billedAs.provider}:${billedAs.modelId} bills it)`}`;
  const timing = [
    record.latencyMs === undefined ? undefined : `latency ${formatMs(record.latencyMs)}`,
    record.firstTokenMs === undefined ? undefined : `first token ${formatMs(record.firstTokenMs)}`,
  ].filter((fact) => fact !== undefined);
  if (model !== '' || timing.length > 0)
    lines.push(`${bar} ${[model, ...timing].filter((fact) => fact !== '').join(' · ')}`);
  if (record.usage !== undefined) lines.push(`${bar} usage: ${usageText(record.usage, true)}`);
  if (record.status === 'pending')
    lines.push(`${bar} ${style.yellow('no answer was recorded: the process ended while the call was under way')}`);
  if (record.error !== undefined) lines.push(`${bar} ${style.red(record.error)}`);
  const response = record.response;
  if (response !== undefined) {
    if (response.finishReason !== undefined) lines.push(`${bar} finish reason: ${response.finishReason}`);
    if (response.errorCode !== undefined)
      lines.push(`${bar} ${style.red(`${response.errorCode}: ${response.errorMessage ?? ''}`)}`);
    for (const part of response.content?.parts ?? []) {
      if ('text' in part) lines.push(...prefixed(part.thought === true ? `(thought) ${part.text}` : part.text, bar));
      else if ('functionCall' in part)
        lines.push(
          `${bar} call ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})${part.functionCall.id === undefined ? '' : ` id=${part.functionCall.id}`}`,
        );
      else lines.push(`${bar} ${style.dim('[data part]')}`);
    }
  }
  if (record.responseEventId !== undefined) lines.push(`${bar} ${style.dim(`event ${record.responseEventId}`)}`);
  if (record.wire !== undefined) {
    lines.push(`${bar} ${style.dim(`wire: ${wireLine(record.wire)} (see it with --wire)`)}`);
    const held = heldByServer(record.wire);
    if (held !== undefined) lines.push(`${bar} ${style.yellow(held)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The wire record for a person: where it went, then the body exactly as sent, then the provider's usage. */
export function formatWire(wire: WireRecord, header: string, style: Style): string {
  const held = heldByServer(wire);
  const lines = [style.bold(header), style.dim(wireLine(wire)), ...(held === undefined ? [] : [style.yellow(held)])];
  lines.push('', wire.body);
  if (wire.usage !== undefined) lines.push('', style.dim(`provider usage: ${JSON.stringify(wire.usage)}`));
  return `${lines.join('\n')}\n`;
}

/**
 * What a body that continues a response the provider stores (OpenAI's `previous_response_id`) leaves out, said
 * plainly: the server holds the conversation before it, so the body is not the whole of what the model read.
 */
function heldByServer(wire: WireRecord): string | undefined {
  let id: unknown;
  try {
    id = (JSON.parse(wire.body) as { previous_response_id?: unknown } | null)?.previous_response_id;
  } catch {
    return undefined;
  }
  return typeof id === 'string' && id !== ''
    ? `the server holds the conversation up to response ${id} (previous_response_id): this body carries only what came after it`
    : undefined;
}

function wireLine(wire: WireRecord): string {
  const status = wire.status === undefined ? 'no answer' : `status ${wire.status}`;
  return `${wire.method} ${wire.url} · ${status} · ${plural(wire.attempts, 'attempt')} · ${wire.body.length} chars`;
}

/** `1,204 in (800 cached) · 35 out`, with cache writes and reasoning when given. */
export function usageText(usage: Usage, long = false): string {
  const input: string[] = [];
  if (usage.cachedTokens !== undefined && usage.cachedTokens > 0) input.push(`${count(usage.cachedTokens)} cache read`);
  if (usage.cacheWriteTokens !== undefined && usage.cacheWriteTokens > 0)
    input.push(`${count(usage.cacheWriteTokens)} cache write`);
  const output =
    usage.reasoningTokens !== undefined && usage.reasoningTokens > 0
      ? ` (${count(usage.reasoningTokens)} reasoning)`
      : '';
  const parts = [
    usage.promptTokens === undefined
      ? undefined
      : `${count(usage.promptTokens)} in${input.length === 0 ? '' : ` (${input.join(', ')})`}`,
    usage.outputTokens === undefined ? undefined : `${count(usage.outputTokens)} out${output}`,
    long && usage.totalTokens !== undefined ? `${count(usage.totalTokens)} total` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join(' · ') || 'no counts';
}

export function statusText(status: ModelCallStatus, style: Style, pad = true): string {
  const padded = pad ? status.padEnd(9) : status;
  if (status === 'answered') return style.green(padded);
  if (status === 'pending' || status === 'aborted') return style.yellow(padded);
  return style.red(padded);
}

export function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function prefixed(text: string, bar: string): string[] {
  return text.split('\n').map((line) => `${bar} ${line}`);
}
