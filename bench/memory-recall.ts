// Retrieval quality for bench/memory.ts: recall@5 on a generated corpus with known answers. Each of 40 users states 10
// facts once each, in sessions among 60 of everyday chatter (bench/memory-corpus.ts) and 30 distractor sentences that
// share the questions' words; later the user asks about each fact in other words (a paraphrase that shares only some
// of the fact's words). A question counts when the fact's memory is among the first 5 a search returns.
import { createInMemoryMemoryService, type MemoryService } from '../dist/memory.js';
import { createGeminiModel } from '../dist/models/gemini/index.js';
import { createOpenAIModel } from '../dist/models/openai/index.js';
import { chatter, pick, random, sessionOf, vocabulary } from './memory-corpus.js';

export type Embedder = (texts: readonly string[]) => Promise<readonly (readonly number[])[]>;

/** A real embedding model from `provider:model` (`openai:text-embedding-3-small`, `gemini:gemini-embedding-001`). */
export function embedderOf(spec: string): Embedder {
  const [provider, model = ''] = spec.split(/:(.*)/s);
  const made =
    provider === 'openai'
      ? createOpenAIModel({ model })
      : provider === 'gemini'
        ? createGeminiModel({ model })
        : undefined;
  if (made?.embed === undefined) throw new Error(`--embed takes openai:<model> or gemini:<model>, got ${spec}`);
  const embed = made.embed.bind(made);
  // Each text once: the hybrid service and the vector ranking embed the same memories.
  const known = new Map<string, readonly number[]>();
  return async (texts) => {
    const missing = [...new Set(texts.filter((text) => !known.has(text)))];
    for (let start = 0; start < missing.length; start += 256) {
      const batch = missing.slice(start, start + 256);
      const { embeddings } = await embed(batch);
      batch.forEach((text, index) => known.set(text, embeddings[index] ?? []));
    }
    return texts.map((text) => known.get(text) ?? []);
  };
}

type Fact = { fact: string; question: string; distractors: readonly string[] };
type Values = { name: string; other: string; place: string; food: string; noun: string; day: string };

// Ten kinds of fact, each with its later question and three sentences of other sessions that share its words. Some
// questions share one word with their fact, others several: paraphrases differ.
const FACTS: readonly ((v: Values) => Fact)[] = [
  (v) => ({
    fact: `My sister ${v.name} moved to ${v.place} last spring for a nursing job.`,
    question: 'Which city does my sister live in these days?',
    distractors: [
      'Which city has the nicest old town to walk around?',
      `My cousin lives in ${v.place} and works in a bakery.`,
      'I need a birthday present for my sister.',
    ],
  }),
  (v) => ({
    fact: `Just so you know, I am allergic to ${v.food}, it makes me really ill.`,
    question: 'What am I allergic to?',
    distractors: [
      `What am I supposed to bring to the ${v.noun} party?`,
      `I am going to the ${v.noun} with ${v.other} on ${v.day}.`,
      'My son is allergic to cats.',
    ],
  }),
  (v) => ({
    fact: `The car we finally bought is a grey ${v.noun} hatchback.`,
    question: 'What kind of car did I end up getting?',
    distractors: [
      `What kind of music did ${v.other} play at the party?`,
      'I did end up getting the tickets.',
      'The car needs new tyres before winter.',
    ],
  }),
  (v) => ({
    fact: `I booked the dentist for ${v.day} at nine in the morning.`,
    question: 'When is my dentist appointment?',
    distractors: [
      `When is the ${v.noun} market open?`,
      'My appointment with the bank got moved.',
      `When is ${v.other} coming back from ${v.place}?`,
    ],
  }),
  (v) => ({
    fact: `The wifi password at the cabin is ${v.noun}42.`,
    question: 'What was the password for the cabin wifi?',
    distractors: [
      'The cabin needs a new roof before winter.',
      `What was the name of that ${v.noun} shop?`,
      'I changed my email password yesterday.',
    ],
  }),
  (v) => ({
    fact: `My mother's birthday is on the ninth of ${v.day === 'monday' ? 'march' : 'october'}.`,
    question: "When is my mom's birthday?",
    distractors: [
      `When is the ${v.noun} sale?`,
      `Is it ${v.other}'s birthday this week?`,
      'My mom wants to visit in the summer.',
    ],
  }),
  (v) => ({
    fact: `I started working as a ${v.noun} engineer at ${v.name} Labs in January.`,
    question: 'Where do I work now?',
    distractors: [
      'Where do I find the receipts for the taxes?',
      'I work from home on fridays now.',
      `Do I need to call ${v.other} now or later?`,
    ],
  }),
  (v) => ({
    fact: "I stopped eating meat last year, I'm vegetarian now.",
    question: 'Am I vegetarian or do I still eat meat?',
    distractors: [
      'I still need to buy meat for the barbecue.',
      'Do I need a visa for the trip?',
      `My friend ${v.other} is vegetarian too.`,
    ],
  }),
  (v) => ({
    fact: `Our dog ${v.name} is a three year old terrier.`,
    question: "What's the name of my dog?",
    distractors: [
      `What's the name of the ${v.noun} place we liked?`,
      'My neighbour walks the dog every morning.',
      `The name ${v.other} sounds nice.`,
    ],
  }),
  (v) => ({
    fact: `My flight to ${v.place} leaves on ${v.day} from gate 12.`,
    question: 'When does my flight leave?',
    distractors: [
      `When does the ${v.noun} store close?`,
      'My flight back was delayed last time.',
      'When does the train leave on sundays?',
    ],
  }),
];

const USERS = 40;
const CHATTER_SESSIONS = 60;
const EVENTS = 10;

/**
 * recall@5 of agentctx's keyword ranking (`ranked`) and ADK's in-memory rule (`adk`, its first 5) on the same
 * memories; with a real embedder also vector-only (cosine) and hybrid (agentctx's fused ranking).
 */
export async function recallAt5(embed?: Embedder): Promise<Record<string, number>> {
  const words = vocabulary(2);
  const next = random(99);
  const services: Record<string, MemoryService> = {
    keyword: createInMemoryMemoryService({ matching: 'ranked' }),
    adkInMemory: createInMemoryMemoryService({ matching: 'adk' }),
    ...(embed === undefined ? {} : { hybrid: createInMemoryMemoryService({ embed }) }),
  };
  const asked: { userId: string; question: string; answer: string }[] = [];
  const texts = new Map<string, string>();
  for (let u = 0; u < USERS; u++) {
    const userId = `user-${u}`;
    const sessions = Array.from({ length: CHATTER_SESSIONS }, () => chatter(next, words, EVENTS));
    const values = (): Values => ({
      name: pick(next, words.names),
      other: pick(next, words.names),
      place: pick(next, words.places),
      food: pick(next, words.foods),
      noun: pick(next, words.nouns),
      day: pick(next, ['monday', 'friday', 'saturday']),
    });
    const facts = FACTS.map((kind) => kind(values()));
    // Where each fact and distractor is said: a random session, a random place in it (after earlier insertions).
    const marks: { session: number; text: string; answer?: number }[] = [];
    facts.forEach((fact, index) => {
      marks.push({ session: Math.floor(next() * CHATTER_SESSIONS), text: fact.fact, answer: index });
      for (const text of fact.distractors) marks.push({ session: Math.floor(next() * CHATTER_SESSIONS), text });
    });
    const placed = sessions.map((texts) => texts.map((text) => ({ text, answer: undefined as number | undefined })));
    for (const mark of marks) {
      const list = placed[mark.session] as { text: string; answer: number | undefined }[];
      list.splice(Math.floor(next() * (list.length + 1)), 0, { text: mark.text, answer: mark.answer });
    }
    const answers: string[] = [];
    for (const [index, list] of placed.entries()) {
      const session = sessionOf(
        'recall',
        userId,
        `s-${index}`,
        list.map(({ text }) => text),
        1_700_000_000 + index * 86_400,
      );
      list.forEach(({ text, answer }, position) => {
        texts.set(`${userId}/s-${index}-${position}`, text);
        if (answer !== undefined) answers[answer] = `s-${index}-${position}`;
      });
      for (const service of Object.values(services)) await service.addSessionToMemory(session);
    }
    facts.forEach((fact, index) => asked.push({ userId, question: fact.question, answer: answers[index] as string }));
  }
  const hits: Record<string, number> = Object.fromEntries(Object.keys(services).map((name) => [name, 0]));
  for (const { userId, question, answer } of asked)
    for (const [name, service] of Object.entries(services)) {
      const { memories } = await service.searchMemory({ appName: 'recall', userId, query: question });
      if (memories.slice(0, 5).some((memory) => memory.id === answer)) hits[name] = (hits[name] ?? 0) + 1;
    }
  if (embed !== undefined) hits.vector = await vectorHits(embed, asked, texts);
  const result: Record<string, number> = {};
  for (const name of ['keyword', 'adkInMemory', 'vector', 'hybrid'])
    if (hits[name] !== undefined) result[name] = Number(((hits[name] as number) / asked.length).toFixed(3));
  return result;
}

/** Vector-only: the user's memories ranked by cosine similarity to the question. */
async function vectorHits(
  embed: Embedder,
  asked: readonly { userId: string; question: string; answer: string }[],
  texts: ReadonlyMap<string, string>,
): Promise<number> {
  const keys = [...texts.keys()];
  const vectors = await embed(keys.map((key) => texts.get(key) as string));
  const questions = await embed(asked.map(({ question }) => question));
  let hits = 0;
  asked.forEach(({ userId, answer }, index) => {
    const query = questions[index] ?? [];
    const top = keys
      .flatMap((key, at) => (key.startsWith(`${userId}/`) ? [{ key, score: cosine(vectors[at] ?? [], query) }] : []))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5);
    if (top.some(({ key }) => key === `${userId}/${answer}`)) hits += 1;
  });
  return hits;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let left = 0;
  let right = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += (a[i] as number) * (b[i] as number);
    left += (a[i] as number) ** 2;
    right += (b[i] as number) ** 2;
  }
  return left === 0 || right === 0 ? 0 : dot / Math.sqrt(left * right);
}
