// How a recorded call ended, drawn beside its request: status, model, timings, usage and the answer; and the body that
// went over the wire, exactly as sent.
import { copyButton, el, formatDuration, formatNumber, nameEl } from './dom.js';

const STATUS_TEXT = {
  pending: 'pending',
  answered: 'answered',
  failed: 'failed',
  aborted: 'aborted',
  timed_out: 'timed out',
};

const USAGE = [
  ['promptTokens', 'in'],
  ['cachedTokens', 'cache read'],
  ['cacheWriteTokens', 'cache write'],
  ['outputTokens', 'out'],
  ['reasoningTokens', 'reasoning'],
  ['totalTokens', 'total'],
];

/** A call's status as a coloured badge. */
export function statusBadge(status) {
  return el('span', {
    class: `badge call-status ${String(status).replace(/[^a-z_]/g, '')}`,
    dataset: { status },
    text: STATUS_TEXT[status] ?? status,
  });
}

/** The answer panel: status, model, latency, time to first token, usage, error, and what the model answered. */
export function answerView(call) {
  const facts = [
    ['model', call.model ? `${call.model.provider} / ${call.model.modelId}` : null, 'model'],
    ['latency', call.latencyMs === null ? null : formatDuration(call.latencyMs), 'latency'],
    ['first token', call.firstTokenMs === null ? null : formatDuration(call.firstTokenMs), 'first-token'],
  ].filter(([, value]) => value !== null);
  return el(
    'section',
    { class: 'answer', dataset: { status: call.status } },
    el('h4', {}, 'Answer ', statusBadge(call.status)),
    facts.length === 0
      ? ''
      : el(
          'dl',
          { class: 'facts' },
          facts.map(([name, value, key]) => [
            el('dt', { text: name }),
            el('dd', { dataset: { fact: key }, text: value }),
          ]),
        ),
    statusNote(call),
    usageView(call.usage),
    call.response === null ? '' : responseView(call.response),
  );
}

function statusNote(call) {
  if (call.status === 'pending')
    return el('p', {
      class: 'warning pending-note',
      text: 'No answer was recorded: the process ended during the call (or the call is still running).',
    });
  if (call.error === null) return '';
  return el('p', { class: 'call-error error-text', text: `${STATUS_TEXT[call.status] ?? call.status}: ${call.error}` });
}

function usageView(usage) {
  if (usage === null) return '';
  const rows = USAGE.filter(([key]) => usage[key] !== undefined);
  if (rows.length === 0) return '';
  return el(
    'dl',
    { class: 'usage' },
    rows.map(([key, label]) => [
      el('dt', { text: label }),
      el('dd', { dataset: { usage: key }, text: formatNumber(usage[key]) }),
    ]),
  );
}

function responseView(response) {
  const parts = response.parts.map((part) => {
    if (part.thought)
      return el(
        'details',
        { class: 'answer-part thought' },
        el('summary', { text: 'thought' }),
        el('pre', { class: 'text', text: part.text }),
      );
    if (part.type === 'text') return el('pre', { class: 'answer-part answer-text text', text: part.text });
    if (part.type === 'functionCall') {
      return el(
        'div',
        { class: 'answer-part tool-call-out', dataset: { callId: part.callId ?? '' } },
        el('span', { class: 'muted', text: 'tool call ' }),
        nameEl('code', { class: 'tool-name' }, part.name ?? ''),
        part.callId ? el('span', { class: 'muted', text: ` ${part.callId}` }) : '',
        el('pre', { class: 'text json', text: part.text }),
      );
    }
    return el(
      'div',
      { class: 'answer-part' },
      el('span', { class: 'muted', text: part.type }),
      el('pre', { class: 'text json', text: part.text }),
    );
  });
  const ending = [
    response.finishReason ? `finish reason ${response.finishReason}` : '',
    response.errorCode ? `error ${response.errorCode}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return el(
    'div',
    { class: 'response' },
    parts.length === 0 ? el('p', { class: 'muted', text: 'The answer had no content.' }) : parts,
    ending ? el('p', { class: 'muted finish', text: ending }) : '',
    response.errorMessage ? el('p', { class: 'error-text', text: response.errorMessage }) : '',
  );
}

/** The wire panel: the exact body sent (pretty-printed when it is JSON, raw one click away), and the HTTP exchange. */
export function wireView(call) {
  const wire = call.wire;
  if (wire === null) {
    const why =
      call.status === 'pending'
        ? 'Nothing from the wire was recorded: the call did not end.'
        : 'No wire record: the model adapter recorded none for this call.';
    return el('section', { class: 'wire none' }, el('h4', { text: 'Wire' }), el('p', { class: 'muted', text: why }));
  }
  let pretty = null;
  let held = null;
  try {
    const body = JSON.parse(wire.body);
    pretty = JSON.stringify(body, null, 2);
    // OpenAI's previous_response_id: the provider holds the conversation before this body, which carries only the rest.
    const id = body?.previous_response_id;
    if (typeof id === 'string' && id !== '') held = id;
  } catch {
    // Not JSON: the raw text is the only view.
  }
  const prettyPre = el('pre', { class: 'wire-pretty wire-body', hidden: pretty === null, text: pretty ?? '' });
  const rawPre = el('pre', { class: 'wire-raw wire-body', hidden: pretty !== null, text: wire.body });
  const toggle = el('button', { type: 'button', class: 'toggle-wire-raw', text: 'Raw', hidden: pretty === null });
  toggle.addEventListener('click', () => {
    rawPre.hidden = !rawPre.hidden;
    prettyPre.hidden = !rawPre.hidden;
    toggle.textContent = rawPre.hidden ? 'Raw' : 'Pretty';
  });
  const meta = [
    ['url', wire.url],
    ['method', wire.method],
    ['HTTP status', wire.status === null ? 'no answer' : String(wire.status)],
    ['attempts', String(wire.attempts)],
  ];
  return el(
    'details',
    { class: 'wire' },
    el(
      'summary',
      {},
      el('strong', { text: 'Wire body' }),
      ` · ${wire.method} · HTTP ${wire.status ?? '—'} · ${wire.attempts} attempt${wire.attempts === 1 ? '' : 's'} · ${formatNumber(wire.body.length)} chars`,
    ),
    el(
      'dl',
      { class: 'facts wire-meta' },
      meta.map(([name, value]) => [el('dt', { text: name }), el('dd', { dataset: { wire: name }, text: value })]),
    ),
    held === null
      ? ''
      : el('p', {
          class: 'wire-held',
          text: `The server holds the conversation up to response ${held} (previous_response_id): this body carries only what came after it.`,
        }),
    el(
      'div',
      { class: 'raw-actions' },
      toggle,
      ' ',
      copyButton('Copy exact body', () => wire.body),
      pretty === null ? el('span', { class: 'muted', text: ' (not JSON: shown as sent)' }) : '',
    ),
    prettyPre,
    rawPre,
    wire.usage === null
      ? ''
      : el(
          'div',
          { class: 'wire-usage' },
          el('h5', { text: "provider's raw usage" }),
          el('pre', { class: 'text json', text: JSON.stringify(wire.usage, null, 2) }),
        ),
  );
}
