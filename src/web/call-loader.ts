import type { ModelCallRecord } from '../contracts/model-call.js';
import type { SessionStore } from '../contracts/session-store.js';
import type { SessionKey } from '../contracts/session.js';
import type { TokenCounter } from '../contracts/tokens.js';
import { countRequestTokens, type RequestTokenCount } from '../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';

/** A recorded call and its local token count. */
export type LoadedCall = { record: ModelCallRecord; tokens: RequestTokenCount };

export type CallLoader = {
  /** One call of a session, `undefined` when there is none. */
  get(key: SessionKey, index: number): Promise<LoadedCall | undefined>;
  /** Every call of a session, in order. */
  all(key: SessionKey): Promise<LoadedCall[]>;
  readonly encoding: Promise<string>;
};

const CACHE_SIZE = 2000;

/**
 * Reads recorded calls through the store contract and counts their tokens. Counting a long session's requests takes
 * a while (the tokenizer loads on first use), so counts are kept per call, keyed by what identifies the recording: a
 * session deleted and run again under the same id records calls with other invocation ids and timestamps.
 */
export function createCallLoader(store: SessionStore, counter: () => Promise<TokenCounter> = loadTokenCounter): CallLoader {
  const counts = new Map<string, RequestTokenCount>();
  const count = async (key: SessionKey, record: ModelCallRecord): Promise<RequestTokenCount> => {
    const { request } = record;
    const id = [key.appName, key.userId, key.sessionId, record.index, record.timestamp, record.invocationId, request.system.length, request.tools.length, request.messages.length].join('\u0000');
    const cached = counts.get(id);
    if (cached !== undefined) {
      counts.delete(id);
      counts.set(id, cached);
      return cached;
    }
    const tokens = countRequestTokens(request, await counter(), record.provenance);
    counts.set(id, tokens);
    if (counts.size > CACHE_SIZE) counts.delete(counts.keys().next().value as string);
    return tokens;
  };
  const get = async (key: SessionKey, index: number): Promise<LoadedCall | undefined> => {
    const record = await store.getModelCall({ ...key, index });
    return record === undefined ? undefined : { record, tokens: await count(key, record) };
  };
  return {
    get,
    async all(key) {
      const loaded: LoadedCall[] = [];
      for (const summary of await store.listModelCalls(key)) {
        const call = await get(key, summary.index);
        if (call !== undefined) loaded.push(call);
      }
      return loaded;
    },
    get encoding() {
      return counter().then((tokens) => tokens.encoding);
    },
  };
}
