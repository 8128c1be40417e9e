import type { Part } from '../../contracts/content.js';

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
