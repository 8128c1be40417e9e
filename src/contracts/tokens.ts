/** Counts the tokens of a text. */
export type TokenCounter = {
  /** The encoding, for reports: `o200k_base`. */
  readonly encoding: string;
  count(text: string): number;
};
