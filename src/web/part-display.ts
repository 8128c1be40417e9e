import type { Part } from '../contracts/content.js';
import { searchableText } from '../engine/assembly/part-text.js';

export type PartType =
  | 'text'
  | 'functionCall'
  | 'functionResponse'
  | 'inlineData'
  | 'fileData'
  | 'executableCode'
  | 'codeExecutionResult';

export function partType(part: Part): PartType {
  if ('text' in part) return 'text';
  if ('functionCall' in part) return 'functionCall';
  if ('functionResponse' in part) return 'functionResponse';
  if ('inlineData' in part) return 'inlineData';
  if ('fileData' in part) return 'fileData';
  if ('executableCode' in part) return 'executableCode';
  return 'codeExecutionResult';
}

/** The text the page shows for a part: text as is, calls and responses as indented JSON, data by name and type. */
export function partText(part: Part): string {
  if ('functionCall' in part) return JSON.stringify(part.functionCall, null, 2);
  if ('functionResponse' in part) return JSON.stringify(part.functionResponse, null, 2);
  if ('inlineData' in part)
    return `${part.inlineData.displayName ?? '(inline data)'} · ${part.inlineData.mimeType} · ${part.inlineData.data.length} base64 chars`;
  return searchableText(part);
}
