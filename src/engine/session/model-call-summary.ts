import type { ModelCallRecord, ModelCallSummary } from '../../contracts/model-call.js';

/** A recorded call without its request and provenance, for listing. */
export function summarizeModelCall(record: ModelCallRecord): ModelCallSummary {
  const { request, provenance: _provenance, ...rest } = record;
  return { ...rest, requestChars: JSON.stringify(request).length };
}
