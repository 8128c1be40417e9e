// The session's cumulative cost over its calls, drawn like the token chart (chart-view.js): inline SVG built with DOM
// calls, as wide as the room it is given. In USD when any call is priced (a running total, calls without a price
// hollow and named on hover); otherwise the prompt tokens so far, stacked: read from the cache, and not. Clicking a
// call opens it.
import { niceMax } from './chart-view.js';
import { el, formatNumber, formatUsd, svg } from './dom.js';

const HEIGHT = 200;
const PAD = { left: 72, right: 12, top: 22, bottom: 30 };
const MIN_WIDTH = 280;

/** `cost`: the API's session cost; `room`: the width the chart may take, in CSS pixels. */
export function costChart(cost, current, onCall, room = Infinity) {
  const points = cost.cumulative;
  if (points.length === 0) return el('p', { class: 'muted', text: 'This session has no recorded model calls.' });
  const usd = cost.measure === 'usd';
  const wanted = Math.max(480, Math.min(1400, PAD.left + PAD.right + points.length * 18));
  const width = Math.round(Math.max(MIN_WIDTH, Math.min(wanted, room)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const last = points[points.length - 1];
  const top = usd ? last.cumulativeUsd : last.cumulativeCached + last.cumulativeUncached;
  const max = top > 0 ? niceMax(top) : 1;
  const slot = plotWidth / points.length;
  const y = (value) => PAD.top + plotHeight - (value / max) * plotHeight;
  const cx = (position) => PAD.left + (position + 0.5) * slot;
  const format = (value) => (usd ? formatUsd(value) : formatNumber(Math.round(value)));
  const label = usd
    ? `cumulative cost in USD over ${points.length} calls: ${formatUsd(last.cumulativeUsd)} in all${cost.total.unpricedCalls === 0 ? '' : `, ${cost.total.unpricedCalls} calls not priced`}`
    : `cumulative prompt tokens over ${points.length} calls: ${formatNumber(last.cumulativeCached)} read from the cache, ${formatNumber(last.cumulativeUncached)} not`;
  const root = svg(
    'svg',
    {
      class: `chart cost-chart ${usd ? 'usd' : 'tokens'}`,
      viewBox: `0 0 ${width} ${HEIGHT}`,
      width,
      height: HEIGHT,
      role: 'img',
      'aria-label': label,
    },
    svg('title', { text: label }),
  );

  for (const tick of [0, max / 2, max]) {
    root.append(
      svg('line', { x1: PAD.left, x2: width - PAD.right, y1: y(tick), y2: y(tick), class: 'grid' }),
      svg('text', { x: PAD.left - 6, y: y(tick) + 4, 'text-anchor': 'end', class: 'axis', text: format(tick) }),
    );
  }
  root.append(svg('text', { x: 4, y: 12, class: 'axis', text: usd ? 'USD so far' : 'prompt tokens so far (billed)' }));

  if (usd) {
    const line = points
      .map((point, position) => `${position === 0 ? 'M' : 'L'}${cx(position)},${y(point.cumulativeUsd)}`)
      .join(' ');
    root.append(
      svg('path', { class: 'cost-area', d: `${line} L${cx(points.length - 1)},${y(0)} L${cx(0)},${y(0)} Z` }),
      svg('path', { class: 'cost-line', d: line }),
    );
  }
  const barWidth = Math.max(2, Math.min(28, slot * 0.75));
  const every = Math.ceil(points.length / Math.max(4, Math.min(20, Math.floor(plotWidth / 36))));
  points.forEach((point, position) => {
    const group = svg('g', {
      class: `cost-point${point.index === current ? ' current' : ''}${point.usd === null && usd ? ' unpriced' : ''}`,
      dataset: usd
        ? { call: point.index, cumulative: point.cumulativeUsd, usd: point.usd ?? '' }
        : { call: point.index, cached: point.cumulativeCached, uncached: point.cumulativeUncached },
    });
    if (usd) {
      group.append(
        svg('circle', {
          cx: cx(position),
          cy: y(point.cumulativeUsd),
          r: 3.5,
          class: point.usd === null ? 'dot unpriced' : 'dot',
        }),
      );
    } else {
      const x = cx(position) - barWidth / 2;
      group.append(
        svg('rect', {
          x,
          y: y(point.cumulativeCached),
          width: barWidth,
          height: Math.max(0, y(0) - y(point.cumulativeCached)),
          class: 'segment cached',
        }),
        svg('rect', {
          x,
          y: y(point.cumulativeCached + point.cumulativeUncached),
          width: barWidth,
          height: Math.max(0, y(point.cumulativeCached) - y(point.cumulativeCached + point.cumulativeUncached)),
          class: 'segment uncached',
        }),
      );
    }
    group.append(
      svg(
        'rect',
        { x: PAD.left + position * slot, y: PAD.top, width: slot, height: plotHeight, class: 'hit' },
        svg('title', { text: pointTitle(point, usd) }),
      ),
    );
    group.addEventListener('click', () => onCall(point.index));
    root.append(group);
    if (position % every === 0 || point.index === current)
      root.append(
        svg('text', {
          x: cx(position),
          y: HEIGHT - PAD.bottom + 14,
          'text-anchor': 'middle',
          class: 'axis',
          text: point.index,
        }),
      );
  });
  root.append(
    svg('text', {
      x: PAD.left + plotWidth / 2,
      y: HEIGHT - 4,
      'text-anchor': 'middle',
      class: 'axis',
      text: 'model call',
    }),
  );

  const legend = usd
    ? el(
        'ul',
        { class: 'legend plain' },
        el('li', {}, el('span', { class: 'swatch cost-swatch' }), 'running total of the priced calls'),
        cost.total.unpricedCalls === 0
          ? ''
          : el('li', {}, el('span', { class: 'swatch unpriced-swatch' }), 'call not priced (hover for why)'),
      )
    : el(
        'ul',
        { class: 'legend plain' },
        el('li', {}, el('span', { class: 'swatch cached-swatch' }), 'read from the cache'),
        el('li', {}, el('span', { class: 'swatch uncached-swatch' }), 'not cached (input and cache writes)'),
      );
  return el('div', { class: 'chart-box' }, root, legend);
}

function pointTitle(point, usd) {
  if (!usd)
    return `call ${point.index} · ${point.agent} · so far ${formatNumber(point.cumulativeCached)} cached + ${formatNumber(point.cumulativeUncached)} not cached prompt tokens (this call ${formatNumber(point.cachedTokens)} + ${formatNumber(point.uncachedTokens)})`;
  const own = point.usd === null ? `not priced: ${point.unpriced ?? 'unknown'}` : formatUsd(point.usd);
  return `call ${point.index} · ${point.agent} · ${own} · running total ${formatUsd(point.cumulativeUsd)}`;
}
