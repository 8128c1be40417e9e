import type { Content } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { MemoryEntry, MemoryInput, MemoryService } from '../../contracts/memory-service.js';
import type { Model } from '../../contracts/model.js';
import { copyValue } from '../util/copy-value.js';
import { pythonIsoTime, sharedWords, wordsOf } from './memory-words.js';

// What every memory service shares: which events are remembered and as what, and how memories are matched and ranked.

/** ADK's session id for events added without one. */
export const UNKNOWN_SESSION = '__unknown_session_id__';
/** Where memories added directly (`addMemory`) are kept: they belong to no session. */
export const DIRECT = '';

/** How a search chooses: ADK 2.5.0's rule, or agentctx's ranking (see `InMemoryMemoryServiceOptions`). */
export type MemoryMatching = { readonly matching: 'ranked' | 'adk'; readonly limit: number };

/** A memory with what matching reads of it: its text, its words, and its place in the order remembered. */
export type Candidate = {
  readonly entry: MemoryEntry;
  readonly text: string;
  readonly words: ReadonlySet<string>;
  readonly order: number;
};

/**
 * The memories a query chooses among candidates: under `adk` every one sharing a word, in the order remembered;
 * under `ranked` those sharing more distinct words first, newer first among equals, at most `limit`.
 */
export function rankMemories<C extends Candidate>(
  candidates: readonly C[],
  query: string,
  options: MemoryMatching,
): C[] {
  const words = wordsOf(query);
  const ordered = [...candidates].sort((a, b) => a.order - b.order);
  const hits = ordered.flatMap((item) => {
    if (item.words.size === 0) return [];
    if (options.matching === 'adk') return [...words].some((word) => item.words.has(word)) ? [{ item, score: 1 }] : [];
    const score = sharedWords(words, item.text, item.words);
    return score > 0 ? [{ item, score }] : [];
  });
  if (options.matching === 'adk') return hits.map(({ item }) => item);
  hits.sort((a, b) => b.score - a.score || b.item.order - a.item.order);
  return hits.slice(0, options.limit).map(({ item }) => item);
}

/** Which events are remembered, and what of them (`toolTraffic`: also tool calls, results and thoughts). */
export type Remembering = { readonly matching: 'ranked' | 'adk'; readonly toolTraffic?: boolean | undefined };

/**
 * The events a session's memories are taken from, as they are remembered. Under `adk`, ADK's rule: every event with
 * parts, whole. Under `ranked`, what was said (text, images, files): tool calls, tool results, code and its output
 * and thoughts are left out unless `toolTraffic`, since a tool's raw result is seldom what a user meant to be
 * remembered and is where credentials travel; an event left with no part is not remembered. State (`temp:` keys
 * included) is never remembered: a memory holds content only.
 */
export function remembered(events: readonly Event[], remembering: Remembering): Event[] {
  return events.flatMap((event) => {
    const parts = event.content?.parts ?? [];
    if (parts.length === 0 || event.content === undefined) return [];
    if (remembering.matching === 'adk' || remembering.toolTraffic === true) return [event];
    const said = parts.filter((part) => SAID.some((key) => key in part) && !('thought' in part && part.thought));
    if (said.length === 0) return [];
    return [said.length === parts.length ? event : { ...event, content: { ...event.content, parts: said } }];
  });
}

const SAID = ['text', 'inlineData', 'fileData'] as const;

export function fromEvent(
  event: Event,
  sessionId: string,
  customMetadata?: Readonly<Record<string, unknown>>,
): MemoryEntry {
  return {
    id: event.id,
    content: copyValue(event.content as Content),
    author: event.author,
    timestamp: pythonIsoTime(event.timestamp),
    ...(customMetadata === undefined || Object.keys(customMetadata).length === 0
      ? {}
      : { customMetadata: copyValue(customMetadata) }),
    source: { sessionId, eventId: event.id },
  };
}

export function direct(
  memory: MemoryInput,
  newId: () => string,
  customMetadata: Readonly<Record<string, unknown>> | undefined,
): MemoryEntry {
  const metadata = { ...(customMetadata ?? {}), ...(memory.customMetadata ?? {}) };
  return {
    ...copyValue(memory),
    id: memory.id ?? newId(),
    ...(Object.keys(metadata).length === 0 ? {} : { customMetadata: metadata }),
  };
}

/** The text of a memory's parts, joined by spaces (ADK's `_memory_entry_utils.extract_text`). */
export function textOf(content: Content): string {
  return content.parts.flatMap((part) => ('text' in part && part.text !== '' ? [part.text] : [])).join(' ');
}

/**
 * Turns texts into vectors: one per text, in order. `purpose` says whether they are memories (`document`) or a search
 * (`query`), for embedders that tune their vectors to it.
 */
export type Embed = (
  texts: readonly string[],
  purpose?: 'query' | 'document',
) => Promise<readonly (readonly number[])[]>;

/** A service's embedder as it calls it: with what the texts are for, and the runner's recorder when it gave one. */
export type Embedder = (
  texts: readonly string[],
  purpose: 'query' | 'document',
  record: MemoryRecording['recordEmbedding'],
) => Promise<readonly (readonly number[])[]>;

type MemoryRecording = Parameters<MemoryService['searchMemory']>[0];

/**
 * The embedder of a service's `embed` option: a function of yours, called as it is; or an embedding model (the OpenAI
 * or Gemini adapter's), whose calls the runner records and prices when it passes its recorder, and which is called
 * directly otherwise.
 */
export function embedderOf(given: Embed | Model | undefined): Embedder | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'function') return (texts, purpose) => given(texts, purpose);
  const model = given;
  if (model.embed === undefined)
    throw new AgentctxError({
      code: 'invalid_input',
      message: `${model.provider}:${model.modelId} cannot embed (it has no embed method).`,
      hint: 'Give an embedding model of the OpenAI or Gemini adapter, or a function from texts to vectors.',
    });
  return async (texts, purpose, record) =>
    (record === undefined
      ? await (model.embed as NonNullable<Model['embed']>)(texts, { purpose })
      : await record(model, texts, purpose)
    ).embeddings;
}

/** Reciprocal rank fusion's constant: the weight of a rank r is 1 / (RRF_K + r). */
const RRF_K = 60;

/**
 * Hybrid search: the keyword ranking (every memory sharing a word, best first) and the vector ranking (every memory
 * with a vector, most similar to the query's first) fused by reciprocal rank fusion, newer first among equal scores,
 * at most `limit`.
 */
export function fuseRankings<C extends Candidate>(keyword: readonly C[], similar: readonly C[], limit: number): C[] {
  const scores = new Map<C, number>();
  for (const list of [keyword, similar])
    list.forEach((item, rank) => scores.set(item, (scores.get(item) ?? 0) + 1 / (RRF_K + rank + 1)));
  return [...scores]
    .sort((a, b) => b[1] - a[1] || b[0].order - a[0].order)
    .slice(0, limit)
    .map(([item]) => item);
}

/** The candidates with a vector, most similar to `query` first (cosine similarity), those not similar at all left out. */
export function bySimilarity<C extends Candidate & { readonly vector?: readonly number[] | undefined }>(
  candidates: readonly C[],
  query: readonly number[],
): C[] {
  return candidates
    .flatMap((item) => {
      if (item.vector === undefined) return [];
      const similarity = cosine(item.vector, query);
      return similarity > 0 ? [{ item, similarity }] : [];
    })
    .sort((a, b) => b.similarity - a.similarity || b.item.order - a.item.order)
    .map(({ item }) => item);
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let left = 0;
  let right = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    left += x * x;
    right += y * y;
  }
  return left === 0 || right === 0 ? 0 : dot / Math.sqrt(left * right);
}
