import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { ModelCallRecord } from '../contracts/model-call.js';
import { formatAnswer, formatCallTree, formatWire } from './format-call.js';
import type { CliIo } from './io.js';
import { openRecordedSession, recordedCall, type RecordedSessionOptions } from './recorded-session.js';
import type { CliRuntime } from './runtime.js';
import { show, type ShowOptions } from './show-request.js';
import { createStyle } from './style.js';
import { formatPaused } from './format-paused.js';

export type RecordedOptions = ShowOptions &
  RecordedSessionOptions & { call?: string | undefined; wire?: boolean | undefined };

/**
 * `inspect --session`: the session's recorded calls as a tree, or one call — its request with provenance, then its
 * answer, time and usage — or the exact body its adapter sent (`--wire`).
 */
export async function inspectRecorded(
  file: string | undefined,
  values: RecordedOptions,
  io: CliIo,
  runtime: CliRuntime,
): Promise<number> {
  const { store, key } = await openRecordedSession(file, values, io.cwd, runtime);
  const style = createStyle(io.isTty);
  if (values.call === undefined) {
    if (values.wire === true) throw new UsageError('--wire shows one call: add --call <n>.');
    const calls = await store.listModelCalls(key);
    if (values.json === true) io.stdout(`${JSON.stringify(calls, null, 2)}\n`);
    else {
      io.stdout(formatCallTree(calls, key.sessionId, style));
      io.stdout(formatPaused((await store.getSession(key))?.events ?? [], style));
    }
    return 0;
  }
  const record = await recordedCall(store, key, values.call);
  const title = `Call ${record.index} of session ${key.sessionId}: agent '${record.agent}', invocation ${record.invocationId}`;
  if (values.wire === true) return showWire(record, title, values, io);
  const nested =
    record.parent === undefined
      ? ''
      : ` · inside tool call ${record.parent.functionCallId} (${record.parent.tool})${record.parent.callIndex === undefined ? '' : ` of call ${record.parent.callIndex}`}`;
  const edited = record.editedByCallback ? ' · edited by a beforeModel hook' : '';
  // An embeddings call's request is the texts it embedded (the vectors are not kept).
  const operation = record.operation === 'embeddings' ? ' · embeddings: the texts embedded' : '';
  return show(
    record.request,
    record.provenance,
    undefined,
    `${title}${operation}${nested}${edited}`,
    values,
    io,
    record.warnings ?? [],
    { text: formatAnswer(record, style), json: { call: answerJson(record) } },
  );
}

function showWire(record: ModelCallRecord, title: string, values: RecordedOptions, io: CliIo): number {
  const wire = record.wire;
  if (wire === undefined) {
    const why =
      record.status === 'pending'
        ? 'the call never got to report it (it is still pending)'
        : `its model (${record.model === undefined ? 'unknown' : `${record.model.provider}:${record.model.modelId}`}) sends nothing over HTTP`;
    throw new NotFoundError({
      resource: 'wire body',
      id: String(record.index),
      message: `Call ${record.index} has no recorded wire body: ${why}.`,
      hint: 'Without --wire, inspect shows the request agentctx recorded for it.',
    });
  }
  // The body exactly as sent: JSON for every built-in adapter, so --json prints it as it is.
  if (values.json === true) io.stdout(wire.body.endsWith('\n') ? wire.body : `${wire.body}\n`);
  else io.stdout(formatWire(wire, `${title} · wire`, createStyle(io.isTty)));
  return 0;
}

// The record without the request and provenance, which `--json --provenance` prints beside it.
function answerJson(record: ModelCallRecord): Record<string, unknown> {
  const { request: _request, provenance: _provenance, wire, ...rest } = record;
  return {
    ...rest,
    ...(wire === undefined ? {} : { wire: { ...wire, body: undefined, bodyChars: wire.body.length } }),
  };
}
