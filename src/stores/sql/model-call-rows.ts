import type { Usage } from '../../contracts/event.js';
import type { ModelCallRecord, ModelCallSummary } from '../../contracts/model-call.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { StoredCall } from './request-deltas.js';
import type { SqlParam } from './sql-driver.js';

// How a recorded model call maps to the columns of agentctx_model_calls. The summary columns let a listing
// skip the request and provenance, which are the bulk of a row.

export type SummaryRow = {
  call_index: number;
  invocation_id: string;
  agent: string;
  call_time: number;
  edited_by_callback: number;
  response_event_id: string | null;
  usage_json: string | null;
  request_chars: number;
};

export type CallRow = SummaryRow & { request_json: string; provenance_json: string; base_call_index: number | null; base_message_count: number | null };

export const SUMMARY_COLUMNS: readonly string[] = [
  'invocation_id',
  'agent',
  'call_time',
  'edited_by_callback',
  'response_event_id',
  'usage_json',
  'request_chars',
];

export const CALL_COLUMNS: readonly string[] = [...SUMMARY_COLUMNS, 'request_json', 'provenance_json', 'base_call_index', 'base_message_count'];

/** Parameters in the order of `CALL_COLUMNS`, for a call stored whole or as a difference from an earlier one. */
export function callParams(call: Omit<ModelCallRecord, 'index'>, stored: StoredCall): SqlParam[] {
  return [
    call.invocationId,
    call.agent,
    call.timestamp,
    call.editedByCallback ? 1 : 0,
    call.responseEventId ?? null,
    call.usage === undefined ? null : JSON.stringify(call.usage),
    // The same count `summarizeModelCall` gives for the whole request, computed once instead of on every listing.
    stored.requestChars,
    JSON.stringify(stored.request),
    JSON.stringify(stored.provenance),
    stored.base?.index ?? null,
    stored.base?.count ?? null,
  ];
}

/** The earlier call a stored row continues, if it is a difference. */
export function baseOf(row: CallRow): { index: number; count: number } | undefined {
  return row.base_call_index === null || row.base_message_count === null ? undefined : { index: row.base_call_index, count: row.base_message_count };
}

export function toCallSummary(row: SummaryRow): ModelCallSummary {
  return {
    index: row.call_index,
    invocationId: row.invocation_id,
    agent: row.agent,
    timestamp: row.call_time,
    editedByCallback: row.edited_by_callback === 1,
    ...(row.response_event_id === null ? {} : { responseEventId: row.response_event_id }),
    ...(row.usage_json === null ? {} : { usage: JSON.parse(row.usage_json) as Usage }),
    requestChars: row.request_chars,
  };
}

export function toCallRecord(row: CallRow): ModelCallRecord {
  const { requestChars: _requestChars, ...summary } = toCallSummary(row);
  return {
    ...summary,
    request: JSON.parse(row.request_json) as LlmRequest,
    provenance: JSON.parse(row.provenance_json) as Provenance,
  };
}
