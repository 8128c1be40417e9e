import type { Source } from '../contracts/source.js';
import type { CacheLocation, CallCacheEntry, SessionCacheReport } from '../analysis/cache/cache-types.js';
import { plural } from './format-request.js';
import type { Style } from './style.js';

// `inspect --session <id> --cache`: one line per call, how much of its agent's previous stable prefix it kept, and
// for a change where, why and how many tokens are billed again; `--call <n> --cache`: one call in detail.

/**
 * The session's calls, one line each:
 * `  #5  analysis_agent  prefix changed at system (instruction: {current_time} changed)  310 kept · 1,240 tokens re-billed`.
 */
export function formatCacheReport(report: SessionCacheReport, sessionId: string, style: Style): string {
  if (report.calls.length === 0) return `Session ${sessionId} has no recorded model calls.\n`;
  const labels = report.calls.map(agentLabel);
  const width = Math.max(...labels.map((label) => label.length));
  const numberWidth = Math.max(...report.calls.map((entry) => String(entry.index).length)) + 1;
  const lines = [
    style.bold(
      `Session ${sessionId} · prompt cache: each call against its agent's previous call (tokens: local o200k count)`,
    ),
  ];
  report.calls.forEach((entry, position) => {
    const head = `  ${`#${entry.index}`.padStart(numberWidth)}  ${(labels[position] as string).padEnd(width)}  `;
    lines.push(head + callSummary(entry, style));
  });
  const { totals } = report;
  const read = totals.keptTokens + totals.rebilledTokens;
  const share =
    read === 0 ? '' : ` (${Math.round((totals.rebilledTokens / read) * 100)}% of what could have been read)`;
  lines.push(
    `${plural(totals.calls, 'call')}: ${totals.kept} kept the prefix, ${totals.changed} changed it, ${totals.first} first of ${totals.first === 1 ? 'its' : 'their'} agent · ${count(totals.keptTokens)} tokens from the cache, ${count(totals.rebilledTokens)} re-billed${share}`,
    style.dim('Explain one with --call <n> --cache; the structure with --json.'),
  );
  return `${lines.join('\n')}\n`;
}

function callSummary(entry: CallCacheEntry, style: Style): string {
  const explanation = entry.explanation;
  if (explanation === undefined)
    return style.dim(`first call · stable prefix ${count(entry.stablePrefixTokens)} tokens`);
  if (explanation.difference === undefined)
    return `${style.green('prefix kept')}  ${count(explanation.tokens.kept)} tokens`;
  const { location, cause } = explanation.difference;
  return `${style.yellow(`prefix changed ${whereShort(location)}`)} (${cause.text})  ${count(explanation.tokens.kept)} kept · ${style.red(`${count(explanation.tokens.rebilled)} tokens re-billed`)}`;
}

/** One call against its agent's previous call: what changed, where, the tokens, and both sides' text there. */
export function formatCacheCall(entry: CallCacheEntry, sessionId: string, style: Style): string {
  const nested =
    entry.parent === undefined ? '' : ` inside tool call ${entry.parent.functionCallId} (${entry.parent.tool})`;
  const explanation = entry.explanation;
  if (explanation === undefined) {
    return `${style.bold(`Call ${entry.index} of session ${sessionId}: agent '${entry.agent}'${nested}`)}
the first call of its agent${entry.parent === undefined ? '' : ' in this tool call'}: nothing earlier to read from the cache.
Its stable prefix is ${count(entry.stablePrefixTokens)} tokens: what the agent's next call can read from the cache.\n`;
  }
  const lines = [
    style.bold(
      `Call ${entry.index} of session ${sessionId}: agent '${entry.agent}'${nested}, against call ${explanation.previous}, its agent's previous call`,
    ),
  ];
  const { prefix, tokens } = explanation;
  const shape = `${plural(prefix.tools, 'tool')}, ${count(prefix.systemChars)} system chars, ${plural(prefix.messages, 'message')}`;
  if (explanation.difference === undefined) {
    lines.push(
      `${style.green('prefix kept')}: all ${count(tokens.prefix)} tokens of call ${explanation.previous}'s stable prefix (${shape}) lead this call unchanged.`,
    );
    return `${lines.join('\n')}\n`;
  }
  const { location, cause, excerpt } = explanation.difference;
  lines.push(`${style.yellow(`prefix changed ${whereLong(location)}`)}: ${cause.text}`);
  if (cause.substitution !== undefined) {
    const { placeholder, key, previousValue, currentValue } = cause.substitution;
    lines.push(
      `  ${placeholder} (${key.startsWith('artifact.') ? key : `state key ${key}`}): ${JSON.stringify(previousValue)} → ${JSON.stringify(currentValue)}`,
    );
  }
  if (cause.order !== undefined)
    lines.push(`  tool order: ${cause.order.previous.join(', ')} → ${cause.order.current.join(', ')}`);
  if (cause.change !== undefined) lines.push(`  ${cause.change.previous} → ${cause.change.current}`);
  lines.push(
    `  source in call ${explanation.previous}: ${describeSource(cause.previousSource)}`,
    `  source in call ${explanation.current}: ${describeSource(cause.currentSource)}`,
  );
  lines.push(
    '',
    `call ${explanation.previous}'s stable prefix: ${shape} · ${count(tokens.prefix)} tokens`,
    `  kept       ${count(tokens.kept).padStart(8)} tokens  ${style.dim('read from the cache')}`,
    `  re-billed  ${count(tokens.rebilled).padStart(8)} tokens  ${style.dim(`from ${whereLong(location).replace(/^at /, '')} to the end of that prefix, at the full price`)}`,
  );
  if (location.where !== 'start') {
    const width = Math.max(String(explanation.previous).length, String(explanation.current).length);
    lines.push(
      '',
      style.dim(`text at the difference (${DIFF_MARK} marks it; ↵ is a line break):`),
      `  call ${String(explanation.previous).padEnd(width)}  ${side(excerpt.before, excerpt.previous, style)}`,
      `  call ${String(explanation.current).padEnd(width)}  ${side(excerpt.before, excerpt.current, style)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const DIFF_MARK = '┃';
const BEFORE_CHARS = 40;
const AFTER_CHARS = 60;

function side(before: string, after: string, style: Style): string {
  const head = before.length > BEFORE_CHARS ? `…${before.slice(-BEFORE_CHARS)}` : before;
  const tail =
    after === '' ? style.dim('(ends here)') : after.length > AFTER_CHARS ? `${after.slice(0, AFTER_CHARS)}…` : after;
  return `${oneLine(head)}${style.yellow(DIFF_MARK)}${oneLine(tail)}`;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, '↵').replace(/\t/g, ' ');
}

function whereShort(location: CacheLocation): string {
  switch (location.where) {
    case 'start':
      return 'from the start';
    case 'tools':
      return 'at tools';
    case 'system':
      return 'at system';
    case 'message':
      return `at messages[${location.message}]`;
  }
}

function whereLong(location: CacheLocation): string {
  switch (location.where) {
    case 'start':
      return 'from the start';
    case 'tools':
      return `at tools[${location.tool}]`;
    case 'system':
      return `at system @${location.offset}`;
    case 'message':
      return `at messages[${location.message}].content[${location.part}]`;
  }
}

function describeSource(source: Source | undefined): string {
  if (source === undefined) return 'none (that side ends there)';
  const field = source.field === undefined ? '' : `.${source.field}`;
  const extension = source.extension === undefined ? '' : ` (${source.extension})`;
  const ids = source.eventIds ?? [];
  const events =
    ids.length === 0
      ? ''
      : ` · ${ids.length === 1 ? 'event' : 'events'} ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` (+${ids.length - 3})` : ''}`;
  const note = source.note === undefined ? '' : ` — ${source.note}`;
  return `${source.kind} · ${source.agent}${field}${extension}${events}${note}`;
}

function agentLabel(entry: CallCacheEntry): string {
  return entry.parent === undefined ? entry.agent : `${entry.agent} via ${entry.parent.tool}`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** The JSON `inspect --session <id> --cache --json` prints: the session, the tokenizer and the report. */
export function cacheReportJson(
  report: SessionCacheReport,
  session: { appName: string; userId: string; sessionId: string },
  encoding: string,
): Record<string, unknown> {
  return { ...session, tokenizer: encoding, ...report };
}
