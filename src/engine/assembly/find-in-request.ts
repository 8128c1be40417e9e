import type { Part } from '../../contracts/content.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';

/** One place a text occurs in a request. */
export type Occurrence = {
  /** `system`, `tools[2].description`, `messages[0].content[1]`, … */
  path: string;
  /** Offsets within the searched text of that place (for a function call or response: its JSON form). */
  start: number;
  end: number;
  /** Where that piece of the request came from, when provenance was given. */
  source: Source | undefined;
};

/**
 * Every occurrence of `text` in a request, with its path and, given the provenance, its source. Text parts are
 * searched as text; calls, responses and tool parameters in their JSON form.
 */
export function findInRequest(request: LlmRequest, text: string, provenance?: Provenance): Occurrence[] {
  if (text === '') return [];
  const found: Occurrence[] = [];
  for (const start of indexesOf(request.system, text)) {
    const block = provenance?.system.find((range) => start >= range.start && start < range.end);
    found.push({ path: 'system', start, end: start + text.length, source: block?.source });
  }
  request.tools.forEach((tool, index) => {
    const source = provenance?.tools[index];
    const fields: [string, string][] = [
      ['name', tool.name],
      ['description', tool.description],
      ['parameters', tool.parameters === undefined ? '' : JSON.stringify(tool.parameters)],
    ];
    for (const [field, value] of fields) {
      for (const start of indexesOf(value, text)) found.push({ path: `tools[${index}].${field}`, start, end: start + text.length, source });
    }
  });
  request.messages.forEach((message, messageIndex) => {
    message.content.forEach((part, partIndex) => {
      const source = provenance?.messages[messageIndex]?.[partIndex];
      for (const start of indexesOf(searchableText(part), text)) {
        found.push({ path: `messages[${messageIndex}].content[${partIndex}]`, start, end: start + text.length, source });
      }
    });
  });
  return found;
}

/** The text of a part that `findInRequest` searches. */
export function searchableText(part: Part): string {
  if ('text' in part) return part.text;
  if ('functionCall' in part) return JSON.stringify(part.functionCall);
  if ('functionResponse' in part) return JSON.stringify(part.functionResponse);
  if ('inlineData' in part) return `${part.inlineData.displayName ?? ''} ${part.inlineData.mimeType}`;
  if ('fileData' in part) return `${part.fileData.displayName ?? ''} ${part.fileData.fileUri}`;
  if ('executableCode' in part) return part.executableCode.code;
  return part.codeExecutionResult.output ?? '';
}

function indexesOf(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + 1)) found.push(index);
  return found;
}
