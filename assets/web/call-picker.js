// The call picker above a session's tabs: the calls in a list (agent, status, size, USD), the previous and the next.
import { el, formatNumber, formatUsd } from './dom.js';

/** The cost report's rows by call number. */
export function costsByCall(cost) {
  return new Map((cost?.calls ?? []).map((row) => [row.index, row]));
}

/** `navigate(changes)` changes the page's route (app.js). */
export function callPicker(calls, current, route, costs, navigate) {
  const position = calls.findIndex((call) => call.index === current);
  const select = el(
    'select',
    { id: 'call-select', 'aria-label': 'model call' },
    calls.map((call) =>
      el('option', {
        value: call.index,
        selected: call.index === current,
        text: callLabel(call, costs.get(call.index)),
      }),
    ),
  );
  select.addEventListener('change', () => navigate({ call: Number(select.value), a: null }));
  const go = (offset) => {
    const next = calls[position + offset];
    if (next) navigate({ call: next.index, a: null });
  };
  return el(
    'div',
    { class: 'call-picker' },
    el('button', { type: 'button', text: '◀', title: 'previous call', disabled: position <= 0, onclick: () => go(-1) }),
    select,
    el('button', {
      type: 'button',
      text: '▶',
      title: 'next call',
      disabled: position >= calls.length - 1,
      onclick: () => go(1),
    }),
    route.tab === 'request' ? '' : el('span', { class: 'muted', text: ` ${route.tab} of call ${current}` }),
  );
}

/** A call in the picker: its agent, status and size; a call made in a tool call says which. */
function callLabel(call, cost) {
  const via = call.parent
    ? ` · ↳ via ${call.parent.tool}${call.parent.callIndex === undefined ? '' : ` in call ${call.parent.callIndex}`}`
    : '';
  const usd = cost?.usd === undefined ? '' : ` · ${formatUsd(cost.usd.total)}`;
  return `call ${call.index} · ${call.agent}${via} · ${call.status ?? 'answered'} · ${formatNumber(call.requestChars)} chars${usd}`;
}
