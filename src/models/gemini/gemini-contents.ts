import type { Part } from '../../contracts/content.js';
import type { Message } from '../../contracts/request.js';

/**
 * The messages as the Gemini API takes them: Gemini's API (not Vertex) rejects `displayName` on inline and file
 * data, so copies without it are sent, as ADK does; the request's own parts are left untouched.
 */
export function toGeminiContents(messages: readonly Message[]): { role: string; parts: Part[] }[] {
  return messages.map((message) => ({ role: message.role, parts: message.content.map(withoutDisplayName) }));
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
