import type { TokenCounter } from '../../contracts/tokens.js';

/** A deferred tool as the catalogue lists it. */
export type CatalogueEntry = { readonly name: string; readonly description: string };

/** The catalogue's text and how much of it each tool got. */
export type Catalogue = {
  readonly text: string;
  /** Tools listed with their line of description, in order. */
  readonly described: number;
  /** Tools listed by name only, after those. */
  readonly named: number;
  /** Tools left out ("and N more"). */
  readonly omitted: number;
  /** The text's tokens. */
  readonly tokens: number;
};

/** Most characters of a tool's line of description; a longer first line is cut at its first sentence, else here. */
export const LINE_CHARACTERS = 120;

/** The first line of a description, kept short: its first sentence when the line is long. */
export function firstLine(description: string): string {
  const line =
    description
      .split('\n')
      .map((each) => each.trim())
      .find((each) => each !== '') ?? '';
  if (line.length <= LINE_CHARACTERS) return line;
  const sentence = line.search(/[.!?](\s|$)/);
  if (sentence !== -1 && sentence < LINE_CHARACTERS) return line.slice(0, sentence + 1);
  const cut = line.lastIndexOf(' ', LINE_CHARACTERS - 1);
  return `${line.slice(0, cut > LINE_CHARACTERS / 2 ? cut : LINE_CHARACTERS - 1)}…`;
}

/**
 * The catalogue of the deferred tools, sorted by name, within `budget` tokens: one line per tool (`- name: first line
 * of its description`) while they all fit; otherwise the first tools with their line and the rest by name only (as
 * many lines with descriptions as leave room for every other name); when not even the names fit, as many names as
 * do, then "and N more — search to find them". The same tools and budget always give the same text.
 */
export function buildCatalogue(entries: readonly CatalogueEntry[], budget: number, counter: TokenCounter): Catalogue {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = sorted.map((entry) => {
    const line = firstLine(entry.description);
    return line === '' ? `- ${entry.name}` : `- ${entry.name}: ${line}`;
  });
  const total = sorted.length;
  const render = (described: number, shown: number): string => {
    const parts = lines.slice(0, described);
    if (shown > described)
      parts.push(
        `Also: ${sorted
          .slice(described, shown)
          .map((entry) => entry.name)
          .join(', ')}`,
      );
    if (shown < total) parts.push(`and ${total - shown} more — search to find them.`);
    return parts.join('\n');
  };
  const fits = (described: number, shown: number): boolean => counter.count(render(described, shown)) <= budget;
  const result = (described: number, shown: number): Catalogue => {
    const text = render(described, shown);
    return { text, described, named: shown - described, omitted: total - shown, tokens: counter.count(text) };
  };
  if (fits(total, total)) return result(total, total);
  if (fits(0, total))
    return result(
      largest(0, total - 1, (described) => fits(described, total)),
      total,
    );
  return result(
    0,
    largest(0, total - 1, (shown) => fits(0, shown)),
  );
}

// The largest value in [low, high] for which `holds` is true, given that it holds at `low` and holds less as values grow.
function largest(low: number, high: number, holds: (value: number) => boolean): number {
  let best = low;
  let lower = low + 1;
  let upper = high;
  while (lower <= upper) {
    const middle = Math.floor((lower + upper) / 2);
    if (holds(middle)) {
      best = middle;
      lower = middle + 1;
    } else {
      upper = middle - 1;
    }
  }
  return best;
}
