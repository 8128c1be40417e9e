import type { SessionArtifacts } from '../contracts/contexts.js';
import type { CallResult } from './mcp-connection.js';

/** Where a result's binary parts and whole oversized results are kept, and how they are named. */
export type ResultKeeping = {
  artifacts: SessionArtifacts | undefined;
  /** Names this call's artifacts: `mcp-<toolset>-<tool>-<call id>`, unique per call. */
  stem: string;
  /** A result whose JSON is longer is cut to this many characters of text, the whole kept as an artifact. */
  maxResultChars: number;
};

type Item = Record<string, unknown>;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'application/json': 'json',
  'text/plain': 'txt',
};

/**
 * A `tools/call` result as the function response the model sees: `{ result }` (the text, the structured content, or
 * the parts in order), `{ error }` when the server says the call failed. Images, audio and binary resources are kept
 * as artifacts and named in the response; a response longer than `maxResultChars` is cut, with a note naming the
 * artifact that holds it whole.
 */
export async function toFunctionResponse(result: CallResult, keeping: ResultKeeping): Promise<Record<string, unknown>> {
  if (typeof result !== 'object' || result === null)
    return { error: 'The MCP server answered with something that is not a tool result.' };
  const items = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const parts: unknown[] = [];
  let binary = 0;
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    parts.push(await partOf(item as Item, keeping, () => ++binary));
  }
  const texts = parts.filter((part): part is string => typeof part === 'string');
  if (result.isError === true)
    return cutToSize({ error: texts.join('\n') || 'The tool reported an error without saying what.' }, keeping);
  // Structured content is the result; the text the spec asks servers to send beside it says the same again.
  const others = parts.filter((part) => typeof part !== 'string');
  let response: Record<string, unknown>;
  if (result.structuredContent !== undefined && result.structuredContent !== null)
    response =
      others.length === 0
        ? { result: result.structuredContent }
        : { result: result.structuredContent, attachments: others };
  else if (parts.length === 1 && texts.length === 1) response = { result: texts[0] };
  else if (parts.length === 0) response = { result: '' };
  else response = { result: parts };
  return cutToSize(response, keeping);
}

async function partOf(item: Item, keeping: ResultKeeping, next: () => number): Promise<unknown> {
  switch (item['type']) {
    case 'text':
      return typeof item['text'] === 'string' ? item['text'] : '';
    case 'image':
    case 'audio':
      return {
        type: item['type'],
        mimeType: item['mimeType'],
        ...(await keepBinary(item['data'], String(item['mimeType'] ?? 'application/octet-stream'), keeping, next())),
      };
    case 'resource_link':
      return pick(item, ['type', 'uri', 'name', 'title', 'mimeType', 'description']);
    case 'resource': {
      const resource = (
        typeof item['resource'] === 'object' && item['resource'] !== null ? item['resource'] : {}
      ) as Item;
      const kept =
        typeof resource['blob'] === 'string'
          ? await keepBinary(
              resource['blob'],
              String(resource['mimeType'] ?? 'application/octet-stream'),
              keeping,
              next(),
            )
          : {};
      return { type: 'resource', ...pick(resource, ['uri', 'mimeType', 'text']), ...kept };
    }
    default:
      return { type: String(item['type'] ?? 'unknown'), note: 'a part of a kind agentctx does not show' };
  }
}

function pick(item: Item, keys: readonly string[]): Item {
  return Object.fromEntries(keys.filter((key) => item[key] !== undefined).map((key) => [key, item[key]]));
}

async function keepBinary(data: unknown, mimeType: string, keeping: ResultKeeping, index: number): Promise<Item> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'base64') : Buffer.alloc(0);
  const name = `${keeping.stem}-${index}.${EXTENSIONS[mimeType] ?? 'bin'}`;
  const saved = await save(keeping, name, { kind: 'binary', data: new Uint8Array(bytes), mimeType });
  return saved === undefined
    ? { bytes: bytes.length, note: 'not kept: the runner has no artifact store' }
    : { bytes: bytes.length, artifact: name };
}

async function save(
  keeping: ResultKeeping,
  name: string,
  artifact: Parameters<SessionArtifacts['save']>[1],
): Promise<number | undefined> {
  if (keeping.artifacts === undefined) return undefined;
  try {
    return await keeping.artifacts.save(name, artifact);
  } catch {
    return undefined;
  }
}

async function cutToSize(response: Record<string, unknown>, keeping: ResultKeeping): Promise<Record<string, unknown>> {
  const whole = JSON.stringify(response);
  if (whole.length <= keeping.maxResultChars) return response;
  // An error is cut as a result is (a server's failure can be as long as its answer).
  const key = 'error' in response ? 'error' : 'result';
  const value = response[key];
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const name = `${keeping.stem}.json`;
  const saved = await save(keeping, name, { kind: 'text', text: whole, mimeType: 'application/json' });
  const where =
    saved === undefined
      ? 'it is not kept (the runner has no artifact store)'
      : `the whole result is saved as the artifact '${name}'`;
  return {
    [key]: text.slice(0, keeping.maxResultChars),
    truncated: `The result was ${whole.length} characters, cut to the first ${keeping.maxResultChars}; ${where}.`,
  };
}
