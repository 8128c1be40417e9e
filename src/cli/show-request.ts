import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import { findInRequest } from '../engine/assembly/find-in-request.js';
import { requestToJson } from '../engine/assembly/request-json.js';
import { countRequestTokens } from '../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';
import { formatOccurrences, formatRequest } from './format-request.js';
import type { CliIo } from './io.js';
import { createStyle } from './style.js';

/** How `inspect` shows a request: as a person reads it, as JSON, with provenance, tokens, or where a text occurs. */
export type ShowOptions = {
  json?: boolean | undefined;
  provenance?: boolean | undefined;
  find?: string | undefined;
  tokens?: boolean | undefined;
};

/** What a recorded call adds after its request: the answer, for a person and in `--json --provenance`. */
export type ShowAfter = { text: string; json: Record<string, unknown> };

export async function show(
  request: LlmRequest,
  provenance: Provenance,
  trace: unknown,
  header: string,
  values: ShowOptions,
  io: CliIo,
  warnings: readonly string[] = [],
  after?: ShowAfter,
): Promise<number> {
  const style = createStyle(io.isTty);
  if (values.find !== undefined) {
    const occurrences = findInRequest(request, values.find, provenance);
    if (values.json === true) io.stdout(`${JSON.stringify(occurrences, null, 2)}\n`);
    else io.stdout(formatOccurrences(values.find, occurrences, style));
    return occurrences.length > 0 ? 0 : 1;
  }
  const tokens = values.tokens === true ? countRequestTokens(request, await loadTokenCounter(), provenance) : undefined;
  if (values.json === true) {
    const json =
      values.provenance === true || tokens !== undefined
        ? {
            request: requestToJson(request),
            ...(values.provenance === true ? { provenance, warnings } : {}),
            ...(trace === undefined || values.provenance !== true ? {} : { trace }),
            ...(tokens === undefined ? {} : { tokens }),
            ...(after === undefined || values.provenance !== true ? {} : after.json),
          }
        : requestToJson(request);
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  io.stdout(formatRequest(request, provenance, header, style, tokens));
  if (after !== undefined) io.stdout(`\n${after.text}`);
  for (const warning of warnings) io.stdout(`${style.yellow('warning:')} ${warning}\n`);
  return 0;
}
