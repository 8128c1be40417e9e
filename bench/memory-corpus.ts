// The generated conversations bench/memory.ts remembers and searches: sessions of user and model sentences from a
// seeded vocabulary (real English function words, generated content words drawn with a Zipf-like skew, as real
// chatter is), and the questions a user asks later. Deterministic: the same seed gives the same corpus.
import { createEvent } from '../dist/index.js';
import type { Event, Session } from '../dist/index.js';
import { random } from '../examples/report-analyst/reports.js';

// A seeded random source (mulberry32), the example's: the same corpus on every run.
export { random };

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'st', 'tr', 'kl'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];

/** `count` distinct made-up words of two or three syllables. */
function coin(next: () => number, count: number, taken: Set<string>): string[] {
  const words: string[] = [];
  while (words.length < count) {
    const syllables = next() < 0.6 ? 2 : 3;
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(next, ONSETS) + pick(next, VOWELS);
    if (next() < 0.4) word += pick(next, ['n', 'r', 'l', 's', 'k']);
    if (!taken.has(word)) {
      taken.add(word);
      words.push(word);
    }
  }
  return words;
}

export function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** Log-uniform index into a list (about Zipf's law): the first items are drawn far more often than the last. */
function skewed<T>(next: () => number, items: readonly T[]): T {
  return items[Math.min(items.length - 1, Math.floor(items.length ** next()) - 1)] as T;
}

/** The content words sentences are made of: things, people's names, places. */
export type Vocabulary = { nouns: string[]; names: string[]; places: string[]; foods: string[] };

export function vocabulary(seed: number): Vocabulary {
  const next = random(seed);
  const taken = new Set<string>();
  return {
    nouns: coin(next, 3000, taken),
    names: coin(next, 400, taken),
    places: coin(next, 300, taken),
    foods: coin(next, 200, taken),
  };
}

const VERBS = ['fix', 'book', 'cancel', 'buy', 'clean', 'move', 'paint', 'sell', 'water', 'pack', 'check', 'order'];
const PAST = ['fixed', 'booked', 'cancelled', 'bought', 'cleaned', 'moved', 'painted', 'sold', 'watered', 'packed'];
const ADJECTIVES = ['old', 'new', 'blue', 'broken', 'cheap', 'expensive', 'small', 'big', 'quiet', 'busy', 'late'];
const RELATIONS = ['mother', 'father', 'brother', 'friend', 'boss', 'neighbour', 'cousin', 'colleague', 'partner'];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'tomorrow', 'tonight'];

/** One sentence of everyday chatter: what a user says, or what the model answers. */
export function sentence(next: () => number, words: Vocabulary, author: 'user' | 'model'): string {
  const n = () => skewed(next, words.nouns);
  const name = () => skewed(next, words.names);
  const place = () => skewed(next, words.places);
  const v = () => pick(next, VERBS);
  const adj = () => pick(next, ADJECTIVES);
  const rel = () => pick(next, RELATIONS);
  const day = () => pick(next, DAYS);
  const user = [
    () => `I ${pick(next, PAST)} my ${n()} at the ${n()} yesterday, it was ${adj()}.`,
    () => `Can you remind me to ${v()} the ${n()} before ${day()}?`,
    () => `My ${rel()} ${name()} wants a ${adj()} ${n()} for ${day()}.`,
    () => `We are planning a trip to ${place()} with the ${n()} next month.`,
    () => `What is the best way to ${v()} a ${adj()} ${n()}?`,
    () => `I think the ${n()} in ${place()} was too ${adj()} for us.`,
    () => `Please add ${n()} and ${n()} to my shopping list.`,
    () => `Did I tell you that ${name()} is coming over on ${day()}?`,
  ];
  const model = [
    () => `Sure, I will remind you to ${v()} the ${n()} on ${day()}.`,
    () => `Noted: your ${rel()} ${name()} likes the ${adj()} ${n()}.`,
    () => `Here are three ways to ${v()} a ${n()} in ${place()}.`,
    () => `I added ${n()} to your list; the ${n()} is already there.`,
    () => `That sounds like a good plan, the ${n()} in ${place()} is usually ${adj()} then.`,
    () => `You could ${v()} the ${n()} first and then ask ${name()} about it.`,
  ];
  return pick(next, author === 'user' ? user : model)();
}

/** A question a user asks about what they said before. */
export function question(next: () => number, words: Vocabulary): string {
  const n = () => skewed(next, words.nouns);
  return pick(next, [
    () => `What did I say about my ${n()}?`,
    () => `When do I need to ${pick(next, VERBS)} the ${n()}?`,
    () => `Where was the ${pick(next, ADJECTIVES)} ${n()} we talked about?`,
    () => `What does my ${pick(next, RELATIONS)} ${skewed(next, words.names)} want?`,
    () => `Which ${n()} did I want for the trip to ${skewed(next, words.places)}?`,
  ])();
}

/** A finished session of `texts`, alternating user and model, as `addSessionToMemory` receives it. */
export function sessionOf(
  appName: string,
  userId: string,
  id: string,
  texts: readonly string[],
  start: number,
): Session {
  const events: Event[] = texts.map((text, index) =>
    createEvent({
      id: `${id}-${index}`,
      author: index % 2 === 0 ? 'user' : 'assistant',
      invocationId: `${id}-inv-${index >> 1}`,
      timestamp: start + index * 30,
      content: { role: index % 2 === 0 ? 'user' : 'model', parts: [{ text }] },
    }),
  );
  return { appName, userId, id, state: {}, events, lastUpdateTime: start + texts.length * 30, revision: texts.length };
}

/** A session of everyday chatter: `events` sentences, the user's and the model's in turn. */
export function chatter(next: () => number, words: Vocabulary, events: number): string[] {
  return Array.from({ length: events }, (_, index) => sentence(next, words, index % 2 === 0 ? 'user' : 'model'));
}
