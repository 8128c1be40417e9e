import type { Part } from '../../contracts/content.js';
import type { ModelCallRecord } from '../../contracts/model-call.js';
import type { Provenance, RequestEdit } from '../../contracts/provenance.js';
import type { Source, SourceKind, SourceSubstitution } from '../../contracts/source.js';
import type { CacheMissCause, ChangedSubstitution } from './cache-types.js';

// Names what changed at the first difference, from the provenance of the piece there on each side: a templated value,
// a page, a tool, a skill, a memory block, text a hook wrote, a rewritten history.

type Call = Pick<ModelCallRecord, 'request' | 'provenance'>;
type Block = Provenance['system'][number];

const LABEL: Record<SourceKind, string> = {
  'global-instruction': 'global instruction',
  instruction: 'instruction',
  'static-instruction': 'static instruction',
  identity: 'identity',
  transfer: 'transfer text',
  tool: 'tool',
  history: 'history',
  'other-agent': "another agent's turn",
  'other-session': "another session's event",
  summary: 'summary',
  'instruction-content': 'instruction content',
  finalize: 'finalize turn',
  section: 'section',
  'skill-listing': 'skill listing',
  skill: 'skill',
  memory: 'memory block',
  page: 'page',
  custom: 'custom block',
  callback: 'callback',
};

const VALUE_CHARS = 200;

/** What a source is, in a few words: `instruction`, `section (sections.Runtime)`. */
export function sourceLabel(source: Source): string {
  const label = LABEL[source.kind];
  return source.kind === 'section' && source.field !== undefined ? `${label} ${source.field}` : label;
}

/** The cause of a difference at tool `index`. */
export function toolCause(previous: Call, current: Call, index: number): CacheMissCause {
  const before = previous.request.tools.map((tool) => tool.name);
  const now = current.request.tools.map((tool) => tool.name);
  const left = previous.request.tools[index];
  const right = current.request.tools[index];
  const sides = withSources(previous.provenance.tools[index], current.provenance.tools[index]);
  const edited = [previous.provenance, current.provenance].some((provenance) =>
    (provenance.edits ?? []).some((edit) => edit.target.in === 'tool' && edit.target.tool === index),
  );
  if (edited || sides.currentSource?.kind === 'callback')
    return { kind: 'callback', text: `tool written by a callback: ${right?.name ?? left?.name ?? ''}`, ...sides };
  if (left !== undefined && right !== undefined && left.name === right.name) {
    const what = left.description !== right.description ? 'description' : 'parameters';
    return { kind: 'tool-changed', text: `tool changed: ${left.name} (${what})`, tool: left.name, ...sides };
  }
  const sameSet = before.length === now.length && [...before].sort().join('\n') === [...now].sort().join('\n');
  const reordered: CacheMissCause = {
    kind: 'tools-reordered',
    text: 'tools reordered',
    order: { previous: before, current: now },
    ...sides,
  };
  if (sameSet) return reordered;
  if (right !== undefined && !before.includes(right.name))
    return {
      kind: 'tool-added',
      text: `tool added: ${right.name}${owner(sides.currentSource)}`,
      tool: right.name,
      ...sides,
    };
  if (left !== undefined && !now.includes(left.name))
    return {
      kind: 'tool-removed',
      text: `tool removed: ${left.name}${owner(sides.previousSource)}`,
      tool: left.name,
      ...sides,
    };
  return reordered;
}

/** The cause of a difference at `offset` of the system text. */
export function systemCause(previous: Call, current: Call, offset: number): CacheMissCause {
  const left = blockAt(previous.provenance, offset);
  const right = blockAt(current.provenance, offset);
  const sides = withSources(left?.source, right?.source);
  const edit = editAt(previous.provenance, offset) ?? editAt(current.provenance, offset);
  if (edit !== undefined)
    return { kind: 'callback', text: `system text written by a callback${by(edit.by)}`, ...sides };
  const hook = [right?.source, left?.source].find((source) => source?.kind === 'callback');
  if (hook !== undefined) return { kind: 'callback', text: `system text written by a callback${by(hook)}`, ...sides };
  const special = byKind(sides.previousSource, sides.currentSource);
  if (special !== undefined) return special;
  if (left !== undefined && right !== undefined && sameOrigin(left.source, right.source)) {
    const substitution = changedSubstitution(previous.request.system, left, current.request.system, right, offset);
    const label = sourceLabel(left.source);
    if (substitution !== undefined)
      return {
        kind: 'substitution-changed',
        text: `${label}: ${substitution.placeholder} changed`,
        substitution,
        ...sides,
      };
    if (left.source.note?.includes('instruction provider') === true)
      return { kind: 'provider-changed', text: `${label} provider returned other text`, ...sides };
    return { kind: 'text-changed', text: `${label} changed`, ...sides };
  }
  return moved(
    sides,
    previous.provenance.system.map((block) => block.source),
    current.provenance.system.map((block) => block.source),
  );
}

/** The cause of a difference at part `part` of message `message`. */
export function messageCause(previous: Call, current: Call, message: number, part: number): CacheMissCause {
  const sides = withSources(
    previous.provenance.messages[message]?.[part],
    current.provenance.messages[message]?.[part],
  );
  const edited = [previous.provenance, current.provenance].some((provenance) =>
    (provenance.edits ?? []).some(
      (edit) => edit.target.in === 'part' && edit.target.message === message && edit.target.part === part,
    ),
  );
  const hook = [sides.currentSource, sides.previousSource].find((source) => source?.kind === 'callback');
  if (edited || hook !== undefined)
    return { kind: 'callback', text: `message written by a callback${hook === undefined ? '' : by(hook)}`, ...sides };
  if (sides.previousSource?.kind === 'summary' || sides.currentSource?.kind === 'summary')
    return { kind: 'compaction', text: 'history rewritten: compaction', ...sides };
  const special = byKind(sides.previousSource, sides.currentSource);
  if (special !== undefined) return special;
  const left = previous.request.messages[message]?.content[part];
  const right = current.request.messages[message]?.content[part];
  const eventsNow = new Set(current.provenance.messages.flat().flatMap((source) => source.eventIds ?? []));
  const eventsBefore = new Set(previous.provenance.messages.flat().flatMap((source) => source.eventIds ?? []));
  const leftEvents = sides.previousSource?.eventIds ?? [];
  const rightEvents = sides.currentSource?.eventIds ?? [];
  if (
    left !== undefined &&
    (right === undefined || (leftEvents.length > 0 && !leftEvents.some((id) => eventsNow.has(id))))
  ) {
    return {
      kind: 'history-rewritten',
      text: `history rewritten: ${partLabel(left)} removed${toolOwner(previous, left)}`,
      ...sides,
    };
  }
  if (right !== undefined && rightEvents.length > 0 && !rightEvents.some((id) => eventsBefore.has(id))) {
    return { kind: 'history-rewritten', text: `history rewritten: ${partLabel(right)} inserted`, ...sides };
  }
  if (
    sides.previousSource !== undefined &&
    sides.currentSource !== undefined &&
    sameOrigin(sides.previousSource, sides.currentSource)
  ) {
    const event = rightEvents[0];
    const label = sourceLabel(sides.currentSource);
    return {
      kind: HISTORY.has(sides.currentSource.kind) ? 'history-rewritten' : 'text-changed',
      text: event === undefined ? `${label} changed` : `history rewritten: event ${event} changed`,
      ...sides,
    };
  }
  return moved(sides, previous.provenance.messages.flat(), current.provenance.messages.flat());
}

const HISTORY: ReadonlySet<SourceKind> = new Set(['history', 'other-agent', 'summary']);

/** Pages, skills and memory, named for themselves wherever they are. */
function byKind(previous: Source | undefined, current: Source | undefined): CacheMissCause | undefined {
  const sides = withSources(previous, current);
  const isPage = (source: Source | undefined) => source?.kind === 'page';
  if (isPage(current) || isPage(previous)) {
    const page = (current !== undefined && isPage(current) ? current : previous) as Source;
    const name = page.extension ?? page.processor;
    if (isPage(current) && isPage(previous)) return { kind: 'page-changed', text: `page changed: ${name}`, ...sides };
    return isPage(current)
      ? { kind: 'page-added', text: `page added: ${name}`, ...sides }
      : { kind: 'page-removed', text: `page removed: ${name}`, ...sides };
  }
  const skill = (source: Source | undefined) =>
    source?.kind === 'skill' ? (source.field ?? '').replace(/^skills\./, '') : undefined;
  if (skill(current) !== undefined && skill(previous) === skill(current))
    return { kind: 'skill-changed', text: `skill changed: ${skill(current)}`, ...sides };
  if (skill(current) !== undefined) return { kind: 'skill-loaded', text: `skill loaded: ${skill(current)}`, ...sides };
  if (skill(previous) !== undefined)
    return { kind: 'skill-unloaded', text: `skill unloaded: ${skill(previous)}`, ...sides };
  const memory = [current, previous].find((source) => source?.kind === 'memory');
  if (memory !== undefined)
    return {
      kind: 'memory-changed',
      text: `memory block changed${memory.field === undefined ? '' : `: ${memory.field.replace(/^memory\./, '')}`}`,
      ...sides,
    };
  if (current?.kind === 'skill-listing' || previous?.kind === 'skill-listing')
    return { kind: 'text-changed', text: 'skill listing changed', ...sides };
  return undefined;
}

/** Two different pieces at one place: one was put in before the other, or taken out, or replaced it. */
function moved(sides: Sides, before: readonly Source[], now: readonly Source[]): CacheMissCause {
  const { previousSource: previous, currentSource: current } = sides;
  if (previous === undefined && current !== undefined)
    return { kind: 'piece-added', text: `${sourceLabel(current)} added`, ...sides };
  if (current === undefined && previous !== undefined)
    return { kind: 'piece-removed', text: `${sourceLabel(previous)} removed`, ...sides };
  if (previous === undefined || current === undefined) return { kind: 'text-changed', text: 'text changed', ...sides };
  if (now.some((source) => sameOrigin(source, previous)) && !before.some((source) => sameOrigin(source, current)))
    return { kind: 'piece-added', text: `${sourceLabel(current)} added`, ...sides };
  if (before.some((source) => sameOrigin(source, current)) && !now.some((source) => sameOrigin(source, previous)))
    return { kind: 'piece-removed', text: `${sourceLabel(previous)} removed`, ...sides };
  return { kind: 'text-changed', text: `${sourceLabel(previous)} replaced by ${sourceLabel(current)}`, ...sides };
}

/**
 * The templated value the difference falls in: the template is the same on both sides (same placeholders in the
 * same order), so the text before the first changed value is identical, and the difference lies in that value.
 */
function changedSubstitution(
  previousText: string,
  left: Block,
  currentText: string,
  right: Block,
  offset: number,
): ChangedSubstitution | undefined {
  const before = left.source.substitutions ?? [];
  const now = right.source.substitutions ?? [];
  if (
    before.length !== now.length ||
    before.some((substitution, index) => substitution.placeholder !== now[index]?.placeholder)
  )
    return undefined;
  for (let index = 0; index < before.length; index++) {
    const a = before[index] as SourceSubstitution;
    const b = now[index] as SourceSubstitution;
    const previousValue = previousText.slice(left.start + a.start, left.start + a.end);
    const currentValue = currentText.slice(right.start + b.start, right.start + b.end);
    if (previousValue === currentValue) continue;
    const inside = (block: Block, substitution: SourceSubstitution) =>
      block.start + substitution.start <= offset && offset <= block.start + substitution.end;
    if (!inside(left, a) && !inside(right, b)) return undefined;
    return {
      placeholder: a.placeholder,
      key: a.kind === 'state' ? a.key : `artifact.${a.name}`,
      previousValue: previousValue.slice(0, VALUE_CHARS),
      currentValue: currentValue.slice(0, VALUE_CHARS),
    };
  }
  return undefined;
}

/** The block holding `offset`, or the next one after it when `offset` is in a separator (or past the end: none). */
function blockAt(provenance: Provenance, offset: number): Block | undefined {
  return (
    provenance.system.find((block) => block.start <= offset && offset < block.end) ??
    provenance.system.find((block) => block.start >= offset && block.end > block.start)
  );
}

function editAt(provenance: Provenance, offset: number): RequestEdit | undefined {
  return (provenance.edits ?? []).find(
    (edit) =>
      edit.target.in === 'system' &&
      (edit.start === edit.end ? edit.start === offset : edit.start <= offset && offset < edit.end),
  );
}

function sameOrigin(a: Source, b: Source): boolean {
  return (
    a.kind === b.kind &&
    a.agent === b.agent &&
    a.field === b.field &&
    a.processor === b.processor &&
    a.extension === b.extension
  );
}

type Sides = { previousSource?: Source; currentSource?: Source };

function withSources(previous: Source | undefined, current: Source | undefined): Sides {
  return {
    ...(previous === undefined ? {} : { previousSource: previous }),
    ...(current === undefined ? {} : { currentSource: current }),
  };
}

function owner(source: Source | undefined): string {
  return source?.extension === undefined ? '' : ` (${source.extension})`;
}

function by(source: Source): string {
  const name = source.extension ?? source.field ?? source.processor;
  return name === '' ? '' : ` (${name})`;
}

function partLabel(part: Part): string {
  if ('functionCall' in part) return `${part.functionCall.name} call`;
  if ('functionResponse' in part) return `${part.functionResponse.name} result`;
  if ('text' in part) return part.thought === true ? 'thought' : 'text';
  return 'data part';
}

/** ` (a tool of paging:items)` when the part is a call or result of a tool an extension offers. */
function toolOwner(call: Call, part: Part): string {
  const name =
    'functionCall' in part
      ? part.functionCall.name
      : 'functionResponse' in part
        ? part.functionResponse.name
        : undefined;
  if (name === undefined) return '';
  const index = call.request.tools.findIndex((tool) => tool.name === name);
  const extension = call.provenance.tools[index]?.extension;
  return extension === undefined ? '' : ` (a tool of ${extension})`;
}
