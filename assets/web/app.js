// The inspector page: reads the route from the address (#app=…&user=…&session=…&call=…&tab=…), fetches what it needs
// from the JSON API and draws it. Everything from the store is untrusted text, drawn with DOM calls only (dom.js).
import { ApiError, getJson, sessionPath, setToken } from './api.js';
import { cacheByCall } from './cache-view.js';
import { byId, el, formatNumber, formatTime, formatUsd, inputById, nameNodes } from './dom.js';
import { chartView } from './chart-view.js';
import { callPicker, costsByCall } from './call-picker.js';
import { comparisonList, comparisonView } from './comparison-view.js';
import { costTab } from './cost-view.js';
import { diffView } from './diff-view.js';
import { findView } from './find-view.js';
import { requestView } from './request-view.js';
import { sessionsView } from './sessions-view.js';
import { stateView } from './state-view.js';
import { timelineView } from './timeline-view.js';

const TABS = ['request', 'find', 'diff', 'timeline', 'cost', 'state'];
const cache = new Map();
let info = null;
let pendingFocus = null;
let renderCount = 0;
/** How to draw each chart section again at the width its box has now (after the window was resized). */
const chartDrawers = new WeakMap();
let resizeTimer = null;

function readRoute() {
  const params = new URLSearchParams(location.hash.slice(1));
  const number = (name) => (/^\d+$/.test(params.get(name) ?? '') ? Number(params.get(name)) : null);
  const tab = params.get('tab');
  return {
    app: params.get('app') ?? '',
    user: params.get('user') ?? '',
    session: params.get('session') ?? '',
    call: number('call'),
    tab: TABS.includes(tab) ? tab : 'request',
    q: params.get('q') ?? '',
    a: number('a'),
    comparison: number('comparison'),
    token: params.get('token'),
  };
}

/** Changes the route (the address), which redraws the page. */
export function navigate(changes, focus = null) {
  const route = { ...readRoute(), ...changes };
  const params = new URLSearchParams();
  for (const name of ['app', 'user', 'session', 'call', 'tab', 'q', 'a', 'comparison']) {
    const value = route[name];
    if (value !== null && value !== undefined && value !== '' && !(name === 'tab' && value === 'request'))
      params.set(name, String(value));
  }
  pendingFocus = focus;
  const hash = `#${params.toString()}`;
  if (hash === location.hash) render();
  else location.hash = hash;
}

async function cached(path) {
  if (!cache.has(path))
    cache.set(
      path,
      getJson(path).catch((error) => {
        cache.delete(path);
        throw error;
      }),
    );
  return cache.get(path);
}

function setStatus(text, kind = '') {
  const status = byId('status');
  status.textContent = text;
  status.className = kind;
}

async function render() {
  const ticket = ++renderCount;
  const route = readRoute();
  if (route.token) {
    setToken(route.token);
    navigate({ token: null });
    return;
  }
  try {
    setStatus('Loading…');
    info ??= await getJson('info');
    byId('store-info').textContent =
      `store ${info.store}${info.version ? ` · agentctx ${info.version}` : ''} · read-only`;
    byId('token-form').hidden = true;
    await renderSidebar(route);
    if (ticket !== renderCount) return;
    const main = byId('session-view');
    if (route.comparison !== null) {
      const named = await cached(`comparisons/${route.comparison}`);
      if (ticket !== renderCount) return;
      main.replaceChildren(
        comparisonView(
          named,
          (app, outcome, call) =>
            navigate({
              app,
              user: outcome.userId ?? '',
              session: outcome.sessionId,
              call: call ?? null,
              comparison: null,
            }),
          chartRoom(),
        ),
      );
      setStatus('');
      return;
    }
    if (!route.session) {
      main.replaceChildren(
        el('p', {
          class: 'muted hint',
          text: route.app
            ? 'Pick a session.'
            : 'Type an app name (the root agent, or the appName a runner was given) and list its sessions.',
        }),
      );
      setStatus('');
      return;
    }
    const view = await sessionView(route);
    if (ticket !== renderCount) return;
    main.replaceChildren(view);
    setStatus('');
    applyFocus();
  } catch (error) {
    if (ticket !== renderCount) return;
    if (error instanceof ApiError && error.status === 401) {
      info = null;
      byId('token-form').hidden = false;
      byId('token-input').focus();
    }
    setStatus(error instanceof Error ? error.message : String(error), 'error');
  }
}

async function renderSidebar(route) {
  const appInput = inputById('app-input');
  const list = byId('app-list');
  list.replaceChildren(...info.apps.map((app) => el('option', { value: app })));
  if (document.activeElement !== appInput) appInput.value = route.app;
  await renderComparisonList(route);
  const sessionsBox = byId('sessions');
  if (!route.app) {
    sessionsBox.replaceChildren(
      info.apps.length === 0
        ? ''
        : el(
            'ul',
            { class: 'plain app-links' },
            info.apps.map((app) =>
              el(
                'li',
                {},
                el('button', {
                  type: 'button',
                  class: 'link',
                  text: app,
                  onclick: () => navigate({ app, user: '', session: '', call: null }),
                }),
              ),
            ),
          ),
    );
    return;
  }
  const listing = await cached(`apps/${encodeURIComponent(route.app)}/sessions`);
  sessionsBox.replaceChildren(
    sessionsView(listing, route, (session) =>
      navigate({ app: session.appName, user: session.userId, session: session.id, call: null, a: null }),
    ),
  );
}

// The comparisons the inspector was given (agentctx web --comparison), each a link to its view.
async function renderComparisonList(route) {
  const box = byId('comparisons');
  box.replaceChildren(
    ...(info.comparisons ? comparisonList(await cached('comparisons'), route.comparison, navigate) : []),
  );
}

async function sessionView(route) {
  const path = sessionPath(route);
  const [session, chart] = await Promise.all([cached(path), cached(`${path}/chart`)]);
  const calls = session.calls;
  const current = route.call ?? (calls.length > 0 ? calls[0].index : null);
  const tabs = el(
    'nav',
    { class: 'tabs', role: 'tablist' },
    TABS.map((tab) =>
      el('button', {
        type: 'button',
        role: 'tab',
        class: `tab${tab === route.tab ? ' current' : ''}`,
        dataset: { tab },
        'aria-selected': String(tab === route.tab),
        text: tab,
        onclick: () => navigate({ tab }),
      }),
    ),
  );
  const content = el(
    'div',
    { class: 'tab-content', dataset: { tab: route.tab } },
    await tabContent(route, session, current),
  );
  const chartTitle = el('h3', { text: 'Prompt tokens per call, by source' });
  const drawChart = () => chartView(chart, current, (index) => navigate({ call: index, a: null }), chartRoom());
  const chartSection = el('section', { class: 'chart-section' }, chartTitle, drawChart());
  chartDrawers.set(chartSection, () => chartSection.replaceChildren(chartTitle, drawChart()));
  return el(
    'div',
    {},
    el(
      'header',
      { class: 'session-head' },
      el('h2', { class: 'name' }, 'Session ', nameNodes(session.id)),
      el('p', {
        class: 'muted',
        text: `app ${session.appName} · user ${session.userId} · ${formatNumber(session.eventCount)} events · ${formatNumber(calls.length)} model calls${costSummary(session.cost)} · updated ${formatTime(session.lastUpdateTime)}`,
      }),
      el('button', {
        type: 'button',
        class: 'reload',
        text: 'Reload',
        title: 'read the session again (it may have grown)',
        onclick: () => {
          cache.clear();
          render();
        },
      }),
    ),
    chartSection,
    calls.length === 0 ? '' : callPicker(calls, current, route, costsByCall(session.cost), navigate),
    tabs,
    content,
  );
}

/** The content width of the chart's box: the session view's, less the box's padding and border (style.css). */
function chartRoom() {
  const width = byId('session-view').clientWidth;
  return width > 0 ? width - 22 : Infinity;
}

/** The session's cost in its head line: " · $0.1329" (and how many calls have no price), or nothing without calls. */
function costSummary(cost) {
  if (!cost || cost.total.calls === 0) return '';
  if (cost.total.usd === undefined) return ' · cost unknown (no call priced)';
  return ` · ${formatUsd(cost.total.usd)}${cost.total.unpricedCalls === 0 ? '' : ` (${formatNumber(cost.total.unpricedCalls)} calls not priced)`}`;
}

async function tabContent(route, session, current) {
  const path = sessionPath(route);
  // An event of this session, or of another of the user's (where a memory was taken from): null shows that session.
  const showEvent = (id, session = route.session) => {
    const where = session === route.session ? {} : { session, call: null, a: null };
    if (id === null) navigate(where);
    else navigate({ ...where, tab: 'timeline' }, { selector: `[data-event-id="${CSS.escape(id)}"]` });
  };
  switch (route.tab) {
    case 'timeline': {
      // The marks on calls whose prompt prefix changed; the timeline is drawn without them if they cannot be had.
      const cache = await cached(`${path}/cache`).catch(() => null);
      return timelineView(
        session.timeline,
        (index) => navigate({ tab: 'request', call: index }),
        costsByCall(session.cost),
        cacheByCall(cache),
      );
    }
    case 'cost':
      return costTab(session.cost, current, (index) => navigate({ call: index }), chartRoom());
    case 'state': {
      if (current === null) return stateView(session.state);
      return stateView((await cached(`${path}/calls/${current}/state`)).state, { call: current, onEvent: showEvent });
    }
    case 'find': {
      const result = route.q
        ? await cached(`${path}/find?text=${encodeURIComponent(route.q)}${current === null ? '' : `&call=${current}`}`)
        : null;
      return findView({
        text: route.q,
        result,
        onSearch: (text) => navigate({ q: text }),
        onCall: (index) => navigate({ call: index }),
        onPlace: (place) =>
          navigate(
            { tab: 'request' },
            {
              selector:
                place.block === null
                  ? `.piece[data-path="${CSS.escape(place.path)}"]`
                  : `.piece[data-path="system"][data-block="${place.block}"]`,
            },
          ),
      });
    }
    case 'diff': {
      if (current === null) return el('p', { class: 'muted', text: 'No calls to compare.' });
      const position = session.calls.findIndex((call) => call.index === current);
      const a = route.a ?? session.calls[position - 1]?.index ?? null;
      const diff = a === null ? null : await cached(`${path}/diff?a=${a}&b=${current}`);
      return [
        a === null
          ? el('p', { class: 'muted', text: `Call ${current} is the first: pick a call to compare it with.` })
          : '',
        diffView({
          calls: session.calls,
          diff,
          a: a ?? current,
          b: current,
          onPick: (left, right) => navigate({ a: left, call: right }),
        }),
      ];
    }
    default: {
      if (current === null) return el('p', { class: 'muted', text: 'This session has no recorded model calls.' });
      return requestView(await cached(`${path}/calls/${current}`), showEvent, (index) =>
        navigate({ call: index, a: null }),
      );
    }
  }
}

function applyFocus() {
  if (!pendingFocus) return;
  const target = document.querySelector(pendingFocus.selector);
  pendingFocus = null;
  if (!target) return;
  target.classList.add('focused');
  target.scrollIntoView({ block: 'center' });
}

function start() {
  byId('app-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const app = inputById('app-input').value.trim();
    cache.clear();
    navigate({ app, user: '', session: '', call: null, a: null });
  });
  byId('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    setToken(inputById('token-input').value.trim());
    inputById('token-input').value = '';
    cache.clear();
    render();
  });
  window.addEventListener('hashchange', render);
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const section = document.querySelector('#session-view .chart-section');
      if (section) chartDrawers.get(section)?.();
    }, 150);
  });
  render();
}

start();
