// Prompt tokens per call over the session, stacked by source kind, with compactions and page-ins marked; inline SVG
// built with DOM calls, as wide as the room it is given (and scaled down by CSS if that shrinks). Clicking a bar opens
// that call.
import { el, formatNumber, svg } from './dom.js';
import { kindColour, orderKinds } from './sources.js';

const HEIGHT = 220;
const PAD = { left: 64, right: 12, top: 22, bottom: 30 };
const MIN_WIDTH = 280;

/** `room`: the width the chart may take, in CSS pixels (its box's content width). */
export function chartView(chart, current, onCall, room = Infinity) {
  if (chart.calls.length === 0) return el('p', { class: 'muted', text: 'This session has no recorded model calls.' });
  const kinds = orderKinds(chart.kinds);
  const wanted = Math.max(480, Math.min(1400, PAD.left + PAD.right + chart.calls.length * 18));
  const width = Math.round(Math.max(MIN_WIDTH, Math.min(wanted, room)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const max = niceMax(Math.max(1, ...chart.calls.map((call) => call.total)));
  const slot = plotWidth / chart.calls.length;
  const barWidth = Math.max(2, Math.min(28, slot * 0.75));
  const y = (value) => PAD.top + plotHeight - (value / max) * plotHeight;
  const x = (position) => PAD.left + position * slot + (slot - barWidth) / 2;
  const root = svg('svg', {
    class: 'chart',
    viewBox: `0 0 ${width} ${HEIGHT}`,
    width,
    height: HEIGHT,
    role: 'img',
    'aria-label': `prompt tokens per call, ${chart.calls.length} calls`,
  });

  for (const tick of [0, max / 2, max]) {
    root.append(
      svg('line', { x1: PAD.left, x2: width - PAD.right, y1: y(tick), y2: y(tick), class: 'grid' }),
      svg('text', {
        x: PAD.left - 6,
        y: y(tick) + 4,
        'text-anchor': 'end',
        class: 'axis',
        text: formatNumber(Math.round(tick)),
      }),
    );
  }
  root.append(svg('text', { x: 4, y: 12, class: 'axis', text: `prompt tokens (${chart.encoding}, local)` }));

  chart.calls.forEach((call, position) => {
    const group = svg('g', {
      class: `bar-group${call.index === current ? ' current' : ''}`,
      dataset: { call: call.index, total: call.total },
    });
    let base = 0;
    for (const kind of kinds) {
      const value = call.byKind[kind] ?? 0;
      if (value === 0) continue;
      group.append(
        svg(
          'rect',
          {
            x: x(position),
            y: y(base + value),
            width: barWidth,
            height: Math.max(0, y(base) - y(base + value)),
            fill: kindColour(kind),
            class: 'segment',
            dataset: { kind, tokens: value },
          },
          svg('title', { text: `call ${call.index} · ${kind}: ${formatNumber(value)} tokens` }),
        ),
      );
      base += value;
    }
    group.append(
      svg(
        'rect',
        { x: x(position) - 1, y: PAD.top, width: barWidth + 2, height: plotHeight, class: 'hit' },
        svg('title', {
          text: `call ${call.index} · ${call.agent} · ${formatNumber(call.total)} tokens${call.billedPromptTokens === null ? '' : ` (billed ${formatNumber(call.billedPromptTokens)})`}${call.pageIn ? ' · page-in' : ''}`,
        }),
      ),
    );
    group.addEventListener('click', () => onCall(call.index));
    if (call.pageIn) {
      const cx = x(position) + barWidth / 2;
      const top = y(call.total) - 4;
      group.append(
        svg(
          'path',
          {
            d: `M${cx - 5},${top - 8} L${cx + 5},${top - 8} L${cx},${top} Z`,
            class: 'marker page-in',
            dataset: { call: call.index },
          },
          svg('title', { text: `call ${call.index}: new pages in the instruction` }),
        ),
      );
    }
    // A number under a bar every ~36 px at most.
    const every = Math.ceil(chart.calls.length / Math.max(4, Math.min(20, Math.floor(plotWidth / 36))));
    if (position % every === 0 || call.index === current)
      root.append(
        svg('text', {
          x: x(position) + barWidth / 2,
          y: HEIGHT - PAD.bottom + 14,
          'text-anchor': 'middle',
          class: 'axis',
          text: call.index,
        }),
      );
    root.append(group);
  });

  for (const compaction of chart.compactions) {
    const position = chart.calls.findIndex((call) => call.index > compaction.afterCall);
    const at = position === -1 ? width - PAD.right : PAD.left + position * slot;
    root.append(
      svg(
        'g',
        { class: 'marker compaction', dataset: { afterCall: compaction.afterCall, eventId: compaction.eventId } },
        svg('line', { x1: at, x2: at, y1: PAD.top - 6, y2: PAD.top + plotHeight }),
        svg('text', { x: at + 3, y: PAD.top - 8, class: 'axis', text: 'compaction' }),
        svg('title', {
          text: `compaction after call ${compaction.afterCall}: ${compaction.eventCount} events summarized (event ${compaction.eventId})`,
        }),
      ),
    );
  }
  root.append(
    svg('text', {
      x: PAD.left + plotWidth / 2,
      y: HEIGHT - 4,
      'text-anchor': 'middle',
      class: 'axis',
      text: 'model call',
    }),
  );

  const legend = el(
    'ul',
    { class: 'legend plain' },
    kinds.map((kind) => el('li', {}, el('span', { class: 'swatch', style: { background: kindColour(kind) } }), kind)),
    el('li', {}, el('span', { class: 'swatch marker-page-in' }), 'page-in'),
    chart.compactions.length === 0 ? '' : el('li', {}, el('span', { class: 'swatch marker-compaction' }), 'compaction'),
  );
  return el('div', { class: 'chart-box' }, root, legend);
}

/** A round number at least `value` (1, 2, 2.5 or 5 times a power of ten), for the top of an axis. */
export function niceMax(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
