import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import { editsIn } from '../engine/assembly/provenance-pieces.js';

/** Which parts of a recorded provenance describe its request; a part that does not is shown unattributed. */
export type ProvenanceFit = { system: boolean; tools: boolean; messages: boolean; notes: string[] };

/**
 * Checks that the provenance lines up with the request. It always does for calls recorded since hooks' edits are
 * reconciled; older recordings, or a store that mangled one of the two, may not, and slicing their text by stale
 * ranges would show garbled blocks. Text outside every system block other than blank separators counts as a misfit:
 * reconciliation attributes all text a hook writes, so only the separators assembly joined blocks with lack a source.
 */
export function checkProvenanceFit(request: LlmRequest, provenance: Provenance): ProvenanceFit {
  const notes: string[] = [];
  const system = systemFits(request.system, provenance);
  if (!system) notes.push('its system blocks do not cover the system text as sent');
  const tools = provenance.tools.length === request.tools.length;
  if (!tools) notes.push(`it has ${provenance.tools.length} tool sources for ${request.tools.length} tools`);
  const messages =
    provenance.messages.length === request.messages.length &&
    request.messages.every((message, index) => provenance.messages[index]?.length === message.content.length);
  if (!messages) notes.push('its message sources do not match the messages and parts');
  return { system, tools, messages, notes };
}

/** The provenance with what does not line up taken out (no blocks, no tool or message sources), so nothing is misattributed. */
export function trustedProvenance(request: LlmRequest, provenance: Provenance): Provenance {
  const fit = checkProvenanceFit(request, provenance);
  if (fit.notes.length === 0) return provenance;
  const edits = (provenance.edits ?? []).filter((edit) =>
    edit.target.in === 'system' ? fit.system : edit.target.in === 'tool' ? fit.tools : fit.messages,
  );
  return {
    system: fit.system ? provenance.system : [],
    tools: fit.tools ? provenance.tools : [],
    messages: fit.messages ? provenance.messages : [],
    ...(edits.length === 0 ? {} : { edits }),
    ...(provenance.removed === undefined ? {} : { removed: provenance.removed }),
  };
}

function systemFits(text: string, provenance: Provenance): boolean {
  const blocks = provenance.system;
  if (blocks.length === 0) return text === '';
  let cursor = 0;
  for (const block of blocks) {
    if (
      !Number.isInteger(block.start) ||
      !Number.isInteger(block.end) ||
      block.start < cursor ||
      block.end < block.start ||
      block.end > text.length
    )
      return false;
    if (!blank(text.slice(cursor, block.start))) return false;
    cursor = block.end;
  }
  if (!blank(text.slice(cursor))) return false;
  // An edit that crosses a block boundary could not be shown inside either block.
  return editsIn(provenance, { in: 'system' }).every((edit) =>
    blocks.some((block) => block.start <= edit.start && edit.start <= edit.end && edit.end <= block.end),
  );
}

/** What lies outside the blocks is the separators assembly joined them with (blank lines); a hook's text never is. */
function blank(text: string): boolean {
  return text.trim() === '';
}
