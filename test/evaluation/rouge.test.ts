// ROUGE-1 with stemming, as ADK 2.5.0's `response_match_score` (commit bb56aa56) gets it from Google's rouge_score.
// Origins: rouge_score 0.1.2 rouge_scorer_test.py (`testRouge1`, `testRougeEmpty`, `testMultipleRougeTypes`,
// `testRouge1AgainstRouge155WithStemming` over testdata/target.txt and prediction.txt, `testRougeTokenizerInit`),
// tokenize_test.py and tokenizers_test.py (google-research/google-research, rouge/); NLTK's test_stem.py
// `PorterTest.test_vocabulary_nltk_mode` with nltk_data's porter_test files (test/fixtures/porter/README.md). The other
// expected values were computed by rouge_score's `tokenize` and `_score_ngrams` over nltk 3.8.1's porter.py.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { porterStem } from '../../src/analysis/eval/porter-stemmer.js';
import { type RougeScore, rouge1, rougeTokens } from '../../src/analysis/eval/rouge.js';

function expectScore(actual: RougeScore, expected: RougeScore, digits = 6): void {
  expect(actual.precision).toBeCloseTo(expected.precision, digits);
  expect(actual.recall).toBeCloseTo(expected.recall, digits);
  expect(actual.fmeasure).toBeCloseTo(expected.fmeasure, digits);
}

// rouge/testdata: the first two lines of each, read with `readlines()`, so each keeps its newline.
const TARGETS = [
  "ZfbCUIUuePaiLVUlCaUXxkpu XPeWing tUHfPMuZ',-Xd Y BrUgVJing M-HV.-DgdDaY.rFDJCRing Ht-LM EKBDXkME,yz'RBr q'wtion wIojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxer tKM L\n",
  "KsJdPByEtAor fE-Qg Dpdbring cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMtion psing sbKao Q m qiing LMmer HqqLFXe,XPY,J XsurkMer ,ed nB'wH'bWVHjWFEing tQ.saefZwJtKrTlixYpMMsJing UCAPwNHeYVjDing c T BUySKtion gMPfJpwGw p'NvxAoping eu pBwMBKV'I DNxqelhu,PHPxDEq,mtion SN\n",
];
const PREDICTIONS = [
  "rFDJCRtion Ht-LM EKtDXkME,yz'RBr q'wer wrojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxi\n",
  "n cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMer pstion sbKao Q m qier LMmed HqqLFXe,XPY,J XsurkMeo ,ed nB'wH'bWVHjWFEer tQ.saefZwJtKrTlixYpMMNJtion UCAPwNHeYVjD\n",
];

describe('rouge1, from rouge_scorer_test.py', () => {
  it('testRouge1: one token of three', () => {
    // `score(target, prediction)` takes the reference first; rouge1 takes the candidate first, as ADK calls it. The
    // original scores without the stemmer; stemming `testing` on both sides changes nothing.
    expectScore(rouge1('testing', 'testing one two'), { precision: 1, recall: 1 / 3, fmeasure: 1 / 2 });
  });

  it('testRougeEmpty: an empty prediction scores 0', () => {
    expectScore(rouge1('', 'testing one two'), { precision: 0, recall: 0, fmeasure: 0 });
  });

  it('testMultipleRougeTypes (its rouge1 half)', () => {
    expectScore(rouge1('testing one', 'testing one two'), { precision: 1, recall: 2 / 3, fmeasure: 4 / 5 });
  });

  it('testRouge1AgainstRouge155WithStemming: ROUGE-1.5.5 -m values to five places', () => {
    const first = rouge1(PREDICTIONS[0] ?? '', TARGETS[0] ?? '');
    expect(first.recall).toBeCloseTo(0.40741, 5);
    expect(first.precision).toBeCloseTo(0.6875, 5);
    expect(first.fmeasure).toBeCloseTo(0.51163, 5);
    const second = rouge1(PREDICTIONS[1] ?? '', TARGETS[1] ?? '');
    expect(second.recall).toBeCloseTo(0.42857, 5);
    expect(second.precision).toBeCloseTo(0.69231, 5);
    expect(second.fmeasure).toBeCloseTo(0.52941, 5);
  });

  it('testRouge1AgainstRouge155WithStemming, exactly: 11 of 16 against 27 tokens, 18 of 26 against 42', () => {
    expect(rougeTokens(TARGETS[0] ?? '')).toHaveLength(27);
    expect(rougeTokens(PREDICTIONS[0] ?? '')).toHaveLength(16);
    expect(rouge1(PREDICTIONS[0] ?? '', TARGETS[0] ?? '')).toEqual({
      precision: 11 / 16,
      recall: 11 / 27,
      fmeasure: 0.5116279069767441,
    });
    expect(rougeTokens(TARGETS[1] ?? '')).toHaveLength(42);
    expect(rougeTokens(PREDICTIONS[1] ?? '')).toHaveLength(26);
    expect(rouge1(PREDICTIONS[1] ?? '', TARGETS[1] ?? '')).toEqual({
      precision: 18 / 26,
      recall: 18 / 42,
      fmeasure: 0.5294117647058824,
    });
  });

  it('testRougeTokenizerInit: identical texts score 1', () => {
    expect(rouge1('this is a test', 'this is a test').fmeasure).toBe(1);
  });
});

describe('rouge1, further cases from the reference implementation', () => {
  const cases: [candidate: string, reference: string, expected: RougeScore][] = [
    [
      'The quick brown dog jumps on the log.',
      'The quick brown fox jumps over the lazy dog',
      { precision: 0.75, recall: 0.6666666666666666, fmeasure: 0.7058823529411765 },
    ],
    [
      'A cat ran quick and was running',
      'The cats are running quickly.',
      { precision: 0.2857142857142857, recall: 0.4, fmeasure: 0.3333333333333333 },
    ],
    [
      'cafe deja vu naive resume',
      'Café déjà vu: naïve résumé!',
      { precision: 0.2, recall: 0.125, fmeasure: 0.15384615384615385 },
    ],
    [
      'istanbul kelvin i',
      'İstanbul \u212aelvin',
      { precision: 0.6666666666666666, recall: 0.6666666666666666, fmeasure: 0.6666666666666666 },
    ],
    [
      '2024 1990 sequels xray email',
      "2024s were the 1990s' sequel; x-ray e-mail",
      { precision: 0.6, recall: 0.3333333333333333, fmeasure: 0.42857142857142855 },
    ],
    ['the cat cat', 'the the the cat', { precision: 0.6666666666666666, recall: 0.5, fmeasure: 0.5714285714285715 }],
    [
      'fly die die spy die lie sky',
      'flies dies died spied dying lying skies',
      { precision: 0.7142857142857143, recall: 0.7142857142857143, fmeasure: 0.7142857142857143 },
    ],
    ['general generalize', 'generalization generalizations generality', { precision: 1, recall: 2 / 3, fmeasure: 0.8 }],
    ['some words', '!!!', { precision: 0, recall: 0, fmeasure: 0 }],
    ['', '', { precision: 0, recall: 0, fmeasure: 0 }],
  ];
  it.each(cases)('%j against %j', (candidate, reference, expected) => {
    expect(rouge1(candidate, reference)).toEqual(expected);
  });
});

describe('rougeTokens', () => {
  it('tokenize_test.py test_give_me_a_name: lowercases and splits on any whitespace', () => {
    expect(rougeTokens('one Two three', false)).toEqual(['one', 'two', 'three']);
    expect(rougeTokens('one\n Two \nthree', false)).toEqual(['one', 'two', 'three']);
  });

  it('tokenizers_test.py test_default_tokenizer_no_stemmer_init', () => {
    expect(rougeTokens('this is a test', false)).toEqual(['this', 'is', 'a', 'test']);
  });

  it('tokenizers_test.py test_default_tokenizer_with_stemmer_init: words of three letters or fewer stay unstemmed', () => {
    expect(rougeTokens('the friends had a meeting')).toEqual(['the', 'friend', 'had', 'a', 'meet']);
  });

  it('makes every run of characters outside a-z0-9 a separator, whitespace, underscores and accents included', () => {
    const text = "This was running, isn't it? Café 2024s\tTAB\u00a0nbsp";
    expect(rougeTokens(text)).toEqual(['thi', 'was', 'run', 'isn', 't', 'it', 'caf', '2024', 'tab', 'nbsp']);
    expect(rougeTokens(text, false)).toEqual([
      'this',
      'was',
      'running',
      'isn',
      't',
      'it',
      'caf',
      '2024s',
      'tab',
      'nbsp',
    ]);
    expect(rougeTokens("under_score hyphen-ated O'Neil's")).toEqual([
      'under',
      'score',
      'hyphen',
      'ate',
      'o',
      'neil',
      's',
    ]);
  });

  it('drops the empty tokens at either end', () => {
    expect(rougeTokens('  leading and trailing  ')).toEqual(['lead', 'and', 'trail']);
    expect(rougeTokens('')).toEqual([]);
    expect(rougeTokens('/')).toEqual([]);
  });

  it('lowercases with the full Unicode mapping before keeping ASCII: İ gives i, the Kelvin sign k', () => {
    expect(rougeTokens('İstanbul \u212aelvin')).toEqual(['i', 'stanbul', 'kelvin']);
  });
});

describe('porterStem (NLTK_EXTENSIONS)', () => {
  it("test_stem.py test_vocabulary_nltk_mode: all of Martin Porter's vocabulary stems to NLTK's expected output", () => {
    const read = (name: string): string[] =>
      readFileSync(new URL(`../fixtures/porter/${name}`, import.meta.url), 'utf8')
        .split('\n')
        .slice(0, -1);
    const words = read('porter_vocabulary.txt');
    const stems = read('porter_nltk_output.txt');
    expect(words).toHaveLength(23531);
    expect(stems).toHaveLength(words.length);
    const wrong = words.flatMap((word, i) => (porterStem(word) === stems[i] ? [] : [`${word} -> ${porterStem(word)}`]));
    expect(wrong).toEqual([]);
  });

  it('applies the NLTK extensions and the irregular forms', () => {
    const expected: Record<string, string> = {
      skies: 'sky',
      sky: 'sky',
      dying: 'die',
      lying: 'lie',
      tying: 'tie',
      news: 'news',
      innings: 'inning',
      outings: 'outing',
      cannings: 'canning',
      howe: 'howe',
      proceed: 'proceed',
      exceed: 'exceed',
      succeed: 'succeed',
      dies: 'die',
      flies: 'fli',
      died: 'die',
      spied: 'spi',
      happy: 'happi',
      enjoy: 'enjoy',
      spy: 'spi',
      is: 'is',
      aed: 'a',
      '1990s': '1990',
      '2024': '2024',
      geology: 'geolog',
      theology: 'theolog',
      radically: 'radic',
      hopefully: 'hope',
      conditional: 'condit',
      relational: 'relat',
      controlling: 'control',
      roll: 'roll',
      hopping: 'hop',
      filing: 'file',
      falling: 'fall',
      hissing: 'hiss',
      fizzed: 'fizz',
      agreed: 'agre',
      feed: 'feed',
      conflated: 'conflat',
      troubled: 'troubl',
      sized: 'size',
      generalization: 'gener',
      electricity: 'electr',
      adoption: 'adopt',
      communism: 'commun',
      probate: 'probat',
      rate: 'rate',
      cease: 'ceas',
      Running: 'run',
      MEETING: 'meet',
      ated: 'ate',
      this: 'thi',
      was: 'wa',
    };
    const actual = Object.fromEntries(Object.keys(expected).map((word) => [word, porterStem(word)]));
    expect(actual).toEqual(expected);
  });

  it('looks irregular forms up lowercased, as nltk does since PR #3568 (nltk 3.8.1 gave News -> new)', () => {
    expect([porterStem('News'), porterStem('Sky'), porterStem('HOWE')]).toEqual(['news', 'sky', 'howe']);
  });
});
