// The sidebar's sessions of one app: a user filter, and the sessions, most recently updated first.
import { el, formatTime, nameEl } from './dom.js';

/** `listing` is the API's answer for the app; `onOpen(session)` opens one. */
export function sessionsView(listing, route, onOpen) {
  const users = el(
    'select',
    { id: 'user-filter', 'aria-label': 'user' },
    el('option', { value: '', text: `all users (${listing.users.length})` }),
    listing.users.map((user) =>
      el('option', { value: user, selected: user === route.user && !route.session, text: user }),
    ),
  );
  const list = el('ul', { class: 'session-list plain' });
  const fill = () => {
    const shown = listing.sessions.filter((session) => users.value === '' || session.userId === users.value);
    list.replaceChildren(
      ...(shown.length === 0
        ? [el('li', { class: 'muted', text: `No sessions in app ${listing.appName}.` })]
        : shown.map((session) =>
            el(
              'li',
              {},
              el(
                'button',
                {
                  type: 'button',
                  class: `session-link${session.id === route.session && session.userId === route.user ? ' current' : ''}`,
                  dataset: { session: session.id, user: session.userId },
                  onclick: () => onOpen(session),
                },
                nameEl('span', { class: 'session-id' }, session.id),
                el('span', { class: 'muted small', text: `${session.userId} · ${formatTime(session.lastUpdateTime)}` }),
              ),
            ),
          )),
    );
  };
  users.addEventListener('change', fill);
  fill();
  return el('div', {}, el('label', { class: 'small' }, 'User ', users), list);
}
