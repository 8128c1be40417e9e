// A comparison of two variants of an agent over the same eval cases (agentctx eval --compare … --json): the two
// sides' totals, per case prompt tokens and USD as paired bars (a above b), the cases whose outcome changed, the first
// request that differs, and links that open each side's session of a case. Drawn with DOM calls only (dom.js).
import { el, formatNumber, formatUsd, svg } from './dom.js';

const BAR = 14;
const GAP = 4;
const ROW = BAR * 2 + GAP + 14;
const PAD = { left: 180, right: 96, top: 8 };

/** `named`: { name, comparison } from the API; `openSession(side, outcome)`: opens a side's session of a case. */
export function comparisonView(named, openSession, room = Infinity) {
  const { a, b, cases } = named.comparison;
  const changed = cases.filter((each) => each.passedOn === 'a' || each.passedOn === 'b');
  return el(
    'div',
    { class: 'comparison' },
    el(
      'header',
      { class: 'session-head' },
      el('h2', { class: 'name', text: `Comparison ${named.name}` }),
      el('p', { class: 'muted' }, el('span', { class: 'side-a', text: 'a' }), ` ${a.label}`),
      el('p', { class: 'muted' }, el('span', { class: 'side-b', text: 'b' }), ` ${b.label}`),
      el('p', {
        class: changed.length === 0 ? 'muted verdict same' : 'verdict changed',
        text:
          changed.length === 0
            ? `no case changed its outcome (${formatNumber(cases.length)} case runs)`
            : `${changed.length} case run${changed.length === 1 ? '' : 's'} changed outcome: ${changed.map((each) => `${each.evalId} passes only on ${each.passedOn}`).join('; ')}`,
      }),
    ),
    totalsTable(a, b),
    el('h3', { text: 'Prompt tokens per case run' }),
    pairedBars(cases, (outcome) => outcome.efficiency.promptTokens, formatNumber, 'tokens', room),
    el('h3', { text: 'USD with caching per case run' }),
    cases.some((each) => each.a.efficiency.usd !== undefined || each.b.efficiency.usd !== undefined)
      ? pairedBars(cases, (outcome) => outcome.efficiency.usd ?? 0, formatUsd, 'usd', room)
      : el('p', { class: 'muted', text: 'No call could be priced (a scripted model without --bill-as).' }),
    el('h3', { text: 'Case runs' }),
    el(
      'ul',
      { class: 'plain comparison-cases' },
      cases.map((each) => caseItem(each, a, b, openSession)),
    ),
  );
}

function totalsTable(a, b) {
  const usd = (side) => (side.efficiency.usd === undefined ? 'no USD' : formatUsd(side.efficiency.usd));
  const rows = [
    [
      'cases passed',
      `${a.passed} of ${a.passed + a.failed + a.notEvaluated}`,
      `${b.passed} of ${b.passed + b.failed + b.notEvaluated}`,
    ],
    ...a.metrics.map((metric) => {
      const other = b.metrics.find((each) => each.metricName === metric.metricName);
      return [`${metric.metricName} (mean)`, score(metric.mean), score(other?.mean)];
    }),
    ['model calls', formatNumber(a.efficiency.modelCalls), formatNumber(b.efficiency.modelCalls)],
    ['prompt tokens', formatNumber(a.efficiency.promptTokens), formatNumber(b.efficiency.promptTokens)],
    ['read from the cache', share(a.efficiency), share(b.efficiency)],
    ['USD with caching', usd(a), usd(b)],
  ];
  return el(
    'table',
    { class: 'comparison-totals' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { text: '' }),
        el('th', { class: 'side-a', text: 'a' }),
        el('th', { class: 'side-b', text: 'b' }),
      ),
    ),
    el(
      'tbody',
      {},
      rows.map(([name, left, right]) =>
        el('tr', {}, el('th', { scope: 'row', text: name }), el('td', { text: left }), el('td', { text: right })),
      ),
    ),
  );
}

// One row per case run: a's bar above b's, both on one scale, the value at each bar's end.
function pairedBars(cases, measure, format, kind, room) {
  const width = Math.round(Math.max(360, Math.min(900, room)));
  const plot = width - PAD.left - PAD.right;
  const max = Math.max(1e-12, ...cases.flatMap((each) => [measure(each.a), measure(each.b)]));
  const height = PAD.top + cases.length * ROW;
  const label = `${kind === 'usd' ? 'USD' : 'prompt tokens'} per case run, a against b`;
  const root = svg(
    'svg',
    {
      class: `chart comparison-chart ${kind}`,
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': label,
    },
    svg('title', { text: label }),
  );
  cases.forEach((each, row) => {
    const top = PAD.top + row * ROW;
    root.append(
      svg('text', { x: PAD.left - 8, y: top + BAR + 2, 'text-anchor': 'end', class: 'axis', text: caseName(each) }),
    );
    ['a', 'b'].forEach((side, position) => {
      const value = measure(each[side]);
      const y = top + position * (BAR + GAP);
      const length = (value / max) * plot;
      root.append(
        svg(
          'g',
          {
            class: `comparison-bar side-${side}${each[side].status === 'PASSED' ? '' : ' failed'}`,
            dataset: { case: each.evalId, run: each.run, side, value },
          },
          svg('rect', { x: PAD.left, y, width: Math.max(1, length), height: BAR, class: 'length' }),
          svg('text', { x: PAD.left + length + 6, y: y + BAR - 3, class: 'axis', text: `${side} ${format(value)}` }),
          svg('title', { text: `${caseName(each)} · ${side} · ${format(value)} · ${each[side].status}` }),
        ),
      );
    });
  });
  return el('div', { class: 'chart-box' }, root);
}

function caseItem(each, a, b, openSession) {
  const mark = (status) => (status === 'PASSED' ? '✓' : status === 'FAILED' ? '✗' : '–');
  const metrics = each.a.metrics.map((metric) => {
    const other = each.b.metrics.find((candidate) => candidate.metricName === metric.metricName);
    return `${metric.metricName} ${score(metric.score)} → ${score(other?.score)}`;
  });
  const difference = each.firstDifference;
  return el(
    'li',
    { class: `comparison-case passed-${each.passedOn}`, dataset: { case: each.evalId, run: each.run } },
    el(
      'p',
      {},
      el('span', { class: `mark ${each.a.status.toLowerCase()}`, text: mark(each.a.status) }),
      ' ',
      el('span', { class: `mark ${each.b.status.toLowerCase()}`, text: mark(each.b.status) }),
      ' ',
      el('strong', { text: caseName(each) }),
      `  ${metrics.join('  ')}`,
      each.passedOn === 'a' || each.passedOn === 'b'
        ? el('span', { class: 'changed', text: `  passes only on ${each.passedOn}` })
        : '',
    ),
    el('p', {
      class: 'muted',
      text:
        difference === undefined
          ? 'every request byte-identical on both sides'
          : `first differing request: ${difference.calls.a === difference.calls.b ? `call ${difference.calls.a}` : `call ${difference.calls.a ?? 'none'} on a, ${difference.calls.b ?? 'none'} on b`}: ${difference.where.join(', ')}; ${formatNumber(difference.commonPrefix.chars)} of ${formatNumber(difference.commonPrefix.of)} characters shared from the start`,
    }),
    el(
      'p',
      {},
      [
        ['a', each.a, a],
        ['b', each.b, b],
      ].map(([side, outcome, total]) =>
        el('button', {
          type: 'button',
          class: `link open-session side-${side}`,
          text: `open ${side}'s session`,
          title:
            total.appName === undefined
              ? 'the comparison does not name the app'
              : `${total.appName} · ${outcome.sessionId}`,
          disabled: total.appName === undefined,
          onclick: () => openSession(total.appName, outcome, difference?.calls?.[side]),
        }),
      ),
    ),
  );
}

function caseName(each) {
  return each.run > 1 ? `${each.evalId} (run ${each.run})` : each.evalId;
}

function score(value) {
  return value === undefined ? 'n/a' : value.toFixed(2);
}

function share(efficiency) {
  return `${Math.round(efficiency.cacheHitRatio * 100)}%`;
}

/** The sidebar's list of comparisons (`/api/comparisons`): each a link to its view, with how many cases changed. */
export function comparisonList(listing, current, navigate) {
  return [
    el('h3', { text: 'Comparisons' }),
    el(
      'ul',
      { class: 'plain comparison-links' },
      listing.map((item) =>
        el(
          'li',
          {},
          el('button', {
            type: 'button',
            class: `link${current === item.index ? ' current' : ''}`,
            text: item.name,
            title: `a: ${item.a} · b: ${item.b}`,
            onclick: () => navigate({ comparison: item.index, session: '', call: null }),
          }),
          el('span', {
            class: item.changed === 0 ? 'muted' : 'changed',
            text: ` ${item.cases} case runs · ${item.changed === 0 ? 'none changed' : `${item.changed} changed`}`,
          }),
        ),
      ),
    ),
  ];
}
