// NLTK's Porter stemmer in its default mode, NLTK_EXTENSIONS: the one `rouge_score` builds with
// `porter.PorterStemmer()` (rouge_score 0.1.2, tokenizers.py `DefaultTokenizer.__init__`). Written from
// nltk/stem/porter.py (nltk 3.8.1, commit f2a92bd7), the NLTK_EXTENSIONS branches only: the irregular forms (lines
// 100-122), the consonant, measure and *d/*o tests (126-238), the rule-list walk (248-274) and steps 1a-5b (276-652),
// run in the order of `stem` (654-678). Checked against NLTK's own expected output for Martin Porter's 23,531-word
// vocabulary (nltk_data stemmers/porter_test, porter_nltk_output.txt).

type Condition = (stem: string) => boolean;

/** A suffix, what replaces it, and the condition its stem must meet (null: none). */
type Rule = readonly [suffix: string, replacement: string, condition: Condition | null];

// porter.py 104-122: forms that the rules get wrong, looked up before any rule runs.
const IRREGULAR_FORMS: Readonly<Record<string, readonly string[]>> = {
  sky: ['sky', 'skies'],
  die: ['dying'],
  lie: ['lying'],
  tie: ['tying'],
  news: ['news'],
  inning: ['innings', 'inning'],
  outing: ['outings', 'outing'],
  canning: ['cannings', 'canning'],
  howe: ['howe'],
  proceed: ['proceed'],
  exceed: ['exceed'],
  succeed: ['succeed'],
};

const POOL: ReadonlyMap<string, string> = new Map(
  Object.entries(IRREGULAR_FORMS).flatMap(([stem, forms]) => forms.map((form): [string, string] => [form, stem])),
);

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

// porter.py 126-145: `y` is a consonant at the start of a word or after a vowel, a vowel after a consonant.
function isConsonant(word: string, i: number): boolean {
  const letter = word[i];
  if (letter === undefined || VOWELS.has(letter)) return false;
  if (letter === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

// porter.py 147-196: m in [C](VC){m}[V], counted as the `vc` pairs of the word's consonant/vowel sequence.
function measure(stem: string): number {
  let count = 0;
  for (let i = 0; i + 1 < stem.length; i++) if (!isConsonant(stem, i) && isConsonant(stem, i + 1)) count++;
  return count;
}

const positiveMeasure: Condition = (stem) => measure(stem) > 0;
const measureAboveOne: Condition = (stem) => measure(stem) > 1;

// porter.py 201-206.
function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

// porter.py 208-217: condition *d.
function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);
}

// porter.py 219-238: condition *o, plus NLTK's extension that a two-letter vowel-consonant word also ends cvc.
function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !['w', 'x', 'y'].includes(word.at(-1) ?? '')) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

// `word` without `suffix` (porter.py 240-246); slicing to `length - 0` keeps an empty suffix harmless.
function withoutSuffix(word: string, suffix: string): string {
  return word.slice(0, word.length - suffix.length);
}

// porter.py 248-274: the first rule whose suffix the word ends with decides; when its condition fails the word is
// returned as it is, without trying the later rules. `*d` stands for any double consonant.
function applyRuleList(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = withoutSuffix(word, suffix);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

// porter.py 276-301; NLTK maps a four-letter `-ies` word to `-ie` ('dies' -> 'die', but 'flies' -> 'fli').
function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return `${withoutSuffix(word, 'ies')}ie`;
  return applyRuleList(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

// porter.py 303-385; NLTK first maps `-ied` to `-ie` in four-letter words and to `-i` otherwise.
function step1b(word: string): string {
  if (word.endsWith('ied')) return `${withoutSuffix(word, 'ied')}${word.length === 4 ? 'ie' : 'i'}`;
  if (word.endsWith('eed')) {
    const stem = withoutSuffix(word, 'eed');
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let stem: string | undefined;
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix) && containsVowel(withoutSuffix(word, suffix))) {
      stem = withoutSuffix(word, suffix);
      break;
    }
  }
  if (stem === undefined) return word;
  // The stem holds a vowel, so it has a last letter.
  const last = stem.at(-1) ?? '';
  return applyRuleList(stem, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !['l', 's', 'z'].includes(last)],
    ['', 'e', (rest) => measure(rest) === 1 && endsCvc(rest)],
  ]);
}

// porter.py 387-433; NLTK turns `y` into `i` only after a consonant that is not the whole stem.
function step1c(word: string): string {
  return applyRuleList(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

// porter.py 435-513, NLTK mode: `-alli` goes first and the result goes through step 2 again; `-bli` (not `-abli`);
// `-fulli`; and `-logi` whose measure is taken with the `l` kept ('geologi' -> 'geolog').
function step2(word: string): string {
  if (word.endsWith('alli') && positiveMeasure(withoutSuffix(word, 'alli'))) {
    return step2(`${withoutSuffix(word, 'alli')}al`);
  }
  return applyRuleList(word, [
    ['ational', 'ate', positiveMeasure],
    ['tional', 'tion', positiveMeasure],
    ['enci', 'ence', positiveMeasure],
    ['anci', 'ance', positiveMeasure],
    ['izer', 'ize', positiveMeasure],
    ['bli', 'ble', positiveMeasure],
    ['alli', 'al', positiveMeasure],
    ['entli', 'ent', positiveMeasure],
    ['eli', 'e', positiveMeasure],
    ['ousli', 'ous', positiveMeasure],
    ['ization', 'ize', positiveMeasure],
    ['ation', 'ate', positiveMeasure],
    ['ator', 'ate', positiveMeasure],
    ['alism', 'al', positiveMeasure],
    ['iveness', 'ive', positiveMeasure],
    ['fulness', 'ful', positiveMeasure],
    ['ousness', 'ous', positiveMeasure],
    ['aliti', 'al', positiveMeasure],
    ['iviti', 'ive', positiveMeasure],
    ['biliti', 'ble', positiveMeasure],
    ['fulli', 'ful', positiveMeasure],
    ['logi', 'log', () => positiveMeasure(word.slice(0, -3))],
  ]);
}

// porter.py 515-541.
function step3(word: string): string {
  return applyRuleList(word, [
    ['icate', 'ic', positiveMeasure],
    ['ative', '', positiveMeasure],
    ['alize', 'al', positiveMeasure],
    ['iciti', 'ic', positiveMeasure],
    ['ical', 'ic', positiveMeasure],
    ['ful', '', positiveMeasure],
    ['ness', '', positiveMeasure],
  ]);
}

// porter.py 543-601.
function step4(word: string): string {
  return applyRuleList(word, [
    ['al', '', measureAboveOne],
    ['ance', '', measureAboveOne],
    ['ence', '', measureAboveOne],
    ['er', '', measureAboveOne],
    ['ic', '', measureAboveOne],
    ['able', '', measureAboveOne],
    ['ible', '', measureAboveOne],
    ['ant', '', measureAboveOne],
    ['ement', '', measureAboveOne],
    ['ment', '', measureAboveOne],
    ['ent', '', measureAboveOne],
    ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
    ['ou', '', measureAboveOne],
    ['ism', '', measureAboveOne],
    ['ate', '', measureAboveOne],
    ['iti', '', measureAboveOne],
    ['ous', '', measureAboveOne],
    ['ive', '', measureAboveOne],
    ['ize', '', measureAboveOne],
  ]);
}

// porter.py 603-637: both conditions are tried for the same `-e`, so not a rule list.
function step5a(word: string): string {
  if (!word.endsWith('e')) return word;
  const stem = word.slice(0, -1);
  if (measure(stem) > 1) return stem;
  if (measure(stem) === 1 && !endsCvc(stem)) return stem;
  return word;
}

// porter.py 639-652: the measure is taken on the word less one `l`.
function step5b(word: string): string {
  return applyRuleList(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/**
 * The stem NLTK's `PorterStemmer().stem(word)` gives (porter.py 654-678): lowercased; an irregular form from the pool;
 * one or two letters as they are; otherwise steps 1a to 5b. Meant for the ASCII tokens ROUGE hands it: a letter
 * outside the Basic Multilingual Plane would count as two here and one in Python.
 */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  // nltk 3.8.1 looks the unlowered word up (line 660) and later releases the lowered one (nltk PR #3568); the two
  // agree for lowercase input, which is all ROUGE passes.
  const irregular = POOL.get(lower);
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return lower;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(lower))))))));
}
