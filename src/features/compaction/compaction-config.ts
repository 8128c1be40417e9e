import type { EventsCompactionConfig, SlidingWindow, TokenTrigger } from '../../contracts/compaction.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import type { Summarizer } from '../../contracts/summarizer.js';
import { JsonReader } from '../../engine/util/json-reader.js';

const FIELDS = ['compactionInterval', 'overlapSize', 'tokenThreshold', 'eventRetentionSize', 'summarizer'];
const SNAKE: Record<string, string> = {
  compaction_interval: 'compactionInterval',
  overlap_size: 'overlapSize',
  token_threshold: 'tokenThreshold',
  event_retention_size: 'eventRetentionSize',
};

/** ADK's validation, pair by pair, with its messages; throws a `ValidationError` listing every problem. */
export function parseCompactionConfig(value: unknown, subject = 'eventsCompactionConfig'): EventsCompactionConfig {
  const reader = new JsonReader();
  const raw = reader.object(
    value,
    '',
    'a mapping: compactionInterval, overlapSize, tokenThreshold, eventRetentionSize',
  );
  if (raw === undefined) throw new ValidationError({ subject, issues: reader.issues });
  const record = Object.fromEntries(Object.entries(raw).map(([key, item]) => [SNAKE[key] ?? key, item]));
  reader.keys(record, '', FIELDS);
  const config: EventsCompactionConfig = {};
  const interval = reader.number(record, 'compactionInterval', '', { optional: true, integer: true, min: 1 });
  const overlap = reader.number(record, 'overlapSize', '', { optional: true, integer: true, min: 0 });
  const threshold = reader.number(record, 'tokenThreshold', '', { optional: true, integer: true, min: 1 });
  const retention = reader.number(record, 'eventRetentionSize', '', { optional: true, integer: true, min: 0 });
  pairIssues(record, reader.issues);
  if (interval !== undefined) config.compactionInterval = interval;
  if (overlap !== undefined) config.overlapSize = overlap;
  if (threshold !== undefined) config.tokenThreshold = threshold;
  if (retention !== undefined) config.eventRetentionSize = retention;
  if (record['summarizer'] !== undefined) {
    const summarizer = record['summarizer'] as Summarizer;
    if (typeof summarizer?.summarize !== 'function')
      reader.issue('summarizer', 'expected a summarizer (an object with summarize)');
    else config.summarizer = summarizer;
  }
  if (reader.issues.length > 0) {
    // Problems are named in the spelling the configuration used (ADK's snake_case, or camelCase).
    const snake = Object.keys(raw).some((key) => key in SNAKE);
    throw new ValidationError({ subject, issues: snake ? reader.issues.map(toSnake) : reader.issues });
  }
  return config;
}

const CAMEL = Object.fromEntries(Object.entries(SNAKE).map(([snake, camel]) => [camel, snake]));
const CAMEL_WORD = new RegExp(`\\b(${Object.keys(CAMEL).join('|')})\\b`, 'g');

function toSnake(issue: ValidationIssue): ValidationIssue {
  const rename = (text: string) => text.replace(CAMEL_WORD, (word) => CAMEL[word] ?? word);
  return { ...issue, path: rename(issue.path), message: rename(issue.message) };
}

function pairIssues(record: Record<string, unknown>, issues: ValidationIssue[]): void {
  const has = (key: string) => record[key] !== undefined;
  if (has('tokenThreshold') !== has('eventRetentionSize'))
    issues.push({
      path: has('tokenThreshold') ? 'eventRetentionSize' : 'tokenThreshold',
      message: 'tokenThreshold and eventRetentionSize must be set together.',
    });
  if (has('compactionInterval') && !has('overlapSize'))
    issues.push({ path: 'overlapSize', message: 'is required with compactionInterval' });
  if (has('overlapSize') && !has('compactionInterval'))
    issues.push({ path: 'compactionInterval', message: 'is required with overlapSize' });
  if (!has('compactionInterval') && !has('overlapSize') && !has('tokenThreshold') && !has('eventRetentionSize')) {
    issues.push({
      path: '',
      message:
        'configures nothing: give compactionInterval and overlapSize, or tokenThreshold and eventRetentionSize, or both',
    });
  }
}

/** Token-based compaction for one agent, as @google/adk spells it (`contextCompactors: [new TokenBasedContextCompactor(…)]`). */
export class TokenBasedContextCompactor {
  readonly tokenThreshold: number;
  readonly eventRetentionSize: number;
  readonly summarizer: Summarizer | undefined;

  constructor(options: { tokenThreshold: number; eventRetentionSize: number; summarizer?: Summarizer }) {
    const config = parseCompactionConfig(
      { tokenThreshold: options.tokenThreshold, eventRetentionSize: options.eventRetentionSize },
      'TokenBasedContextCompactor',
    );
    this.tokenThreshold = config.tokenThreshold as number;
    this.eventRetentionSize = config.eventRetentionSize as number;
    this.summarizer = options.summarizer;
  }
}

/** A configuration's triggers, each present only when configured (checked by `parseCompactionConfig`). */
export type CompactionTriggers = { window?: SlidingWindow; token?: TokenTrigger; summarizer?: Summarizer };

/** The triggers a configuration sets, checked with ADK's rules. */
export function compactionTriggers(config: EventsCompactionConfig | undefined): CompactionTriggers {
  if (config === undefined) return {};
  const parsed = parseCompactionConfig(config);
  return {
    ...(parsed.compactionInterval === undefined
      ? {}
      : { window: { compactionInterval: parsed.compactionInterval, overlapSize: parsed.overlapSize as number } }),
    ...(parsed.tokenThreshold === undefined
      ? {}
      : { token: { tokenThreshold: parsed.tokenThreshold, eventRetentionSize: parsed.eventRetentionSize as number } }),
    ...(parsed.summarizer === undefined ? {} : { summarizer: parsed.summarizer }),
  };
}

/** A configuration's triggers as `planDueCompaction` takes them: the token trigger in a list, and the window. */
export function dueTriggers(config: EventsCompactionConfig | undefined): {
  token?: TokenTrigger[];
  window?: SlidingWindow;
} {
  const { token, window } = compactionTriggers(config);
  return { ...(token === undefined ? {} : { token: [token] }), ...(window === undefined ? {} : { window }) };
}
