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

/** The part without its providers' opaque data (`providerMetadata`), for a receiver that has no field for it. */
export function withoutProviderMetadata(part: Part): Part {
  if (!('providerMetadata' in part)) return part;
  const { providerMetadata: _metadata, ...rest } = part;
  return rest;
}
