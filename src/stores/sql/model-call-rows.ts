import type { Usage } from '../../contracts/event.js';
import type {
  ModelCallRecord,
  ModelCallStatus,
  ModelCallSummary,
  NewModelCall,
  RecordedResponse,
  WireRecord,
} from '../../contracts/model-call.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { CallOutcome } from '../../engine/session/model-call-rules.js';
import type { StoredCall } from './request-deltas.js';
import type { SqlParam } from './sql-driver.js';
import type { StoredWire, WireDelta } from './wire-deltas.js';

// How a recorded model call maps to its two rows: what was recorded in agentctx_model_calls (`c`), how it ended in
// agentctx_model_call_outcomes (`o`, none while the call is pending). The summary columns let a listing skip the
// request, provenance, response and wire record, which are the bulk of both.

export type SummaryRow = {
  call_index: number;
  invocation_id: string;
  agent: string;
  call_time: number;
  edited_by_callback: number;
  request_chars: number;
  model_provider: string | null;
  model_id: string | null;
  parent_call_index: number | null;
  parent_function_call_id: string | null;
  parent_tool: string | null;
  warnings_json: string | null;
  operation: string | null;
  billed_provider: string | null;
  billed_model_id: string | null;
  status: string;
  latency_ms: number | null;
  first_token_ms: number | null;
  usage_json: string | null;
  error_text: string | null;
  response_event_id: string | null;
};

/** The request as stored: whole, or the messages that follow an earlier call's first `base_message_count`. */
export type RequestRow = {
  call_index: number;
  request_json: string;
  provenance_json: string;
  base_call_index: number | null;
  base_message_count: number | null;
};

/** The wire record without its body, and the body (a JSON string) whole or as a difference. */
export type WireRow = {
  wire_json: string | null;
  wire_body_json: string | null;
  wire_base_index: number | null;
  wire_prefix: number | null;
  wire_suffix: number | null;
};

export type CallRow = SummaryRow & RequestRow & WireRow & { response_json: string | null };

/** A call's row and its outcome row, if it has one; select with `CALL_WHERE`. */
export const CALL_FROM =
  'agentctx_model_calls c LEFT JOIN agentctx_model_call_outcomes o USING (app_name, user_id, session_id, call_index)';
export const CALL_WHERE = 'c.app_name = ? AND c.user_id = ? AND c.session_id = ?';

const recorded = (column: string) => `c.${column} AS ${column}`;
const ended = (column: string) => `o.${column} AS ${column}`;

/** What `toCallSummary` reads, from `CALL_FROM`. Usage and response event of calls recorded before version 5 are on `c`. */
export const SUMMARY_SELECT: readonly string[] = [
  ...[
    'call_index',
    'invocation_id',
    'agent',
    'call_time',
    'edited_by_callback',
    'request_chars',
    'model_provider',
    'model_id',
  ].map(recorded),
  ...[
    'parent_call_index',
    'parent_function_call_id',
    'parent_tool',
    'warnings_json',
    'operation',
    'billed_provider',
    'billed_model_id',
  ].map(recorded),
  `COALESCE(o.status, 'pending') AS status`,
  ended('latency_ms'),
  ended('first_token_ms'),
  'COALESCE(o.usage_json, c.usage_json) AS usage_json',
  ended('error_text'),
  'COALESCE(o.response_event_id, c.response_event_id) AS response_event_id',
];

/** The request as stored, on agentctx_model_calls. */
export const REQUEST_COLUMNS: readonly string[] = [
  'request_json',
  'provenance_json',
  'base_call_index',
  'base_message_count',
];

/** The wire record as stored, on agentctx_model_call_outcomes. */
export const WIRE_COLUMNS: readonly string[] = [
  'wire_json',
  'wire_body_json',
  'wire_base_index',
  'wire_prefix',
  'wire_suffix',
];

/** Everything `toCallRecord` reads, from `CALL_FROM`. */
export const CALL_SELECT: readonly string[] = [
  ...SUMMARY_SELECT,
  ...REQUEST_COLUMNS.map(recorded),
  ended('response_json'),
  ...WIRE_COLUMNS.map(ended),
];

/** Written once, on agentctx_model_calls, when the call is recorded. */
export const RECORD_COLUMNS: readonly string[] = [
  'invocation_id',
  'agent',
  'call_time',
  'edited_by_callback',
  'request_chars',
  'model_provider',
  'model_id',
  'parent_call_index',
  'parent_function_call_id',
  'parent_tool',
  'warnings_json',
  'operation',
  'billed_provider',
  'billed_model_id',
  ...REQUEST_COLUMNS,
];

/** Written on agentctx_model_call_outcomes, all of them, when the call ends (or is recorded with its outcome). */
export const OUTCOME_COLUMNS: readonly string[] = [
  'status',
  'latency_ms',
  'first_token_ms',
  'usage_json',
  'error_text',
  'response_event_id',
  'response_json',
  ...WIRE_COLUMNS,
  'wire_hash',
];

/** Parameters in the order of `RECORD_COLUMNS`, for a call stored whole or as a difference from an earlier one. */
export function recordParams(call: NewModelCall, stored: StoredCall): SqlParam[] {
  return [
    call.invocationId,
    call.agent,
    call.timestamp,
    call.editedByCallback ? 1 : 0,
    // The same count `summarizeModelCall` gives for the whole request, computed once instead of on every listing.
    stored.requestChars,
    call.model?.provider ?? null,
    call.model?.modelId ?? null,
    call.parent?.callIndex ?? null,
    call.parent?.functionCallId ?? null,
    call.parent?.tool ?? null,
    call.warnings === undefined || call.warnings.length === 0 ? null : JSON.stringify(call.warnings),
    call.operation ?? null,
    call.model?.billedAs?.provider ?? null,
    call.model?.billedAs?.modelId ?? null,
    JSON.stringify(stored.request),
    JSON.stringify(stored.provenance),
    stored.base?.index ?? null,
    stored.base?.count ?? null,
  ];
}

/** Parameters in the order of `OUTCOME_COLUMNS`; `wire` is how the outcome's wire body is stored. */
export function outcomeParams(outcome: CallOutcome, wire: StoredWire | undefined): SqlParam[] {
  return [
    outcome.status,
    outcome.latencyMs ?? null,
    outcome.firstTokenMs ?? null,
    outcome.usage === undefined ? null : JSON.stringify(outcome.usage),
    outcome.error ?? null,
    outcome.responseEventId ?? null,
    outcome.response === undefined ? null : JSON.stringify(outcome.response),
    outcome.wire === undefined ? null : JSON.stringify(withoutBody(outcome.wire)),
    // A JSON string, so any text survives exactly: NUL (which PostgreSQL's TEXT refuses) and unpaired surrogates too.
    wire === undefined ? null : JSON.stringify(wire.text),
    wire?.delta?.base ?? null,
    wire?.delta?.prefix ?? null,
    wire?.delta?.suffix ?? null,
    wire?.hash ?? null,
  ];
}

/** The wire record without its body, which has columns of its own. */
function withoutBody(wire: WireRecord): Omit<WireRecord, 'body'> {
  const { body: _body, ...rest } = wire;
  return rest;
}

/** The earlier call a stored request continues, if it is a difference. */
export function baseOf(row: RequestRow): { index: number; count: number } | undefined {
  return row.base_call_index === null || row.base_message_count === null
    ? undefined
    : { index: row.base_call_index, count: row.base_message_count };
}

/** The earlier call a stored wire body continues, if it is a difference. */
export function wireBaseOf(row: WireRow): WireDelta | undefined {
  return row.wire_base_index === null || row.wire_prefix === null || row.wire_suffix === null
    ? undefined
    : { base: row.wire_base_index, prefix: row.wire_prefix, suffix: row.wire_suffix };
}

export function toCallSummary(row: SummaryRow): ModelCallSummary {
  return {
    index: row.call_index,
    invocationId: row.invocation_id,
    agent: row.agent,
    timestamp: row.call_time,
    ...(row.model_provider === null
      ? {}
      : {
          model: {
            provider: row.model_provider,
            modelId: row.model_id ?? '',
            ...(row.billed_provider === null
              ? {}
              : { billedAs: { provider: row.billed_provider, modelId: row.billed_model_id ?? '' } }),
          },
        }),
    ...(row.parent_call_index === null
      ? {}
      : {
          parent: {
            callIndex: row.parent_call_index,
            functionCallId: row.parent_function_call_id ?? '',
            tool: row.parent_tool ?? '',
          },
        }),
    editedByCallback: row.edited_by_callback === 1,
    ...(row.warnings_json === null ? {} : { warnings: JSON.parse(row.warnings_json) as string[] }),
    ...(row.operation === 'embeddings' ? { operation: 'embeddings' as const } : {}),
    status: row.status as ModelCallStatus,
    ...(row.latency_ms === null ? {} : { latencyMs: row.latency_ms }),
    ...(row.first_token_ms === null ? {} : { firstTokenMs: row.first_token_ms }),
    ...(row.usage_json === null ? {} : { usage: JSON.parse(row.usage_json) as Usage }),
    ...(row.error_text === null ? {} : { error: row.error_text }),
    ...(row.response_event_id === null ? {} : { responseEventId: row.response_event_id }),
    requestChars: row.request_chars,
  };
}

/** The whole record from its row, given its rebuilt request and wire body. */
export function toCallRecord(
  row: CallRow,
  whole: Pick<ModelCallRecord, 'request' | 'provenance'>,
  wireBody: string | undefined,
): ModelCallRecord {
  const { requestChars: _requestChars, ...summary } = toCallSummary(row);
  return {
    ...summary,
    request: whole.request,
    provenance: whole.provenance,
    ...(row.response_json === null ? {} : { response: JSON.parse(row.response_json) as RecordedResponse }),
    ...(row.wire_json === null || wireBody === undefined
      ? {}
      : { wire: { ...(JSON.parse(row.wire_json) as Omit<WireRecord, 'body'>), body: wireBody } }),
  };
}

/** The request and provenance a row holds, before any earlier call's messages are put in front. */
export function ownRequest(row: RequestRow): Pick<ModelCallRecord, 'request' | 'provenance'> {
  return {
    request: JSON.parse(row.request_json) as LlmRequest,
    provenance: JSON.parse(row.provenance_json) as Provenance,
  };
}
