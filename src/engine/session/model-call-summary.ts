import type { ModelCallRecord, ModelCallSummary } from '../../contracts/model-call.js';

/**
 * A recorded call without its request, provenance, response and wire record, for listing. `requestChars` may be
 * given when the store already knows it, saving a serialization of the whole request.
 */
export function summarizeModelCall(
  record: ModelCallRecord,
  requestChars: number = JSON.stringify(record.request).length,
): ModelCallSummary {
  const { request: _request, provenance: _provenance, response: _response, wire: _wire, ...rest } = record;
  return { ...rest, requestChars };
}
