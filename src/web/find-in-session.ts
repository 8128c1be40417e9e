import type { ModelCallRecord } from '../contracts/model-call.js';
import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import { findInRequest } from '../engine/assembly/find-in-request.js';
import { searchableText } from '../engine/assembly/part-text.js';
import { trustedProvenance } from './provenance-fit.js';

/** One occurrence with the text around it, cut to a few dozen characters on each side. */
export type FoundPlace = {
  path: string;
  /** For `system`: which block (0-based) the place starts in, by the provenance. */
  block: number | null;
  start: number;
  end: number;
  source: Source | null;
  before: string;
  match: string;
  after: string;
};

export type SessionFind = {
  text: string;
  /** Every call of the session that contains the text, with how often. */
  calls: { index: number; agent: string; count: number }[];
  /** The places in the chosen call (the first that contains it when none was chosen). */
  call: number | null;
  places: FoundPlace[];
  /** True when the chosen call has more places than are listed. */
  truncated: boolean;
};

const CONTEXT = 40;
const MAX_PLACES = 500;

/** Where `text` occurs in each call of a session, and every place of it in one call with its path and source. */
export function findInSession(
  records: readonly ModelCallRecord[],
  text: string,
  chosen: number | undefined,
): SessionFind {
  const calls: SessionFind['calls'] = [];
  let call: ModelCallRecord | undefined;
  for (const record of records) {
    const count = findInRequest(record.request, text).length;
    if (count === 0) continue;
    calls.push({ index: record.index, agent: record.agent, count });
    if (chosen === undefined) call ??= record;
  }
  if (chosen !== undefined) call = records.find((record) => record.index === chosen);
  if (call === undefined) return { text, calls, call: chosen ?? null, places: [], truncated: false };
  // A recording whose provenance does not line up is searched without the parts that do not, as the call view shows it.
  const provenance = trustedProvenance(call.request, call.provenance);
  const occurrences = findInRequest(call.request, text, provenance);
  const places = occurrences.slice(0, MAX_PLACES).map((occurrence): FoundPlace => {
    const haystack = searchedText(call.request, occurrence.path);
    return {
      path: occurrence.path,
      block: occurrence.path === 'system' ? blockAt(provenance, occurrence.start) : null,
      start: occurrence.start,
      end: occurrence.end,
      source: occurrence.source ?? null,
      before: haystack.slice(Math.max(0, occurrence.start - CONTEXT), occurrence.start),
      match: haystack.slice(occurrence.start, occurrence.end),
      after: haystack.slice(occurrence.end, occurrence.end + CONTEXT),
    };
  });
  return { text, calls, call: call.index, places, truncated: occurrences.length > places.length };
}

function blockAt(provenance: Provenance, offset: number): number | null {
  const index = provenance.system.findIndex((range) => offset >= range.start && offset < range.end);
  return index === -1 ? null : index;
}

/** The text `findInRequest` searched at a path, so offsets can be turned back into an excerpt. */
function searchedText(request: LlmRequest, path: string): string {
  if (path === 'system') return request.system;
  const tool = /^tools\[(\d+)\]\.(name|description|parameters)$/.exec(path);
  if (tool !== null) {
    const declaration = request.tools[Number(tool[1])];
    if (declaration === undefined) return '';
    if (tool[2] === 'name') return declaration.name;
    if (tool[2] === 'description') return declaration.description;
    return declaration.parameters === undefined ? '' : JSON.stringify(declaration.parameters);
  }
  const part = /^messages\[(\d+)\]\.content\[(\d+)\]$/.exec(path);
  const found = part === null ? undefined : request.messages[Number(part[1])]?.content[Number(part[2])];
  return found === undefined ? '' : searchableText(found);
}
