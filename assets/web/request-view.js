// One recorded call: its request (the system text in its blocks, the tools, the messages and their parts, each coloured
// by its source with its token count as a bar; click a piece for its provenance; the raw JSON one click away) and,
// beside it, how the call ended and the body that went over the wire.
import { answerView, statusBadge, wireView } from './answer-view.js';
import { cachePanel } from './cache-view.js';
import { costPanel } from './cost-view.js';
import { copyButton, el, formatNumber, nameEl, timeEl } from './dom.js';
import { hookName, kindBadge, kindClass, kindColour, provenancePanel, sourceTitle } from './sources.js';
import { editNote, pieceNodes } from './text-pieces.js';

/**
 * Builds the view of `call` (the API's call view). `onEvent(id)` shows an event in the timeline (`onEvent(id, session)`
 * one of another session), `onCall(index)` a call.
 */
export function requestView(call, onEvent, onCall) {
  const largest = Math.max(
    1,
    ...call.system.map((b) => b.tokens),
    ...call.tools.map((t) => t.tokens),
    ...call.messages.flatMap((m) => m.parts.map((p) => p.tokens)),
  );
  const piece = (options) => pieceView({ ...options, largest, onEvent });
  const billed = call.usage?.promptTokens;
  const raw = JSON.stringify(call.request, null, 2);
  const rawBlock = el(
    'div',
    { class: 'raw', hidden: true },
    el(
      'div',
      { class: 'raw-actions' },
      copyButton('Copy JSON', () => raw),
    ),
    el('pre', { class: 'raw-json', text: raw }),
  );
  const warnings = [];
  if (call.editedByCallback) {
    const shown = call.provenanceMismatch
      ? ''
      : ': text it wrote is marked ✎, pieces it added are coloured “callback”, and what it removed is listed below';
    warnings.push(['edited', `A beforeModel callback or plugin hook changed this request after assembly${shown}.`]);
  }
  if (call.provenanceMismatch)
    warnings.push([
      'mismatch',
      `The recorded provenance does not line up with this request (${call.mismatchNotes.join('; ')}): that part is shown whole, in grey, without sources.`,
    ]);
  const request = el(
    'div',
    { class: 'call-request' },
    el(
      'section',
      { class: 'part-list system-blocks' },
      el('h4', {
        text: `system: ${call.system.length} block${call.system.length === 1 ? '' : 's'}, ${formatNumber(call.tokens.system)} tokens`,
      }),
      call.system.map((block) => [
        separatorRow(block.separatorBefore),
        piece({
          path: 'system',
          label: `block ${block.index + 1}${block.source?.kind === 'callback' ? ` · ${sourceTitle(block.source)}` : block.source?.field ? ` · ${block.source.field}` : ''}`,
          source: block.source,
          tokens: block.tokens,
          note: editNote(block.pieces),
          body: el('pre', { class: 'text sys-text' }, pieceNodes(block.pieces)),
          dataset: { block: block.index, start: block.start, end: block.end },
        }),
      ]),
      separatorRow(call.systemAfter),
    ),
    el(
      'section',
      { class: 'part-list tools' },
      el('h4', { text: `tools: ${call.tools.length}, ${formatNumber(call.tokens.tools)} tokens` }),
      call.tools.length === 0
        ? ''
        : el('p', {
            class: 'muted tools-by-source',
            text: `by source: ${call.toolsBySource.map((group) => `${group.group} ${formatNumber(group.tokens)} (${group.tools})`).join(', ')}`,
          }),
      call.tools.map((tool) =>
        piece({
          path: tool.path,
          label: `${tool.path} ${tool.declaration.name} · ${tool.origin.label}`,
          source: tool.source,
          tokens: tool.tokens,
          note: editNote(tool.descriptionPieces),
          body: el(
            'div',
            {},
            el('p', { class: 'tool-description' }, pieceNodes(tool.descriptionPieces)),
            tool.declaration.parameters === undefined
              ? ''
              : el('pre', { class: 'text json', text: JSON.stringify(tool.declaration.parameters, null, 2) }),
          ),
        }),
      ),
    ),
    call.deferredTools.length === 0
      ? ''
      : el(
          'section',
          { class: 'part-list deferred-tools' },
          el('h4', {
            text: `deferred tools: ${call.deferredTools.length}, ${call.deferredTools.filter((tool) => tool.loaded).length} loaded by ${call.deferredLoader}, ${formatNumber(call.tokens.deferredTools)} tokens`,
          }),
          el('p', {
            class: 'muted',
            text: 'The provider keeps these out of the prompt until a response of the loader loads one; a loaded one is in the prompt where that response is.',
          }),
          call.deferredTools.map((tool) =>
            piece({
              path: tool.path,
              label: `${tool.path} ${tool.declaration.name} · ${tool.origin.label} · ${tool.loaded ? 'loaded' : 'held back'}`,
              source: tool.source,
              tokens: tool.tokens,
              body: el(
                'div',
                {},
                el('p', { class: 'tool-description', text: tool.declaration.description }),
                tool.declaration.parameters === undefined
                  ? ''
                  : el('pre', { class: 'text json', text: JSON.stringify(tool.declaration.parameters, null, 2) }),
              ),
            }),
          ),
        ),
    el(
      'section',
      { class: 'part-list messages' },
      el('h4', { text: `messages: ${call.messages.length}, ${formatNumber(call.tokens.messages)} tokens` }),
      call.messages.map((message) =>
        el(
          'div',
          {
            class: `message role-${message.role === 'model' ? 'model' : 'user'}`,
            dataset: { path: message.path, tokens: message.tokens },
          },
          el('div', {
            class: 'message-head',
            text: `${message.path} · ${message.role} · ${formatNumber(message.tokens)} tokens`,
          }),
          message.parts.map((part) =>
            piece({
              path: part.path,
              label: `${part.path} · ${part.type}${part.thought ? ' (thought)' : ''}${part.source?.kind === 'callback' ? ` · ${sourceTitle(part.source)}` : ''}`,
              source: part.source,
              tokens: part.tokens,
              note: editNote(part.pieces),
              body:
                part.type === 'text'
                  ? el('pre', { class: 'text' }, pieceNodes(part.pieces))
                  : el('pre', { class: 'text json', text: part.text }),
            }),
          ),
        ),
      ),
    ),
    removedView(call.removed),
  );
  return el(
    'div',
    { class: 'request', dataset: { call: call.index, status: call.status } },
    el(
      'div',
      { class: 'call-head' },
      el('h3', { text: `Call ${call.index}` }),
      statusBadge(call.status),
      el(
        'span',
        { class: 'muted' },
        'agent ',
        nameEl('span', { class: 'agent-name' }, call.agent),
        ` · invocation ${call.invocationId} · `,
        timeEl(call.timestamp),
      ),
      call.parent === null ? '' : parentLine(call.parent, onCall),
      el(
        'p',
        { class: 'totals' },
        el('strong', {
          class: 'total-tokens',
          dataset: { tokens: call.tokens.total },
          text: `${formatNumber(call.tokens.total)} prompt tokens`,
        }),
        ` (${call.tokens.encoding}, local count: system ${formatNumber(call.tokens.system)}, tools ${formatNumber(call.tokens.tools)}, messages ${formatNumber(call.tokens.messages)}, framing ${formatNumber(call.tokens.framing)})`,
        billed === undefined ? '' : ` · billed ${formatNumber(billed)}`,
        call.usage?.cachedTokens === undefined ? '' : ` · cached ${formatNumber(call.usage.cachedTokens)}`,
        call.usage?.outputTokens === undefined ? '' : ` · output ${formatNumber(call.usage.outputTokens)}`,
      ),
      el('button', {
        type: 'button',
        class: 'toggle-raw',
        text: 'Raw JSON',
        onclick: () => (rawBlock.hidden = !rawBlock.hidden),
      }),
      Object.keys(call.config ?? {}).length === 0
        ? ''
        : el('span', { class: 'muted config', text: ` config ${JSON.stringify(call.config)}` }),
    ),
    warnings.map(([kind, text]) => el('p', { class: `warning ${kind}`, text })),
    rawBlock,
    el(
      'div',
      { class: 'call-body' },
      request,
      el(
        'aside',
        { class: 'call-outcome' },
        answerView(call),
        call.cost ? costPanel(call.cost) : '',
        call.cache ? cachePanel(call.cache, onCall) : '',
        wireView(call),
      ),
    ),
  );
}

/** Which tool call of which call this one was made for (agent tools record their calls with their caller's). */
function parentLine(parent, onCall) {
  return el(
    'span',
    { class: 'parent-line' },
    `↳ via ${parent.tool} (tool call ${parent.functionCallId}`,
    parent.callIndex === undefined
      ? ', answered by a hook'
      : [
          ' of ',
          el('button', {
            type: 'button',
            class: 'link parent-link',
            text: `call ${parent.callIndex}`,
            onclick: () => onCall(parent.callIndex),
          }),
        ],
    ')',
  );
}

/** The separator assembly put between two system blocks, as sent, in grey. */
function separatorRow(text) {
  if (!text) return '';
  return el(
    'div',
    { class: 'separator-row' },
    el('pre', { class: 'sys-text separator unsourced', title: 'separator between system blocks (no source)', text }),
    el('span', { class: 'sep-label', text: `separator · ${JSON.stringify(text).slice(1, -1)} · no source` }),
  );
}

/** The pieces hooks took out of the request: what each was, where it came from, who removed it. */
function removedView(removed) {
  if (!removed || removed.length === 0) return '';
  return el(
    'section',
    { class: 'part-list removed-list' },
    el('h4', { text: `removed by hooks: ${removed.length}` }),
    el(
      'ul',
      { class: 'plain' },
      removed.map((item) =>
        el(
          'li',
          {
            class: `removed ${kindClass(item.source.kind)}`,
            style: { '--src': kindColour(item.source.kind) },
            dataset: { what: item.what, kind: item.source.kind },
          },
          kindBadge(item.source.kind),
          el('span', { class: 'removed-what', text: ` ${item.what.replace('-', ' ')}` }),
          el('span', {
            class: 'muted',
            text: ` from ${item.source.processor}${item.source.field ? ` (${item.source.field})` : ''}, agent ${item.source.agent} · removed by ${hookName(item.by)}`,
          }),
          el('pre', { class: 'text preview', text: item.preview }),
        ),
      ),
    ),
  );
}

/** One block, tool or part: a coloured head (kind, label, token bar) that opens its provenance, and its content. */
function pieceView({ path, label, source, tokens, body, note = '', dataset = {}, largest, onEvent }) {
  const kind = source?.kind ?? 'other';
  const details = el('div', { class: 'provenance-box', hidden: true });
  const head = el(
    'button',
    { type: 'button', class: 'piece-head', title: sourceTitle(source), 'aria-expanded': 'false' },
    kindBadge(source ? kind : 'no source'),
    nameEl('span', { class: 'piece-label' }, label),
    tokenBar(tokens, largest),
  );
  head.addEventListener('click', () => {
    if (details.childElementCount === 0) details.append(provenancePanel(source, onEvent));
    details.hidden = !details.hidden;
    head.setAttribute('aria-expanded', String(!details.hidden));
  });
  return el(
    'article',
    {
      class: `piece ${kindClass(kind)}${source ? '' : ' unsourced'}`,
      style: { '--src': kindColour(kind) },
      dataset: { kind, path, tokens, ...dataset },
    },
    head,
    details,
    note,
    body,
  );
}

/** A bar as long as the piece's share of the largest piece of the call, and its count. */
export function tokenBar(tokens, largest) {
  const width = `${Math.max(0.5, Math.round((tokens / largest) * 1000) / 10)}%`;
  return el(
    'span',
    { class: 'token-bar', title: `${formatNumber(tokens)} tokens` },
    el('span', { class: 'bar' }, el('span', { class: 'fill', style: { width } })),
    el('span', { class: 'token-count', text: formatNumber(tokens) }),
  );
}
