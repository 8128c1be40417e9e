import type { JsonSchema } from '../../contracts/request.js';

/** One tool as the search sees it: its name, its description, its parameters' names, and the toolset it came from. */
export type SearchDocument = {
  readonly name: string;
  readonly description: string;
  readonly parameters?: JsonSchema;
  /** The toolset's (MCP server's) name, searched as one more word of the tool. */
  readonly toolset?: string;
};

/** A tool the search found, with its score (higher is better). */
export type SearchHit = { readonly name: string; readonly score: number };

/** BM25's parameters: term-frequency saturation and length normalization (the usual values). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

// Words that say nothing about which tool is meant; dropped from tools and queries alike.
const STOPWORDS = new Set(
  'a an and any are as at be by can do does for from has have how i if in into is it its me my of on or our please so that the their them then this to use used uses using via was we what when which will with you your'.split(
    ' ',
  ),
);

/**
 * The words of a text for the search: camelCase, snake_case, kebab-case and dotted names split into words, lower
 * case, stopwords dropped, each cut to a light stem (`issues` → `issue`, `creating` and `create` → `creat`), so a query
 * in plain words meets a tool's name and description.
 */
export function searchWords(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const words: string[] = [];
  for (const word of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word === '' || STOPWORDS.has(word)) continue;
    words.push(stem(word));
  }
  return words;
}

/** A light suffix stemmer: plurals, `-ing`, `-ed`, a final `e` and a doubled final consonant. */
export function stem(word: string): string {
  let stemmed = word;
  if (stemmed.length > 4 && stemmed.endsWith('ies')) stemmed = `${stemmed.slice(0, -3)}y`;
  else if (stemmed.length > 4 && stemmed.endsWith('sses')) stemmed = stemmed.slice(0, -2);
  else if (stemmed.length > 3 && stemmed.endsWith('s') && !/(ss|us|is)$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  if (stemmed.length > 5 && stemmed.endsWith('ing')) stemmed = undouble(stemmed.slice(0, -3));
  else if (stemmed.length > 4 && stemmed.endsWith('ed') && !stemmed.endsWith('eed'))
    stemmed = undouble(stemmed.slice(0, -2));
  if (stemmed.length > 3 && stemmed.endsWith('e')) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

function undouble(word: string): string {
  const last = word.at(-1) ?? '';
  return word.length > 3 && last === word.at(-2) && !'lsz'.includes(last) ? word.slice(0, -1) : word;
}

/** The words one tool is found by: its name's (one field), and its toolset's, description's and parameters' names' (the other). */
export function documentWords(document: SearchDocument): { name: string[]; text: string[] } {
  return {
    name: searchWords(document.name),
    text: [
      ...(document.toolset === undefined ? [] : searchWords(document.toolset)),
      ...searchWords(document.description),
      ...parameterNames(document.parameters).flatMap(searchWords),
    ],
  };
}

/** Every property name of a schema, nested ones included, in the schema's order. */
export function parameterNames(schema: JsonSchema | undefined): string[] {
  const names: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 8) return;
    const record = node as Record<string, unknown>;
    const properties = record['properties'];
    if (typeof properties === 'object' && properties !== null) {
      for (const [name, value] of Object.entries(properties)) {
        names.push(name);
        visit(value, depth + 1);
      }
    }
    visit(record['items'], depth + 1);
  };
  visit(schema, 0);
  return names;
}

/** A BM25 index over tools: build it once per set of tools, search it many times. */
export type ToolIndex = {
  readonly size: number;
  /** The best `limit` tools for the query, best first (ties by name); only tools that share a word with it. */
  search(query: string, limit: number): SearchHit[];
};

/** How much more a word of a tool's name counts than a word of its description. */
export const NAME_WEIGHT = 2;

type Field = { readonly length: number; readonly frequencies: ReadonlyMap<string, number> };

/**
 * Okapi BM25 over two fields of each tool (`documentWords`), added up with the name weighing `NAME_WEIGHT` (a simple
 * BM25F): per field and distinct query word t, idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl)), with idf(t) =
 * ln(1 + (N − n(t) + 0.5)/(n(t) + 0.5)) and n, avgdl taken in that field. The name field's own length normalization
 * makes `get_issue` beat `get_issue_dates` for "get the issue". Local and deterministic: the same tools and query
 * give the same hits, ties broken by name.
 */
export function createToolIndex(documents: readonly SearchDocument[]): ToolIndex {
  const entries = documents.map((document) => {
    const words = documentWords(document);
    return { name: document.name, fields: [field(words.name), field(words.text)] as const };
  });
  const scorers = [
    scorer(entries.map((entry) => entry.fields[0])),
    scorer(entries.map((entry) => entry.fields[1])),
  ] as const;
  return {
    size: entries.length,
    search(query, limit) {
      const words = [...new Set(searchWords(query))];
      const hits: SearchHit[] = [];
      for (const entry of entries) {
        const score = NAME_WEIGHT * scorers[0](entry.fields[0], words) + scorers[1](entry.fields[1], words);
        if (score > 0) hits.push({ name: entry.name, score });
      }
      hits.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return hits.slice(0, Math.max(0, limit));
    },
  };
}

function field(words: readonly string[]): Field {
  const frequencies = new Map<string, number>();
  for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
  return { length: words.length, frequencies };
}

// BM25 of one field over all the tools: the scorer of one tool's field for a query's distinct words.
function scorer(fields: readonly Field[]): (field: Field, words: readonly string[]) => number {
  const documentFrequency = new Map<string, number>();
  for (const each of fields)
    for (const word of each.frequencies.keys()) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const total = fields.length;
  const averageLength = total === 0 ? 0 : fields.reduce((sum, each) => sum + each.length, 0) / total;
  return (each, words) => {
    let score = 0;
    for (const word of words) {
      const frequency = each.frequencies.get(word) ?? 0;
      if (frequency === 0) continue;
      const found = documentFrequency.get(word) ?? 0;
      const idf = Math.log(1 + (total - found + 0.5) / (found + 0.5));
      const norm = averageLength === 0 ? 1 : 1 - BM25_B + (BM25_B * each.length) / averageLength;
      score += (idf * frequency * (BM25_K1 + 1)) / (frequency + BM25_K1 * norm);
    }
    return score;
  };
}
