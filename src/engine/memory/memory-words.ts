// How memories are matched to a query by words, as ADK's in-memory service matches them: Python's `\w+` over the
// text, lowercased (letters, digits and the underscore of any script).

const WORD = /[\p{L}\p{N}_]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

/** The distinct lowercased words of a text (Python's `set(w.lower() for w in re.findall(r'\w+', text))`). */
export function wordsOf(text: string): Set<string> {
  return new Set((text.match(WORD) ?? []).map((word) => word.toLowerCase()));
}

/**
 * How many distinct words of the query a text holds; a non-ASCII query word also counts when it is inside the text
 * (scripts written without spaces: a query word 東京 matches 東京に行った), as ADK does since 2.8.
 */
export function sharedWords(query: ReadonlySet<string>, text: string, words: ReadonlySet<string>): number {
  const lower = text.toLowerCase();
  let count = 0;
  for (const word of query) if (words.has(word) || (NON_ASCII.test(word) && lower.includes(word))) count += 1;
  return count;
}

/** Python's `datetime.fromtimestamp(t).isoformat()`: local time, microseconds when there are any. */
export function pythonIsoTime(seconds: number): string {
  const micros = Math.round(seconds * 1e6);
  const date = new Date(Math.floor(micros / 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const fraction = ((micros % 1_000_000) + 1_000_000) % 1_000_000;
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return fraction === 0 ? base : `${base}.${pad(fraction, 6)}`;
}
