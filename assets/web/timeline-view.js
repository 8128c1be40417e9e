// A session's timeline: invocations of messages, tool calls and results, state changes with their scope, transfers,
// compactions and the model calls among them, calls made inside a tool call nested under it.
import { statusBadge } from './answer-view.js';
import { cacheMark } from './cache-view.js';
import { costInline } from './cost-view.js';
import { el, formatDuration, formatNumber, formatTime, nameEl, timeEl } from './dom.js';

const LONG = 600;

/**
 * The timeline; `onCall(index)` opens a call; `costs` holds each call's cost row by its number, `caches` its entry of
 * the session's cache report (a call whose prompt prefix changed is marked, the cause on hover).
 */
export function timelineView(timeline, onCall, costs = new Map(), caches = new Map()) {
  if (timeline.length === 0) return el('p', { class: 'muted', text: 'This session has no events.' });
  const origin = timeline[0].start;
  return el(
    'ol',
    { class: 'timeline plain' },
    timeline.map((invocation, number) =>
      el(
        'li',
        { class: 'invocation', dataset: { invocation: invocation.invocationId } },
        el('h4', {}, `Invocation ${number + 1} · ${invocation.invocationId} · `, timeEl(invocation.start)),
        el(
          'ol',
          { class: 'items plain' },
          invocation.items.map((item) => itemView(item, origin, onCall, costs, caches)),
        ),
      ),
    ),
  );
}

function itemView(item, origin, onCall, costs, caches) {
  const when = el('span', { class: 'when muted', text: `+${(item.timestamp - origin).toFixed(3)}s` });
  const who = nameEl('span', { class: 'who' }, item.type === 'model-call' ? item.agent : item.author);
  const row = (body) =>
    el(
      'li',
      {
        class: `item type-${item.type}`,
        dataset: item.eventId === undefined ? { call: item.index } : { eventId: item.eventId },
      },
      when,
      el('span', { class: `badge type ${item.type}`, text: item.type }),
      who,
      el('div', { class: 'item-body' }, body),
    );
  switch (item.type) {
    case 'model-call':
      return callRow(row, item, onCall, costs.get(item.index), caches.get(item.index));
    case 'message':
      return row(longText(item.text, item.thought ? 'thought' : item.role));
    case 'tool-call':
      return row([
        nameEl('code', { class: 'tool-name' }, item.name),
        item.callId ? el('span', { class: 'muted', text: ` ${item.callId}` }) : '',
        item.person === 'waiting'
          ? el('span', { class: 'badge person waiting', text: 'waiting for a person' })
          : item.person === 'answered'
            ? el('span', { class: 'badge person answered', text: 'answered by a person' })
            : '',
        longText(item.args, 'json'),
      ]);
    case 'tool-result':
      return row([
        nameEl('code', { class: 'tool-name' }, item.name),
        item.callId ? el('span', { class: 'muted', text: ` ${item.callId}` }) : '',
        longText(item.response, 'json'),
      ]);
    case 'state':
      return row([
        el('span', { class: `badge scope ${item.scope}`, text: item.scope }),
        ' ',
        nameEl('code', { class: 'state-key' }, item.key),
        ` ${item.operation ?? '='} `,
        longText(item.value, 'value'),
      ]);
    case 'artifact':
      return row(`artifact ${item.name} v${item.version}`);
    case 'transfer':
      return row(['transfer to ', nameEl('code', { class: 'agent-name' }, item.to)]);
    case 'escalate':
      return row('escalates: ends its turn and hands control up');
    case 'compaction':
      return row([
        `summarizes ${item.eventIds.length} events (${formatTime(item.startTimestamp)} – ${formatTime(item.endTimestamp)})`,
        longText(item.summary, 'summary'),
      ]);
    case 'error':
      return row(el('span', { class: 'error-text', text: `${item.code}: ${item.message}` }));
    default:
      return row(longText(item.text ?? '', 'data'));
  }
}

/** A model call: its status, latency and cost, whether its prompt prefix changed, and, for one made in a tool call, which one, indented under it. */
function callRow(row, item, onCall, cost, cache) {
  const mark = cacheMark(cache);
  const depth = item.depth ?? 0;
  const li = row([
    item.parent
      ? el('span', {
          class: 'via',
          text: `↳ via ${item.parent.tool}${item.parent.callIndex === undefined ? '' : ` (call ${item.parent.callIndex}, ${item.parent.functionCallId})`} · `,
        })
      : '',
    el('button', { type: 'button', class: 'link', text: `call ${item.index}`, onclick: () => onCall(item.index) }),
    ' ',
    item.status ? statusBadge(item.status) : '',
    item.latencyMs === null || item.latencyMs === undefined
      ? ''
      : el('span', { class: 'latency', text: ` ${formatDuration(item.latencyMs)}` }),
    ` · ${formatNumber(item.requestChars)} request chars`,
    item.promptTokens === null
      ? ''
      : ` · billed ${formatNumber(item.promptTokens)} prompt / ${formatNumber(item.outputTokens ?? 0)} output tokens`,
    costInline(cost),
    mark === '' ? '' : [' · ', mark],
    item.error ? el('div', { class: 'error-text small', text: item.error }) : '',
  ]);
  if (depth > 0) {
    li.classList.add('nested');
    li.dataset.depth = String(depth);
    li.style.setProperty('--depth', String(depth));
  }
  if (item.parent?.callIndex !== undefined) li.dataset.parent = String(item.parent.callIndex);
  return li;
}

/** A text in a <pre>; past a few hundred characters, folded behind its first line. */
function longText(text, kind) {
  const pre = el('pre', { class: `text ${kind}`, text });
  if (text.length <= LONG) return pre;
  return el(
    'details',
    {},
    el('summary', { text: `${text.slice(0, 120).split('\n')[0]}… (${formatNumber(text.length)} chars)` }),
    pre,
  );
}
