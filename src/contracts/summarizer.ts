import type { Content } from './content.js';
import type { Event, Usage } from './event.js';

/** A summary of events, as a summarizer returns it. */
export type Summary = { content: Content; usage?: Usage };

export type SummarizeOptions = {
  signal?: AbortSignal | undefined;
  /** The first event is the summary this one continues: the model's turn, at the time its range began (as in ADK). */
  seeded?: boolean | undefined;
};

/** Turns events (oldest first) into one summary. */
export type Summarizer = {
  readonly name: string;
  /** `undefined` when there is nothing to summarize or the summarizer had nothing to say. */
  summarize(events: readonly Event[], options?: SummarizeOptions): Promise<Summary | undefined>;
};
