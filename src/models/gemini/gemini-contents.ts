import type { Part } from '../../contracts/content.js';
import type { Message } from '../../contracts/request.js';
import { withoutProviderMetadata } from '../../engine/session/parts.js';

/**
 * The messages as the Gemini API takes them: Gemini's API (not Vertex AI) rejects `displayName` on inline and file
 * data, so copies without it are sent there, as ADK does; the request's own parts are left untouched.
 */
export function toGeminiContents(
  messages: readonly Message[],
  backend: 'gemini-api' | 'vertex' = 'gemini-api',
): { role: string; parts: Part[] }[] {
  return messages.map((message) => ({
    role: message.role,
    parts: message.content
      .filter((part) => !isOtherProvidersOnly(part))
      .map((part) =>
        backend === 'vertex' ? withoutProviderMetadata(part) : withoutDisplayName(withoutProviderMetadata(part)),
      ),
  }));
}

/**
 * Another provider's opaque data stays out of the request (the API refuses the field): a part that is nothing but
 * such data (an empty thought holding Anthropic's redacted thinking) is left out whole.
 */
function isOtherProvidersOnly(part: Part): boolean {
  return 'text' in part && part.text === '' && part.providerMetadata !== undefined;
}

function withoutDisplayName(part: Part): Part {
  if ('inlineData' in part && part.inlineData.displayName !== undefined) {
    const { displayName: _name, ...inlineData } = part.inlineData;
    return { ...part, inlineData };
  }
  if ('fileData' in part && part.fileData.displayName !== undefined) {
    const { displayName: _name, ...fileData } = part.fileData;
    return { ...part, fileData };
  }
  return part;
}
