// One recorded call's request: the system text in its blocks, the tools, the messages and their parts, each coloured by
// its source with its token count as a bar; click a piece for its provenance; the raw JSON one click away.
import { copyButton, el, formatNumber, formatTime, markedText } from './dom.js';
import { kindBadge, kindClass, kindColour, provenancePanel, sourceTitle } from './sources.js';

/** Builds the request view of `call` (the API's call view). `onEvent(id)` shows an event in the timeline. */
export function requestView(call, onEvent) {
  const largest = Math.max(1, ...call.system.map((b) => b.tokens), ...call.tools.map((t) => t.tokens), ...call.messages.flatMap((m) => m.parts.map((p) => p.tokens)));
  const piece = (options) => pieceView({ ...options, largest, onEvent });
  const billed = call.usage?.promptTokens;
  const raw = JSON.stringify(call.request, null, 2);
  const rawBlock = el('div', { class: 'raw', hidden: true }, el('div', { class: 'raw-actions' }, copyButton('Copy JSON', () => raw)), el('pre', { class: 'raw-json', text: raw }));
  const warnings = [];
  if (call.editedByCallback) warnings.push('A beforeModel callback changed this request after assembly: provenance may not match it.');
  if (call.provenanceMismatch) warnings.push('The provenance does not cover this request exactly; pieces without a source are shown grey.');
  return el(
    'div',
    { class: 'request', dataset: { call: call.index } },
    el(
      'div',
      { class: 'call-head' },
      el('h3', { text: `Call ${call.index}` }),
      el('span', { class: 'muted', text: `agent ${call.agent} · invocation ${call.invocationId} · ${formatTime(call.timestamp)}` }),
      el(
        'p',
        { class: 'totals' },
        el('strong', { class: 'total-tokens', dataset: { tokens: call.tokens.total }, text: `${formatNumber(call.tokens.total)} prompt tokens` }),
        ` (${call.tokens.encoding}, local count: system ${formatNumber(call.tokens.system)}, tools ${formatNumber(call.tokens.tools)}, messages ${formatNumber(call.tokens.messages)}, framing ${formatNumber(call.tokens.framing)})`,
        billed === undefined ? '' : ` · billed ${formatNumber(billed)}`,
        call.usage?.cachedTokens === undefined ? '' : ` · cached ${formatNumber(call.usage.cachedTokens)}`,
        call.usage?.outputTokens === undefined ? '' : ` · output ${formatNumber(call.usage.outputTokens)}`,
      ),
      el('button', { type: 'button', class: 'toggle-raw', text: 'Raw JSON', onclick: () => (rawBlock.hidden = !rawBlock.hidden) }),
      Object.keys(call.config ?? {}).length === 0 ? '' : el('span', { class: 'muted config', text: ` config ${JSON.stringify(call.config)}` }),
    ),
    warnings.map((text) => el('p', { class: 'warning', text })),
    rawBlock,
    el(
      'section',
      { class: 'part-list system-blocks' },
      el('h4', { text: `system: ${call.system.length} block${call.system.length === 1 ? '' : 's'}, ${formatNumber(call.tokens.system)} tokens` }),
      call.system.map((block) =>
        piece({
          path: 'system',
          label: `block ${block.index + 1}${block.source?.field ? ` · ${block.source.field}` : ''}`,
          source: block.source,
          tokens: block.tokens,
          body: el('pre', { class: 'text' }, markedText(block.text, substitutionMarks(block.source))),
          dataset: { block: block.index, start: block.start, end: block.end },
        }),
      ),
    ),
    el(
      'section',
      { class: 'part-list tools' },
      el('h4', { text: `tools: ${call.tools.length}, ${formatNumber(call.tokens.tools)} tokens` }),
      call.tools.map((tool) =>
        piece({
          path: tool.path,
          label: `${tool.path} ${tool.declaration.name}`,
          source: tool.source,
          tokens: tool.tokens,
          body: el(
            'div',
            {},
            el('p', { class: 'tool-description', text: tool.declaration.description }),
            tool.declaration.parameters === undefined ? '' : el('pre', { class: 'text json', text: JSON.stringify(tool.declaration.parameters, null, 2) }),
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
          { class: `message role-${message.role === 'model' ? 'model' : 'user'}`, dataset: { path: message.path, tokens: message.tokens } },
          el('div', { class: 'message-head', text: `${message.path} · ${message.role} · ${formatNumber(message.tokens)} tokens` }),
          message.parts.map((part) =>
            piece({
              path: part.path,
              label: `${part.path} · ${part.type}${part.thought ? ' (thought)' : ''}`,
              source: part.source,
              tokens: part.tokens,
              body: el('pre', { class: `text ${part.type === 'text' ? '' : 'json'}` }, markedText(part.text, part.type === 'text' ? substitutionMarks(part.source) : [])),
            }),
          ),
        ),
      ),
    ),
  );
}

/** One block, tool or part: a coloured head (kind, label, token bar) that opens its provenance, and its content. */
function pieceView({ path, label, source, tokens, body, dataset = {}, largest, onEvent }) {
  const kind = source?.kind ?? 'other';
  const details = el('div', { class: 'provenance-box', hidden: true });
  const head = el(
    'button',
    { type: 'button', class: 'piece-head', title: sourceTitle(source), 'aria-expanded': 'false' },
    kindBadge(kind),
    el('span', { class: 'piece-label', text: label }),
    tokenBar(tokens, largest),
  );
  head.addEventListener('click', () => {
    if (details.childElementCount === 0) details.append(provenancePanel(source, onEvent));
    details.hidden = !details.hidden;
    head.setAttribute('aria-expanded', String(!details.hidden));
  });
  return el('article', { class: `piece ${kindClass(kind)}`, style: { '--src': kindColour(kind) }, dataset: { kind, path, tokens, ...dataset } }, head, details, body);
}

/** A bar as long as the piece's share of the largest piece of the call, and its count. */
export function tokenBar(tokens, largest) {
  const width = `${Math.max(0.5, Math.round((tokens / largest) * 1000) / 10)}%`;
  return el('span', { class: 'token-bar', title: `${formatNumber(tokens)} tokens` }, el('span', { class: 'bar' }, el('span', { class: 'fill', style: { width } })), el('span', { class: 'token-count', text: formatNumber(tokens) }));
}

function substitutionMarks(source) {
  return (source?.substitutions ?? []).map((sub) => ({ start: sub.start, end: sub.end, title: sub.kind === 'state' ? `state ${sub.key} (${sub.scope})` : `artifact ${sub.name}` }));
}
