import type { Part } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';

/**
 * A history as readable lines for a summarizer: `author: text`, with tool calls and their results written out
 * (ADK drops them, so a summary cannot mention what a tool found). Long values are shortened to `maxChars`, with a
 * note of how much was left out.
 */
export function renderEvents(events: readonly Event[], maxChars: number): string[] {
  const lines: string[] = [];
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      const line = renderPart(event.author, part, maxChars);
      if (line !== undefined) lines.push(line);
    }
  }
  return lines;
}

function renderPart(author: string, part: Part, maxChars: number): string | undefined {
  if ('text' in part)
    return part.text === '' || part.thought === true ? undefined : `${author}: ${shorten(part.text, maxChars)}`;
  if ('functionCall' in part)
    return `${author} called ${part.functionCall.name}(${shorten(JSON.stringify(part.functionCall.args ?? {}), maxChars)})`;
  if ('functionResponse' in part)
    return `${part.functionResponse.name} returned: ${shorten(JSON.stringify(part.functionResponse.response ?? {}), maxChars)}`;
  if ('inlineData' in part) return `${author}: [${part.inlineData.mimeType} data]`;
  if ('fileData' in part) return `${author}: [file ${part.fileData.fileUri}]`;
  return undefined;
}

/** The text, or its start and a note of how many characters were cut. */
export function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)`;
}

/**
 * ADK's rendering, kept for compatibility: one `author: text` line per text part (thoughts included; calls and results
 * dropped), joined by a literal backslash and `n`, as its double-escaped source does.
 */
export function renderEventsAdk(events: readonly Event[]): string {
  const lines: string[] = [];
  for (const event of events) {
    for (const part of event.content?.parts ?? [])
      if ('text' in part && part.text !== '') lines.push(`${event.author}: ${part.text}`);
  }
  return lines.join('\\n');
}
