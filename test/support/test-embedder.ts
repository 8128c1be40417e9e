/**
 * A deterministic embedder for tests: each text becomes a vector of concept counts, words of one concept
 * (`car`, `automobile`, `vehicle`) counting on one dimension, so texts about the same thing are similar without sharing
 * a word; any other word counts on a dimension chosen by a hash of it.
 */
export function conceptEmbedder(concepts: readonly (readonly string[])[], dimensions = 64) {
  const conceptOf = new Map(concepts.flatMap((words, index) => words.map((word) => [word, index] as const)));
  const calls: string[][] = [];
  const embed = async (texts: readonly string[]): Promise<number[][]> => {
    calls.push([...texts]);
    return texts.map((text) => {
      const vector = new Array<number>(concepts.length + dimensions).fill(0);
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
        const concept = conceptOf.get(word);
        const at = concept ?? concepts.length + (hash(word) % dimensions);
        vector[at] = (vector[at] ?? 0) + (concept === undefined ? 0.1 : 1);
      }
      return vector;
    });
  };
  return { embed, calls };
}

function hash(word: string): number {
  let value = 2166136261;
  for (const char of word) value = Math.imul(value ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return value;
}
