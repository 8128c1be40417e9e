import type { FunctionCallPart, FunctionResponsePart, Part, TextPart } from '../../contracts/content.js';

export function isTextPart(part: Part): part is TextPart {
  return 'text' in part;
}

export function isFunctionCallPart(part: Part): part is FunctionCallPart {
  return 'functionCall' in part;
}

export function isFunctionResponsePart(part: Part): part is FunctionResponsePart {
  return 'functionResponse' in part;
}
