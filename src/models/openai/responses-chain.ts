import { createHash } from 'node:crypto';
import type { Part } from '../../contracts/content.js';
import type { Message } from '../../contracts/request.js';
import type { ResponsesInputItem } from './responses-wire.js';

/**
 * How a conversation OpenAI stores (`store: true`) is continued. Each answer's last part carries, in
 * `providerMetadata.openai`, the response's id and `chain`: a hash of the conversation as input items up to and
 * including that answer, which is what OpenAI then holds. A later request whose history renders to the same items up
 * to that answer continues it with `previous_response_id` and sends only the items after it; a history rewritten
 * since (compaction, paging, a callback's edit, a different model's turn) no longer matches, and the request starts a
 * new chain by sending everything.
 */
export type ChainStamp = { responseId: string; chain: string };

/** The hash of a conversation's input items. */
export function chainHash(items: readonly ResponsesInputItem[]): string {
  return createHash('sha256').update(JSON.stringify(items)).digest('base64url');
}

/** The parts with the stamp on the last of them (parts that carry no provider data get it). */
export function stampChain(parts: readonly Part[], stamp: ChainStamp): Part[] {
  return parts.map((part, index) => {
    if (index !== parts.length - 1 || !('text' in part || 'functionCall' in part)) return part;
    const metadata = part.providerMetadata ?? {};
    return { ...part, providerMetadata: { ...metadata, openai: { ...metadata['openai'], ...stamp } } };
  });
}

/**
 * The last answer of the history that OpenAI holds as it is now: its response id and how many of the history's
 * input items it covers (`render` turns messages into input items), or undefined when there is none.
 */
export function chainLink(
  messages: readonly Message[],
  render: (messages: readonly Message[]) => ResponsesInputItem[],
): { responseId: string; items: number } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role !== 'model') continue;
    const stamp = stampOf(message.content.at(-1));
    if (stamp === undefined) continue;
    const covered = render(messages.slice(0, index + 1));
    return chainHash(covered) === stamp.chain ? { responseId: stamp.responseId, items: covered.length } : undefined;
  }
  return undefined;
}

function stampOf(part: Part | undefined): ChainStamp | undefined {
  const data = part !== undefined && 'providerMetadata' in part ? part.providerMetadata?.['openai'] : undefined;
  const responseId = data?.['responseId'];
  const chain = data?.['chain'];
  return typeof responseId === 'string' && typeof chain === 'string' ? { responseId, chain } : undefined;
}
