import { porterStem } from './porter-stemmer.js';

// ROUGE-1 as Google's `rouge_score` 0.1.2 computes it for `RougeScorer(["rouge1"], use_stemmer=True)`, the scorer ADK's
// `response_match_score` uses. Written from rouge_score/tokenize.py (`tokenize`), tokenizers.py (`DefaultTokenizer`,
// which builds NLTK's `PorterStemmer()` in its default mode), rouge_scorer.py (`RougeScorer.score`, `_create_ngrams`,
// `_score_ngrams`) and scoring.py (`fmeasure`).

/** Precision, recall and their harmonic mean, as rouge_score's `Score` tuple holds them. */
export type RougeScore = { precision: number; recall: number; fmeasure: number };

/**
 * rouge_score's default tokens (tokenize.py `tokenize`): the text lowercased, every run of characters outside `a-z0-9`
 * made one space, split on whitespace; with the stemmer, each token longer than three characters stemmed; last, every
 * token that is empty or not all `a-z0-9` dropped. Non-ASCII letters therefore separate tokens rather than join them.
 */
export function rougeTokens(text: string, useStemmer = true): string[] {
  // Python's `str.lower` and `toLowerCase` both apply Unicode's full lowercase mapping (`İ` becomes `i` and a
  // combining dot, the Kelvin sign `k`), so the same ASCII letters come out of both.
  const spaced = text.toLowerCase().replace(/[^a-z0-9]+/g, ' ');
  const tokens = spaced.split(/\s+/);
  const stemmed = useStemmer ? tokens.map((token) => (token.length > 3 ? porterStem(token) : token)) : tokens;
  return stemmed.filter((token) => /^[a-z0-9]+$/.test(token));
}

/** How many times each token occurs (rouge_scorer.py `_create_ngrams` with n = 1). */
function unigramCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** scoring.py `fmeasure`: 0 when precision and recall are both 0; the operations in Python's order, so the bits agree. */
export function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/**
 * ROUGE-1 of `candidate` against `reference`, stemmed, as `RougeScorer(["rouge1"], use_stemmer=True).score(reference,
 * candidate)` gives it. The overlap is the sum over the reference's tokens of the smaller of the two counts
 * (rouge_scorer.py `_score_ngrams`); precision divides it by the candidate's token count, recall by the reference's,
 * each count taken as at least 1, so an empty side scores 0 rather than dividing by zero.
 */
export function rouge1(candidate: string, reference: string): RougeScore {
  const target = unigramCounts(rougeTokens(reference));
  const prediction = unigramCounts(rougeTokens(candidate));
  let overlap = 0;
  for (const [token, count] of target) overlap += Math.min(count, prediction.get(token) ?? 0);
  const total = (counts: Map<string, number>): number => [...counts.values()].reduce((sum, count) => sum + count, 0);
  const precision = overlap / Math.max(total(prediction), 1);
  const recall = overlap / Math.max(total(target), 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}
