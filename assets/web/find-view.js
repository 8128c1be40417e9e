// Find: every place a text occurs in a call's request, with its path and source, and which calls of the session have it.
import { el, formatNumber } from './dom.js';
import { kindBadge, kindClass, kindColour, sourceTitle } from './sources.js';

/**
 * The find form and, given the API's answer (`result`, or null before a search), its results. `onSearch(text)` runs a
 * search, `onCall(index)` shows another call's places, `onPlace(place)` shows a place in the request.
 */
export function findView({ text, result, onSearch, onCall, onPlace }) {
  const input = el('input', {
    type: 'search',
    name: 'text',
    id: 'find-input',
    placeholder: 'text to find in the request',
    value: text ?? '',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const form = el(
    'form',
    { class: 'find-form', role: 'search' },
    input,
    el('button', { type: 'submit', text: 'Find' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSearch(input.value);
  });
  if (!result)
    return el(
      'div',
      { class: 'find' },
      form,
      el('p', {
        class: 'muted',
        text: 'Type a text: every place it occurs in this call is listed, with its path and where it came from.',
      }),
    );
  const total = result.calls.reduce((sum, call) => sum + call.count, 0);
  const inThis = result.calls.find((call) => call.index === result.call);
  return el(
    'div',
    { class: 'find' },
    form,
    el(
      'div',
      { class: 'find-calls' },
      result.calls.length === 0
        ? el('p', { class: 'find-summary', text: `“${result.text}” occurs in none of this session's calls.` })
        : [
            el('p', {
              class: 'find-summary',
              text: `“${result.text}” occurs ${formatNumber(total)} time${total === 1 ? '' : 's'} in ${result.calls.length} call${result.calls.length === 1 ? '' : 's'}:`,
            }),
            el(
              'ul',
              { class: 'chips' },
              result.calls.map((call) =>
                el(
                  'li',
                  {},
                  el('button', {
                    type: 'button',
                    class: `chip${call.index === result.call ? ' current' : ''}`,
                    dataset: { call: call.index },
                    title: `agent ${call.agent}`,
                    text: `call ${call.index} (${call.count})`,
                    onclick: () => onCall(call.index),
                  }),
                ),
              ),
            ),
          ],
    ),
    result.call === null
      ? ''
      : el(
          'section',
          { class: 'find-places' },
          el('h4', {
            text: inThis
              ? `${result.places.length}${result.truncated ? '+' : ''} place${result.places.length === 1 ? '' : 's'} in call ${result.call}`
              : `Not in call ${result.call}.`,
          }),
          el(
            'ol',
            { class: 'places' },
            result.places.map((place) =>
              el(
                'li',
                {
                  class: `place ${kindClass(place.source?.kind ?? 'other')}`,
                  style: { '--src': kindColour(place.source?.kind ?? 'other') },
                  dataset: { path: place.path },
                },
                el('button', {
                  type: 'button',
                  class: 'link place-path',
                  title: 'show it in the request',
                  text: place.block === null ? place.path : `${place.path} (block ${place.block + 1})`,
                  onclick: () => onPlace(place),
                }),
                kindBadge(place.source?.kind ?? 'other'),
                el('span', {
                  class: 'muted place-source',
                  text: place.source ? sourceTitle(place.source) : 'no provenance',
                }),
                el(
                  'pre',
                  { class: 'excerpt' },
                  place.start > place.before.length ? '…' : '',
                  place.before,
                  el('mark', { text: place.match }),
                  place.after,
                  '…',
                ),
              ),
            ),
          ),
        ),
  );
}
