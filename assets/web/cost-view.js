// What calls cost: a call's USD (or "—" with the reason on hover when it could not be priced) and its cache-hit share,
// as the timeline and the cost tab list them; the cost panel beside a call's request; and the cost tab itself (the
// session's totals, the cumulative chart, a row per call and per invocation).
import { costChart } from './cost-chart.js';
import { el, formatNumber, formatShare, formatUsd, nameNodes } from './dom.js';

/** A call's USD, or "—" whose title says why it has none; as a table cell (`td`), aligned as a number. */
export function usdCell(row, tag = 'span') {
  const num = tag === 'td' ? ' num' : '';
  if (!row)
    return el(tag, {
      class: `call-usd unpriced${num}`,
      text: '—',
      title: 'no cost: the call is not in the session cost report',
    });
  if (row.usd === undefined)
    return el(tag, {
      class: `call-usd unpriced${num}`,
      dataset: { call: row.index },
      title: `not priced: ${row.unpriced ?? 'unknown'}`,
      'aria-label': `not priced: ${row.unpriced ?? 'unknown'}`,
      text: '—',
    });
  return el(tag, {
    class: `call-usd${num}`,
    dataset: { call: row.index, usd: row.usd.total },
    title: `${formatUsd(row.usd.total)} (${row.price.provider} ${row.price.model}, prices of ${row.price.date})`,
    text: formatUsd(row.usd.total),
  });
}

/** The share of a call's prompt read from the cache: a small bar and "67% cached"; nothing without prompt tokens. */
export function cacheShare(row, words = 'cached') {
  const prompt = row ? row.tokens.input + row.tokens.cacheRead + row.tokens.cacheWrite : 0;
  if (prompt === 0) return '';
  const text = `${formatShare(row.cacheHitRatio)} ${words}`;
  const title = `${formatNumber(row.tokens.cacheRead)} of ${formatNumber(prompt)} prompt tokens read from the cache`;
  return el(
    'span',
    { class: 'cache-share', dataset: { ratio: row.cacheHitRatio }, title },
    el(
      'span',
      { class: 'bar cache-bar', 'aria-hidden': 'true' },
      el('span', { class: 'fill cached', style: { width: `${Math.round(row.cacheHitRatio * 1000) / 10}%` } }),
    ),
    el('span', { class: 'cache-text', text }),
  );
}

/** The timeline's cost of a call: " · $0.051 · ▮ 67% cached". */
export function costInline(row) {
  const share = cacheShare(row);
  return el('span', { class: 'call-cost' }, ' · ', usdCell(row), share === '' ? '' : [' · ', share]);
}

/** The call's cost panel: each kind of token with its count and USD, the total, and the price's source and date. */
export function costPanel(cost) {
  const priced = cost.usd !== undefined;
  const usd = (value) => (priced ? formatUsd(value) : '—');
  const split = cost.cacheWriteUsd;
  const rows = [
    ['input', 'input', cost.tokens.input, usd(cost.usd?.input)],
    ['cacheRead', 'cache read', cost.tokens.cacheRead, usd(cost.usd?.cacheRead)],
    [
      'cacheWrite5m',
      'cache write (5m)',
      cost.tokens.cacheWrite - cost.tokens.cacheWrite1h,
      priced ? formatUsd(split?.fiveMinutes ?? cost.usd.cacheWrite) : '—',
    ],
    ['cacheWrite1h', 'cache write (1h)', cost.tokens.cacheWrite1h, priced ? formatUsd(split?.oneHour ?? 0) : '—'],
    [
      'output',
      cost.tokens.reasoning > 0 ? `output (${formatNumber(cost.tokens.reasoning)} reasoning)` : 'output',
      cost.tokens.output,
      usd(cost.usd?.output),
    ],
  ];
  if (cost.tokens.storageTokenHours > 0)
    rows.push(['storage', 'cache storage (token-hours)', cost.tokens.storageTokenHours, usd(cost.usd?.storage)]);
  const table = el(
    'table',
    { class: 'cost-table' },
    el('caption', { class: 'muted', text: 'tokens as billed, and what each kind cost' }),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col', text: 'kind' }),
        el('th', { scope: 'col', class: 'num', text: 'tokens' }),
        el('th', { scope: 'col', class: 'num', text: 'USD' }),
      ),
    ),
    el(
      'tbody',
      {},
      rows.map(([key, label, tokens, dollars]) =>
        el(
          'tr',
          { dataset: { cost: key } },
          el('th', { scope: 'row', text: label }),
          el('td', { class: 'num tokens', text: formatNumber(tokens) }),
          el('td', { class: 'num usd', text: dollars }),
        ),
      ),
      el(
        'tr',
        { class: 'total', dataset: { cost: 'total' } },
        el('th', { scope: 'row', text: 'total' }),
        el('td', {
          class: 'num tokens',
          text: formatNumber(cost.tokens.input + cost.tokens.cacheRead + cost.tokens.cacheWrite + cost.tokens.output),
        }),
        el('td', { class: 'num usd', text: usd(cost.usd?.total) }),
      ),
    ),
  );
  return el(
    'section',
    { class: 'cost-panel', dataset: { priced: String(priced) }, 'aria-label': 'cost of this call' },
    el('h4', {}, 'Cost ', el('strong', { class: 'cost-total', text: priced ? formatUsd(cost.usd.total) : '—' })),
    priced ? '' : el('p', { class: 'muted unpriced-note', text: `Not priced: ${cost.unpriced ?? 'unknown'}.` }),
    table,
    cacheShare(cost) === ''
      ? ''
      : el('p', { class: 'cache-line' }, cacheShare(cost, 'of the prompt read from the cache')),
    cost.price ? priceLine(cost.price) : '',
  );
}

/** Which price was used: its model, and its source and date as a link (only an http(s) source is a link). */
function priceLine(price) {
  const web = /^https?:\/\//i.test(price.source);
  let host = price.source;
  try {
    host = new URL(price.source).host || price.source;
  } catch {
    // Not a URL: shown as it is.
  }
  const label = `${price.date} · ${host}`;
  return el(
    'p',
    { class: 'price-source small' },
    el('span', { class: 'muted', text: 'prices of ' }),
    el('span', { class: 'name' }, nameNodes(`${price.provider} ${price.model}`)),
    el('span', { class: 'muted', text: ', as of ' }),
    web
      ? el('a', {
          href: price.source,
          target: '_blank',
          rel: 'noopener noreferrer',
          class: 'price-link',
          title: price.source,
          text: label,
        })
      : el('span', { class: 'price-link', text: label }),
  );
}

/** The cost tab: the session's totals, the cumulative chart, and a row per call and per invocation. */
export function costTab(cost, current, onCall, room) {
  if (cost.calls.length === 0) return el('p', { class: 'muted', text: 'This session has no recorded model calls.' });
  const total = cost.total;
  const priced = total.calls - total.unpricedCalls;
  const summary = el(
    'p',
    { class: 'cost-summary' },
    el('strong', {
      class: 'session-usd',
      dataset: { usd: total.usd ?? '' },
      text: total.usd === undefined ? 'no USD: no call could be priced' : `${formatUsd(total.usd)} in all`,
    }),
    ` · ${formatNumber(total.calls)} call${total.calls === 1 ? '' : 's'}, ${formatNumber(priced)} priced`,
    total.unpricedCalls === 0
      ? ''
      : ` (${formatNumber(total.unpricedCalls)} not: their tokens are counted, their USD is not)`,
    ` · ${formatNumber(total.promptTokens)} prompt tokens, ${formatShare(total.cacheHitRatio)} read from the cache · ${formatNumber(total.tokens.output)} output tokens`,
  );
  return el(
    'div',
    { class: 'cost-view' },
    summary,
    el(
      'section',
      { class: 'chart-section cost-chart-section' },
      el('h3', {
        text:
          cost.measure === 'usd'
            ? 'Cumulative cost (USD) per call'
            : 'Cumulative prompt tokens per call, cached and not (no call could be priced)',
      }),
      costChart(cost, current, onCall, room),
    ),
    callTable(cost, current, onCall),
    cost.invocations.length < 2 ? '' : invocationTable(cost),
  );
}

function callTable(cost, current, onCall) {
  const points = new Map(cost.cumulative.map((point) => [point.index, point]));
  const head = ['call', 'agent', 'model', 'prompt tokens', 'cache hits', 'output tokens', 'USD', 'running total'];
  return el(
    'table',
    { class: 'cost-calls' },
    el('caption', { class: 'muted', text: 'every call with what it cost; hover — for why a call has no USD' }),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        head.map((text, at) => el('th', { scope: 'col', class: at >= 3 && at !== 4 ? 'num' : '', text })),
      ),
    ),
    el(
      'tbody',
      {},
      cost.calls.map((row) =>
        el(
          'tr',
          { class: row.index === current ? 'current' : '', dataset: { call: row.index } },
          el(
            'td',
            {},
            el('button', {
              type: 'button',
              class: 'link',
              text: `call ${row.index}`,
              onclick: () => onCall(row.index),
            }),
          ),
          el('td', { class: 'name' }, nameNodes(row.agent)),
          el(
            'td',
            { class: 'name' },
            row.model
              ? nameNodes(`${row.model.provider}/${row.model.modelId}`)
              : el('span', { class: 'muted', text: 'unknown' }),
          ),
          el('td', {
            class: 'num',
            text: formatNumber(row.tokens.input + row.tokens.cacheRead + row.tokens.cacheWrite),
          }),
          el('td', {}, cacheShare(row)),
          el('td', { class: 'num', text: formatNumber(row.tokens.output) }),
          usdCell(row, 'td'),
          el('td', {
            class: 'num running',
            text: cost.measure === 'usd' ? formatUsd(points.get(row.index)?.cumulativeUsd ?? 0) : '—',
          }),
        ),
      ),
    ),
  );
}

function invocationTable(cost) {
  return el(
    'table',
    { class: 'cost-invocations' },
    el('caption', { class: 'muted', text: 'per invocation (a user turn and everything it caused)' }),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ['invocation', 'calls', 'prompt tokens', 'cache hits', 'USD'].map((text, at) =>
          el('th', { scope: 'col', class: at === 0 || at === 3 ? '' : 'num', text }),
        ),
      ),
    ),
    el(
      'tbody',
      {},
      cost.invocations.map((invocation) =>
        el(
          'tr',
          { dataset: { invocation: invocation.invocationId } },
          el('td', { class: 'mono', text: invocation.invocationId }),
          el('td', { class: 'num', text: formatNumber(invocation.calls) }),
          el('td', { class: 'num', text: formatNumber(invocation.promptTokens) }),
          el('td', { text: formatShare(invocation.cacheHitRatio) }),
          el('td', {
            class: 'num',
            text:
              invocation.usd === undefined
                ? '—'
                : `${formatUsd(invocation.usd)}${invocation.unpricedCalls === 0 ? '' : ` (${invocation.unpricedCalls} not priced)`}`,
          }),
        ),
      ),
    ),
  );
}
