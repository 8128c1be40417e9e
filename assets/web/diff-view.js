// Diff: two calls compared block by block; which blocks changed, which stayed byte-identical, and the common prefix a
// provider's prompt cache could reuse.
import { el, formatNumber } from './dom.js';
import { kindBadge, kindColour } from './sources.js';

/** The pickers for calls a and b, and the API's diff of them. `onPick(a, b)` compares another pair. */
export function diffView({ calls, diff, a, b, onPick }) {
  const picker = (name, value) =>
    el(
      'select',
      { name, id: `diff-${name}` },
      calls.map((call) =>
        el('option', { value: call.index, selected: call.index === value, text: `call ${call.index} · ${call.agent}` }),
      ),
    );
  const pickA = picker('a', a);
  const pickB = picker('b', b);
  const form = el(
    'form',
    { class: 'diff-form' },
    el('label', {}, 'a ', pickA),
    el('label', {}, ' b ', pickB),
    el('button', { type: 'submit', text: 'Compare' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onPick(Number(pickA.value), Number(pickB.value));
  });
  if (!diff) return el('div', { class: 'diff' }, form);
  const share = diff.commonPrefix.of === 0 ? 100 : (diff.commonPrefix.chars / diff.commonPrefix.of) * 100;
  return el(
    'div',
    { class: 'diff' },
    form,
    el(
      'p',
      { class: 'diff-verdict' },
      diff.identical
        ? el('strong', { text: 'The two requests are byte-identical.' })
        : el('strong', {
            text: `${diff.counts.identical} identical, ${diff.counts.changed} changed, ${diff.counts.added} added, ${diff.counts.removed} removed`,
          }),
      ` · call ${diff.a.index}: ${formatNumber(diff.a.tokens)} tokens → call ${diff.b.index}: ${formatNumber(diff.b.tokens)} tokens`,
    ),
    el(
      'div',
      { class: 'prefix', dataset: { chars: diff.commonPrefix.chars, of: diff.commonPrefix.of } },
      el('span', {
        class: 'prefix-text',
        text: `Common prefix: ${formatNumber(diff.commonPrefix.chars)} of ${formatNumber(diff.commonPrefix.of)} characters (${share.toFixed(1)}%), what a provider's prompt cache could reuse`,
      }),
      el('span', { class: 'bar wide' }, el('span', { class: 'fill', style: { width: `${share}%` } })),
    ),
    el(
      'ul',
      { class: 'field-summary plain' },
      el('li', {
        class: diff.system.identical ? 'same' : 'differs',
        text: diff.system.identical
          ? `system: byte-identical (${formatNumber(diff.system.a)} chars)`
          : `system: differs from char ${formatNumber(diff.system.firstDifference)} (${formatNumber(diff.system.a)} → ${formatNumber(diff.system.b)} chars)`,
      }),
      el('li', {
        class: diff.tools.identical ? 'same' : 'differs',
        text: diff.tools.identical
          ? `tools: byte-identical (${diff.tools.a})`
          : `tools: ${diff.tools.differing.join(', ')} differ (${diff.tools.a} → ${diff.tools.b})`,
      }),
      el('li', {
        class: diff.messages.identical ? 'same' : 'differs',
        text: diff.messages.identical
          ? `messages: byte-identical (${diff.messages.a})`
          : `messages: differ from ${diff.messages.firstDifference} (${diff.messages.a} → ${diff.messages.b})`,
      }),
      el('li', {
        class: diff.config.identical ? 'same' : 'differs',
        text: diff.config.identical ? 'config: byte-identical' : 'config: differs',
      }),
    ),
    section('system blocks', diff.sections.system),
    section('tools', diff.sections.tools),
    section('messages', diff.sections.messages),
  );
}

function section(title, rows) {
  return el(
    'section',
    { class: 'diff-section', dataset: { section: title.split(' ')[0] } },
    el('h4', {
      text: `${title}: ${rows.filter((row) => row.status === 'identical').length} of ${rows.length} identical`,
    }),
    rows.length === 0
      ? el('p', { class: 'muted', text: 'none on either side' })
      : el(
          'table',
          { class: 'diff-rows' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ['', 'a', 'b', 'source', 'what', 'chars a → b'].map((name) => el('th', { text: name })),
            ),
          ),
          el(
            'tbody',
            {},
            rows.map((row) =>
              el(
                'tr',
                {
                  class: `diff-row status-${row.status}`,
                  dataset: { status: row.status },
                  style: { '--src': kindColour(row.kind) },
                },
                el('td', {}, el('span', { class: `badge status ${row.status}`, text: row.status })),
                el('td', { text: row.a === null ? '' : String(row.a + 1) }),
                el('td', { text: row.b === null ? '' : String(row.b + 1) }),
                el('td', {}, kindBadge(row.kind)),
                el('td', { class: 'diff-label', text: row.label }),
                el('td', {
                  text: `${row.charsA === null ? '—' : formatNumber(row.charsA)} → ${row.charsB === null ? '—' : formatNumber(row.charsB)}`,
                }),
              ),
            ),
          ),
        ),
  );
}
