// Source kinds (where a piece of the request came from): their colours, and the provenance panel of one piece.
import { el } from './dom.js';

// One colour per kind, each clearly apart from every other (CIEDE2000 distance at least 15: checked by
// test/web/source-colours.test.ts); callback is the hook colour of style.css, page the page-in marker's.
export const KIND_COLOURS = Object.freeze({
  'global-instruction': '#965e01',
  instruction: '#23519d',
  'static-instruction': '#33cbdc',
  'instruction-content': '#48a0e3',
  identity: '#7827d3',
  transfer: '#ea9f12',
  section: '#aec504',
  'skill-listing': '#d7a7da',
  skill: '#8a6693',
  memory: '#b371fb',
  page: '#d95f02',
  summary: '#c30d02',
  history: '#2ca02c',
  'other-agent': '#106153',
  'other-session': '#009988',
  tool: '#e07a78',
  finalize: '#52750e',
  custom: '#82d18c',
  callback: '#c2185b',
  framing: '#d6d6d6',
  other: '#8f8f8f',
});

/** Kinds in a stable order for legends: the known ones first, then any others alphabetically. */
export function orderKinds(kinds) {
  const known = Object.keys(KIND_COLOURS);
  return [...kinds].sort(
    (a, b) =>
      (known.includes(a) ? known.indexOf(a) : 100) - (known.includes(b) ? known.indexOf(b) : 100) || a.localeCompare(b),
  );
}

export function kindColour(kind) {
  return Object.hasOwn(KIND_COLOURS, kind) ? KIND_COLOURS[kind] : KIND_COLOURS.other;
}

/** A kind as a class-name-safe word (kinds are data: a custom processor may name any). */
export function kindClass(kind) {
  return `src-${String(kind ?? 'other').replace(/[^a-z0-9-]/gi, '_')}`;
}

/** The coloured label of a kind. */
export function kindBadge(kind) {
  return el('span', {
    class: `badge kind ${kindClass(kind)}`,
    style: { '--src': kindColour(kind) },
    text: kind ?? 'unknown',
  });
}

/** Who a hook is, in words: "beforeModel callback of coordinator", "beforeModel hook of redactor (agent coordinator)". */
export function hookName(source) {
  if (!source) return 'a hook';
  if (source.extension) return `${source.processor} hook of ${source.extension} (agent ${source.agent})`;
  const position = /\[(\d+)\]$/.exec(source.field ?? '');
  return `${source.processor} callback${position ? ` #${Number(position[1]) + 1}` : ''} of ${source.agent}`;
}

/** The tooltip of text a hook wrote, or of the place where it deleted some. */
export function editTitle(piece) {
  const replaced = piece.replaced === undefined ? '' : `"${clip(piece.replaced)}"`;
  if (piece.role === 'deletion') return `deleted by ${hookName(piece.source)}: ${replaced}`;
  return `written by ${hookName(piece.source)}${replaced ? `, in place of ${replaced}` : ''}`;
}

function clip(text) {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** One line about a source, for titles (shown on hover). */
export function sourceTitle(source) {
  if (!source) return 'no provenance recorded for this part';
  if (source.kind === 'callback') return `added by ${hookName(source)}`;
  const bits = [`${source.kind} · agent ${source.agent} · processor ${source.processor}`];
  if (source.extension) bits.push(`extension ${source.extension}`);
  if (source.field) bits.push(`field ${source.field}`);
  if (source.note) bits.push(source.note);
  for (const sub of source.substitutions ?? [])
    bits.push(sub.kind === 'state' ? `state ${sub.key} (${sub.scope})` : `artifact ${sub.name}`);
  if (source.eventIds?.length) bits.push(`${source.eventIds.length} event${source.eventIds.length === 1 ? '' : 's'}`);
  return bits.join(' · ');
}

/**
 * The full provenance of a source as a definition list; event ids link to the timeline through `onEvent(id)`, and a
 * memory's session and event to that session through `onEvent(id, session)` (`id` null: the session's view).
 */
export function provenancePanel(source, onEvent) {
  if (!source)
    return el('p', {
      class: 'provenance muted',
      text: 'No provenance lines up with this part, so it is shown without a source.',
    });
  const rows = [
    ['kind', source.kind],
    ['agent', source.agent],
    ['processor', source.processor],
    ['extension', source.extension],
    ['field', source.field],
    ['note', source.note],
  ].filter(([, value]) => value !== undefined && value !== '');
  const list = el(
    'dl',
    { class: 'provenance' },
    rows.map(([name, value]) => [el('dt', { text: name }), el('dd', { text: value })]),
  );
  const substitutions = source.substitutions ?? [];
  if (substitutions.length > 0) {
    list.append(
      el('dt', { text: 'inserted' }),
      el(
        'dd',
        {},
        el(
          'ul',
          { class: 'plain' },
          substitutions.map((sub) =>
            el(
              'li',
              {},
              sub.kind === 'state' ? `state key ${sub.key} (scope ${sub.scope})` : `artifact ${sub.name}`,
              ` as ${sub.placeholder}`,
              sub.present ? '' : ' — missing, left empty',
            ),
          ),
        ),
      ),
    );
  }
  const memories = source.memories ?? [];
  if (memories.length > 0)
    list.append(
      el('dt', { text: memories.length === 1 ? 'memory' : `memories (${memories.length})` }),
      el(
        'dd',
        {},
        el(
          'ul',
          { class: 'plain memory-origins' },
          memories.map((memory) => memoryItem(memory, onEvent)),
        ),
      ),
    );
  // A memory's events are another session's, linked by its line above, not in this session's timeline.
  const events = memories.length > 0 ? [] : (source.eventIds ?? []);
  if (events.length > 0) {
    list.append(
      el('dt', { text: events.length === 1 ? 'event' : `events (${events.length})` }),
      el(
        'dd',
        { class: 'event-ids' },
        events.map((id) =>
          el('button', {
            type: 'button',
            class: 'link event-link',
            dataset: { eventId: id },
            text: id,
            onclick: () => onEvent(id),
          }),
        ),
      ),
    );
  }
  return list;
}

// One memory: the session and event it was taken from (each a link there), its author and time.
function memoryItem(memory, onEvent) {
  const link = (text, className, onclick) =>
    el('button', { type: 'button', class: `link ${className}`, text, onclick });
  const who = [memory.author, memory.timestamp].filter((item) => item !== undefined).join(', ');
  const where =
    memory.sessionId === undefined
      ? [`memory ${memory.id}, written directly`]
      : [
          'memory from session ',
          link(memory.sessionId, 'memory-session', () => onEvent(null, memory.sessionId)),
          ', event ',
          memory.eventId === undefined
            ? '?'
            : link(memory.eventId, 'event-link', () => onEvent(memory.eventId, memory.sessionId)),
        ];
  return el(
    'li',
    { class: 'memory-origin', dataset: { memoryId: memory.id } },
    ...where,
    who === '' ? '' : ` (${who})`,
  );
}
