import type { Event } from '../../contracts/event.js';
import type { SummarizeOptions, Summarizer, Summary } from '../../contracts/summarizer.js';
import { renderEvents } from './render-events.js';

export type ExtractiveSummarizerOptions = {
  /** Longest line kept whole; longer ones are shortened. Default 200. */
  maxLineChars?: number;
  /** Budget for the whole summary; the oldest lines go first when it is exceeded (the previous summary's first). Default 4000. */
  maxChars?: number;
};

/**
 * A summary without a model: the conversation's lines (who said what, which tool was called, what it returned),
 * each shortened, oldest dropped first beyond a budget. Deterministic, free and offline: for tests, dry runs and
 * sessions where a model call is not wanted. A previous summary passed first is carried over as the oldest lines.
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'extractive';
  readonly #maxLineChars: number;
  readonly #maxChars: number;

  constructor(options: ExtractiveSummarizerOptions = {}) {
    this.#maxLineChars = options.maxLineChars ?? 200;
    this.#maxChars = options.maxChars ?? 4000;
  }

  summarize(events: readonly Event[], options: SummarizeOptions = {}): Promise<Summary | undefined> {
    const [first, ...rest] = events;
    if (first === undefined) return Promise.resolve(undefined);
    // The summary this one continues is its oldest lines: under the budget, they are the first to go.
    const seed =
      options.seeded === true
        ? summaryText(first)
            .split('\n')
            .filter((line) => line !== '' && !OMITTED.test(line))
        : [];
    const lines = [
      ...seed,
      ...renderEvents(seed.length === 0 ? events : rest, this.#maxLineChars).map((line) => `- ${line}`),
    ];
    const kept: string[] = [];
    let budget = this.#maxChars;
    for (let index = lines.length - 1; index >= 0; index--) {
      const line = lines[index] as string;
      if (line.length + 1 > budget) break;
      kept.unshift(line);
      budget -= line.length + 1;
    }
    const dropped = lines.length - kept.length;
    const text = [...(dropped === 0 ? [] : [`- (${dropped} earlier lines left out)`]), ...kept].join('\n');
    if (kept.length === 0) return Promise.resolve(undefined);
    return Promise.resolve({ content: { role: 'model', parts: [{ text }] } });
  }
}

const OMITTED = /^- \(\d+ earlier lines left out\)$/;

function summaryText(event: Event): string {
  return (event.content?.parts ?? []).flatMap((part) => ('text' in part ? [part.text] : [])).join('\n');
}
