// A session's state as a table: every key with its scope and value (values shown as text), as it was when a call was
// sent, or as it is now.
import { el, nameEl } from './dom.js';

const AT_CALL_NOTE =
  'Replayed from the events stored before the call, operations (add, append…) included. temp: keys are never stored, so none are shown; a key no event of this session wrote (the initial state, or app: and user: state shared with other sessions) shows its value now; a key changed only by operations shows its value then where it can be worked out from this session alone, else “not known”.';

/**
 * `entries` are the API's state rows; with `call`, they are the state at that call, and a row's event (the one that
 * wrote its value) opens in the timeline through `onEvent`.
 */
export function stateView(entries, { call = null, onEvent = null } = {}) {
  const heading =
    call === null
      ? el('p', { class: 'muted state-caption', text: 'The state as it is now.' })
      : el(
          'p',
          { class: 'state-caption' },
          el('strong', { text: `State when call ${call} was sent` }),
          el('span', { class: 'muted', text: ` · ${AT_CALL_NOTE}` }),
        );
  if (entries.length === 0) return [heading, el('p', { class: 'muted', text: 'The state is empty.' })];
  return [
    heading,
    el(
      'table',
      { class: 'state', dataset: { call: call ?? '' } },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { text: 'key' }),
          el('th', { text: 'scope' }),
          el('th', { text: 'value' }),
          call === null ? '' : el('th', { text: 'written by' }),
        ),
      ),
      el(
        'tbody',
        {},
        entries.map((entry) => row(entry, call, onEvent)),
      ),
    ),
  ];
}

function row(entry, call, onEvent) {
  const writer =
    call === null
      ? ''
      : el(
          'td',
          { class: 'state-writer' },
          entry.eventId
            ? el('button', {
                type: 'button',
                class: 'link event-link',
                dataset: { eventId: entry.eventId },
                text: `event ${entry.eventId}`,
                onclick: () => onEvent?.(entry.eventId),
              })
            : el('span', { class: 'muted', text: 'no event of this session' }),
        );
  return el(
    'tr',
    { dataset: { key: entry.key } },
    el('td', {}, nameEl('code', { class: 'state-key' }, entry.key)),
    el('td', {}, el('span', { class: `badge scope ${entry.scope}`, text: entry.scope })),
    el(
      'td',
      {},
      entry.known === false
        ? el('span', {
            class: 'muted state-value unknown',
            text: 'not known: changed by operations on a value this session’s events do not hold',
          })
        : el('pre', { class: 'text value state-value', text: entry.value }),
    ),
    writer,
  );
}
