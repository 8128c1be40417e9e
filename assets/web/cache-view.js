// The prompt cache: whether a call's request still starts with the stable prefix of its agent's previous call, and if
// not where it first differs, why (named by the source of the text there) and how many tokens that billed again. The
// panel beside a call's request, and the timeline's mark on a call whose prefix changed.
import { el, formatNumber } from './dom.js';

/** Where the prefix changed, named as the request view names its pieces: tools[1], system @120, messages[2].content[0]. */
export function whereText(location) {
  switch (location.where) {
    case 'tools':
      return `tools[${location.tool}]`;
    case 'system':
      return `system @${location.offset}`;
    case 'message':
      return `messages[${location.message}].content[${location.part}]`;
    default:
      return 'the start';
  }
}

/** The piece of the drawn request the place is in: the tool, the message part, or the system block holding the offset. */
function pieceAt(location) {
  if (location.where === 'tools') return document.querySelector(`.request .piece[data-path="tools[${location.tool}]"]`);
  if (location.where === 'message')
    return document.querySelector(
      `.request .piece[data-path="messages[${location.message}].content[${location.part}]"]`,
    );
  if (location.where !== 'system') return null;
  const blocks = [...document.querySelectorAll('.request .piece[data-path="system"]')].map(
    (block) => /** @type {HTMLElement} */ (block),
  );
  return (
    blocks.find(
      (block) => Number(block.dataset.start) <= location.offset && location.offset <= Number(block.dataset.end),
    ) ??
    blocks.at(-1) ??
    null
  );
}

function showPiece(location) {
  const piece = pieceAt(location);
  if (!piece) return;
  for (const focused of document.querySelectorAll('.request .piece.focused')) focused.classList.remove('focused');
  piece.classList.add('focused');
  piece.scrollIntoView({ block: 'center' });
}

const count = (tokens) => `${formatNumber(tokens)} token${tokens === 1 ? '' : 's'}`;

/**
 * The call view's prompt cache panel (`cache` of the call view): "prefix kept (N tokens read from the cache)", or
 * "prefix changed at <where>: <cause> — N tokens re-billed" with both sides' text around the difference; a link to
 * the previous call it was compared with. `onCall(index)` opens a call.
 */
export function cachePanel(cache, onCall) {
  const head = el('h4', { text: 'Prompt cache' });
  if (cache.first) {
    return el(
      'section',
      { class: 'cache-panel', dataset: { cache: 'first' }, 'aria-label': 'prompt cache' },
      head,
      el('p', { class: 'cache-summary', text: 'first call of its agent: nothing earlier to read from the cache' }),
    );
  }
  const { tokens, difference } = cache;
  const previous = el('button', {
    type: 'button',
    class: 'link cache-previous',
    dataset: { call: cache.previous },
    text: `call ${cache.previous}`,
    onclick: () => onCall(cache.previous),
  });
  if (!difference) {
    return el(
      'section',
      { class: 'cache-panel', dataset: { cache: 'kept', rebilled: 0 }, 'aria-label': 'prompt cache' },
      head,
      el(
        'p',
        { class: 'cache-summary' },
        el('strong', { class: 'cache-verdict', text: 'prefix kept' }),
        ` (${count(tokens.kept)} read from the cache)`,
      ),
      el(
        'p',
        { class: 'cache-against small muted' },
        'against ',
        previous,
        `, its agent's previous call: all of its stable prefix (${prefixShape(cache.prefix)}) leads this request`,
      ),
    );
  }
  const { location, cause, excerpt } = difference;
  const where =
    location.where === 'start'
      ? whereText(location)
      : el('button', {
          type: 'button',
          class: 'link cache-where',
          title: 'show this place in the request',
          text: whereText(location),
          onclick: () => showPiece(location),
        });
  return el(
    'section',
    {
      class: 'cache-panel',
      dataset: { cache: 'changed', cause: cause.kind, where: location.where, rebilled: tokens.rebilled },
      'aria-label': 'prompt cache',
    },
    head,
    el(
      'p',
      { class: 'cache-summary' },
      el('strong', { class: 'cache-verdict' }, 'prefix changed at ', where),
      ': ',
      el('span', { class: 'cache-cause', text: cause.text }),
      ' — ',
      el('span', { class: 'cache-rebilled', text: `${count(tokens.rebilled)} re-billed` }),
    ),
    causeDetails(cause),
    el(
      'p',
      { class: 'cache-against small muted' },
      'against ',
      previous,
      `, its agent's previous call · its stable prefix ${count(tokens.prefix)}: ${formatNumber(tokens.kept)} kept, ${formatNumber(tokens.rebilled)} re-billed${tokens.dropped === 0 ? '' : `, ${formatNumber(tokens.dropped)} no longer sent`}`,
    ),
    location.where === 'start' ? '' : excerptView(excerpt, cache.previous, cache.current),
  );
}

function prefixShape(prefix) {
  const plural = (value, word) => `${formatNumber(value)} ${word}${value === 1 ? '' : 's'}`;
  return `${plural(prefix.tools, 'tool')}, ${plural(prefix.systemChars, 'system char')}, ${plural(prefix.messages, 'message')}`;
}

/** What the cause says beyond its line: the placeholder's two values, the two tool orders, the two models or agents. */
function causeDetails(cause) {
  const lines = [];
  if (cause.substitution) {
    const { placeholder, key, previousValue, currentValue } = cause.substitution;
    lines.push(
      `${placeholder} (${key.startsWith('artifact.') ? key : `state key ${key}`}): ${JSON.stringify(previousValue)} → ${JSON.stringify(currentValue)}`,
    );
  }
  if (cause.order) lines.push(`tool order: ${cause.order.previous.join(', ')} → ${cause.order.current.join(', ')}`);
  if (cause.change) lines.push(`${cause.change.previous} → ${cause.change.current}`);
  if (lines.length === 0) return '';
  return el(
    'ul',
    { class: 'plain cache-details small' },
    lines.map((line) => el('li', { class: 'mono', text: line })),
  );
}

/** Both sides' text at the difference: what they share just before it (grey), then each side's own text, marked. */
function excerptView(excerpt, previous, current) {
  const side = (name, call, text) =>
    el(
      'div',
      { class: 'cache-side', dataset: { side: name } },
      el('span', { class: 'cache-side-label small muted', text: `call ${call}` }),
      el(
        'pre',
        { class: 'text cache-text' },
        excerpt.before === '' ? '' : el('span', { class: 'cache-before', text: excerpt.before }),
        text === ''
          ? el('span', { class: 'cache-ends muted', text: '(ends here)' })
          : el('mark', { class: 'cache-diff', text }),
      ),
    );
  return el(
    'div',
    { class: 'cache-excerpt' },
    el('p', {
      class: 'small muted cache-excerpt-note',
      text: 'the text at the difference: shared text in grey, then each call’s own',
    }),
    side('previous', previous, excerpt.previous),
    side('current', current, excerpt.current),
  );
}

/** The timeline's mark on a call whose prefix changed (an entry of the session's cache report); its title is the cause. */
export function cacheMark(entry) {
  const difference = entry?.explanation?.difference;
  if (!difference) return '';
  const { cause } = difference;
  return el('span', {
    class: 'cache-mark',
    dataset: { cause: cause.kind, rebilled: entry.explanation.tokens.rebilled },
    title: cause.text,
    'aria-label': `prompt cache prefix changed: ${cause.text}`,
    text: '⟳ prefix changed',
  });
}

/** The session's cache report's entries by call number. */
export function cacheByCall(report) {
  return new Map((report?.calls ?? []).map((entry) => [entry.index, entry]));
}
