import type { TextPart } from '../../contracts/content.js';

/**
 * How an OpenAI reasoning item rides on the open model contract: as thought parts, one per summary (one with empty
 * text when the item has none), each carrying `providerMetadata.openai.itemId`; the first also carries the item's
 * `encryptedContent`. The session keeps them with the model's turn, so the reasoning goes back to OpenAI on the next
 * call, after a tool call or a restart alike; other providers' adapters leave them out.
 */
export type OpenAIReasoning = { itemId: string; encryptedContent?: string };

/** The thought parts for a reasoning item (`summaries`: its summary texts). */
export function reasoningParts(
  itemId: string,
  encryptedContent: string | undefined,
  summaries: readonly string[],
): TextPart[] {
  const texts = summaries.length === 0 ? [''] : summaries;
  return texts.map((text, index) => ({
    text,
    thought: true,
    providerMetadata: {
      openai: index === 0 && encryptedContent !== undefined ? { itemId, encryptedContent } : { itemId },
    },
  }));
}

/** The reasoning item a thought part belongs to, when OpenAI gave it. */
export function openAIReasoning(part: TextPart): OpenAIReasoning | undefined {
  const data = part.providerMetadata?.['openai'];
  const itemId = data?.['itemId'];
  if (typeof itemId !== 'string' || itemId === '') return undefined;
  const encrypted = data?.['encryptedContent'];
  return typeof encrypted === 'string' && encrypted !== '' ? { itemId, encryptedContent: encrypted } : { itemId };
}
