import type { ModelCallRecord } from '../contracts/model-call.js';
import type { ModelCallReader } from '../contracts/model-call-log.js';
import type { SessionKey } from '../contracts/session.js';
import type { TokenCounter } from '../contracts/tokens.js';
import { countRequestTokens, type RequestTokenCount } from '../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';

/** A recorded call and its local token count. */
export type LoadedCall = { record: ModelCallRecord; tokens: RequestTokenCount };

export type CallLoader = {
  /** One call of a session, `undefined` when there is none. */
  get(key: SessionKey, index: number): Promise<LoadedCall | undefined>;
  /** These calls of a session, in the order given; calls it does not have are left out. */
  load(key: SessionKey, indexes: readonly number[]): Promise<LoadedCall[]>;
  /** Every call of a session, in order. */
  all(key: SessionKey): Promise<LoadedCall[]>;
  /** These recorded calls as stored, in the order given, without counting their requests; calls it does not have are left out. */
  records(key: SessionKey, indexes: readonly number[]): Promise<ModelCallRecord[]>;
  /** The token counter every count of the inspector uses. */
  tokenCounter(): Promise<TokenCounter>;
  readonly encoding: Promise<string>;
};

const CACHE_SIZE = 2000;

/**
 * Reads recorded calls through the call log contract and counts their tokens. Counting a long session's requests takes
 * a while (the tokenizer loads on first use), so counts are kept per call, keyed by what identifies the recording: a
 * session deleted and run again under the same id records calls with other invocation ids and timestamps. A pending
 * call is counted every time: it is not over yet.
 */
export function createCallLoader(
  log: ModelCallReader,
  counter: () => Promise<TokenCounter> = loadTokenCounter,
): CallLoader {
  const counts = new Map<string, RequestTokenCount>();
  const count = (key: SessionKey, record: ModelCallRecord, tokens: TokenCounter): RequestTokenCount => {
    const { request } = record;
    const id = [
      key.appName,
      key.userId,
      key.sessionId,
      record.index,
      record.timestamp,
      record.invocationId,
      request.system.length,
      request.tools.length,
      request.messages.length,
    ].join('\u0000');
    const cached = counts.get(id);
    if (cached !== undefined) {
      counts.delete(id);
      counts.set(id, cached);
      return cached;
    }
    const counted = countRequestTokens(request, tokens, record.provenance);
    if (record.status === 'pending') return counted;
    counts.set(id, counted);
    if (counts.size > CACHE_SIZE) counts.delete(counts.keys().next().value as string);
    return counted;
  };
  const load = async (key: SessionKey, indexes: readonly number[]): Promise<LoadedCall[]> => {
    // One memo for the whole batch: consecutive calls resend the same history, whose text is then tokenized once.
    const tokens = indexes.length > 1 ? memoCounter(await counter()) : await counter();
    const loaded: LoadedCall[] = [];
    for (const index of indexes) {
      const record = await log.getModelCall({ ...key, index });
      if (record !== undefined) loaded.push({ record, tokens: count(key, record, tokens) });
    }
    return loaded;
  };
  return {
    async get(key, index) {
      return (await load(key, [index]))[0];
    },
    load,
    async all(key) {
      return load(
        key,
        (await log.listModelCalls(key)).map((summary) => summary.index),
      );
    },
    async records(key, indexes) {
      const records: ModelCallRecord[] = [];
      for (const index of indexes) {
        const record = await log.getModelCall({ ...key, index });
        if (record !== undefined) records.push(record);
      }
      return records;
    },
    tokenCounter: counter,
    get encoding() {
      return counter().then((tokens) => tokens.encoding);
    },
  };
}

/** A counter that remembers what it counted, for one batch of calls (texts are not kept beyond it). */
function memoCounter(counter: TokenCounter): TokenCounter {
  const known = new Map<string, number>();
  return {
    encoding: counter.encoding,
    count(text) {
      let tokens = known.get(text);
      if (tokens === undefined) known.set(text, (tokens = counter.count(text)));
      return tokens;
    },
  };
}
