import type { CompactionPlan } from '../contracts/compaction.js';
import type { Part } from '../contracts/content.js';
import type { Event } from '../contracts/event.js';
import type { CompactionPreview } from './compaction-preview.js';
import { plural } from './format-request.js';
import type { Style } from './style.js';

/** The widest an event's line gets, id and author included, unless they alone take most of it. */
const LINE_CHARS = 120;

/**
 * `{ "compactions": [ … ] }`: an empty list when nothing is due; each compaction leads with `startTimestamp`,
 * `endTimestamp` and `eventIds`, as the compaction event records them, then what the dry run worked out.
 */
export function compactionJson(preview: CompactionPreview, extra: Record<string, unknown> = {}): string {
  const { plan } = preview;
  const compactions =
    plan === undefined
      ? []
      : [
          {
            startTimestamp: plan.startTimestamp,
            endTimestamp: plan.endTimestamp,
            eventIds: [...plan.eventIds],
            trigger: plan.trigger,
            eventCount: plan.events.length,
            ...(plan.promptTokens === undefined ? {} : { promptTokens: plan.promptTokens }),
            tokensBefore: preview.tokensBefore,
            ...(preview.tokensAfter === undefined ? {} : { tokensAfter: preview.tokensAfter }),
            ...(preview.afterFailure === undefined ? {} : { requestAfter: { error: preview.afterFailure } }),
            ...extra,
          },
        ];
  return `${JSON.stringify({ compactions }, null, 2)}\n`;
}

/** A dry run for a person: the configuration, the measure, what is due and every event it would summarize. */
export function formatPreview(
  preview: CompactionPreview,
  title: string,
  style: Style,
  footer = 'Dry run: nothing was written.',
): string {
  const lines = [style.bold(title), ...settingLines(preview, style), ''];
  const { plan } = preview;
  if (plan === undefined) lines.push('Nothing is due now:', ...notDueLines(preview));
  else {
    lines.push(...planLines(plan, style), '');
    const after = preview.tokensAfter;
    if (preview.afterFailure !== undefined) {
      lines.push(
        `Tokens of ${preview.counted}: ${preview.tokensBefore} now; after this compaction no request can be built:`,
      );
      lines.push(`  ${style.yellow(preview.afterFailure)}`);
      lines.push(
        style.dim(
          '  (ADK summarizes by time range, which can leave a response without its call; agentctx rules keep pairs together)',
        ),
      );
    } else if (after === undefined)
      lines.push(
        `Tokens of ${preview.counted}: ${preview.tokensBefore} (the extractive summarizer had nothing to say)`,
      );
    else {
      lines.push(
        `Tokens of ${preview.counted}: ${preview.tokensBefore} → ${style.bold(String(after))} (${signed(after - preview.tokensBefore)}) after the summary`,
      );
      lines.push(
        style.dim(
          "  (the after-estimate uses the extractive summary, made offline; a model's summary will differ in length)",
        ),
      );
    }
  }
  lines.push('', style.dim(footer));
  return `${lines.join('\n')}\n`;
}

/** A compaction just stored. */
export function formatCompacted(
  preview: CompactionPreview,
  stored: Event,
  summarizer: string,
  title: string,
  style: Style,
): string {
  const plan = preview.plan as CompactionPlan;
  const lines = [style.bold(title), ...settingLines(preview, style), '', ...planLines(plan, style), ''];
  lines.push(
    `${style.green('Compacted:')} the ${summarizer} summarizer wrote the summary; compaction event ${stored.id} was appended to the session.`,
  );
  if (preview.tokensAfter !== undefined)
    lines.push(
      `Tokens of ${preview.counted}: ${preview.tokensBefore} → ${style.bold(String(preview.tokensAfter))} (${signed(preview.tokensAfter - preview.tokensBefore)})`,
    );
  lines.push(style.dim('The raw events stay in the store; requests show the summary in their place.'));
  return `${lines.join('\n')}\n`;
}

function settingLines(preview: CompactionPreview, style: Style): string[] {
  const { config } = preview;
  const lines = [`  rules:           ${preview.adk ? 'ADK (the adk profile)' : 'agentctx'}`];
  if (config.compactionInterval !== undefined) {
    lines.push(
      `  sliding window:  every ${plural(config.compactionInterval, 'invocation')}, reaching ${config.overlapSize ?? 0} back`,
    );
  }
  if (config.tokenThreshold !== undefined) {
    lines.push(
      `  token threshold: ${config.tokenThreshold} tokens, keeping the last ${plural(config.eventRetentionSize ?? 0, 'event')}`,
    );
  }
  if (preview.prompt !== undefined) {
    const tokens = preview.prompt.tokens === undefined ? 'unknown' : `${preview.prompt.tokens} tokens`;
    lines.push(`  prompt:          ${tokens} ${style.dim(`(${preview.prompt.how})`)}`);
  }
  return lines;
}

function planLines(plan: CompactionPlan, style: Style): string[] {
  const trigger =
    plan.trigger === 'token_threshold'
      ? `token_threshold (the prompt reached ${plan.promptTokens ?? '?'} tokens)`
      : 'sliding_window (enough finished invocations since the last summary)';
  const range = `timestamps ${timestamp(plan.startTimestamp)} – ${timestamp(plan.endTimestamp)}`;
  const lines = [
    `${style.bold('Due now:')} ${trigger}`,
    `  summarizes ${plural(plan.events.length, 'event')} · ${range}`,
  ];
  const idWidth = Math.max(...plan.events.map((event) => event.id.length));
  const authorWidth = Math.max(...plan.events.map((event) => event.author.length));
  const previewChars = Math.max(40, LINE_CHARS - 8 - idWidth - authorWidth);
  for (const event of plan.events)
    lines.push(
      `    ${style.dim(event.id.padEnd(idWidth))}  ${event.author.padEnd(authorWidth)}  ${eventPreview(event, previewChars)}`,
    );
  if (plan.seed !== undefined) {
    lines.push(
      style.dim(
        `    + the previous summary (${plural(plan.eventIds.length - plan.events.length, 'event')}) is folded into the new one`,
      ),
    );
  }
  return lines;
}

function notDueLines(preview: CompactionPreview): string[] {
  const { config, prompt } = preview;
  const lines: string[] = [];
  if (config.tokenThreshold !== undefined) {
    if (prompt?.tokens === undefined) lines.push('  token threshold: the prompt size is unknown');
    else if (prompt.tokens < config.tokenThreshold)
      lines.push(`  token threshold: the prompt (${prompt.tokens} tokens) is below ${config.tokenThreshold}`);
    else
      lines.push(
        `  token threshold: reached, but nothing older than the last ${plural(config.eventRetentionSize ?? 0, 'event')} is left to summarize`,
      );
  }
  if (config.compactionInterval !== undefined)
    lines.push(
      `  sliding window: fewer than ${plural(config.compactionInterval, 'finished invocation')} since the last summary`,
    );
  return lines;
}

/** One line for an event: its text, or the tools it calls and what they returned, shortened to `maxChars`. */
export function eventPreview(event: Event, maxChars: number): string {
  const parts = (event.content?.parts ?? []).map(partPreview).filter((text) => text !== '');
  if (event.errorCode !== undefined) parts.unshift(`✗ ${event.errorCode}`);
  const text = parts.length === 0 ? '(no content)' : parts.join(' · ');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

function partPreview(part: Part): string {
  if ('text' in part) return part.thought === true ? '' : part.text;
  if ('functionCall' in part) return `→ ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`;
  if ('functionResponse' in part)
    return `← ${part.functionResponse.name}: ${JSON.stringify(part.functionResponse.response ?? null)}`;
  return '[data]';
}

function timestamp(seconds: number): string {
  return seconds >= 1e9 ? new Date(seconds * 1000).toISOString() : String(seconds);
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '±0';
}
