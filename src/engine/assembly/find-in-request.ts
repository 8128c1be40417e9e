import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { searchableText } from './part-text.js';
import { sourceAt } from './provenance-pieces.js';

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
    found.push({
      path: 'system',
      start,
      end: start + text.length,
      source: provenance === undefined ? undefined : sourceAt(request, provenance, { in: 'system' }, start),
    });
  }
  request.tools.forEach((tool, index) => {
    const source = provenance?.tools[index];
    const fields: [string, string][] = [
      ['name', tool.name],
      ['description', tool.description],
      ['parameters', tool.parameters === undefined ? '' : JSON.stringify(tool.parameters)],
    ];
    for (const [field, value] of fields) {
      for (const start of indexesOf(value, text)) {
        // A hook may have written part of a description; the rest of a tool is the tool's.
        const at =
          field === 'description' && provenance !== undefined
            ? sourceAt(request, provenance, { in: 'tool', tool: index }, start)
            : source;
        found.push({ path: `tools[${index}].${field}`, start, end: start + text.length, source: at });
      }
    }
  });
  request.messages.forEach((message, messageIndex) => {
    message.content.forEach((part, partIndex) => {
      for (const start of indexesOf(searchableText(part), text)) {
        const source =
          provenance === undefined
            ? undefined
            : sourceAt(request, provenance, { in: 'part', message: messageIndex, part: partIndex }, start);
        found.push({
          path: `messages[${messageIndex}].content[${partIndex}]`,
          start,
          end: start + text.length,
          source,
        });
      }
    });
  });
  return found;
}

function indexesOf(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + 1))
    found.push(index);
  return found;
}
