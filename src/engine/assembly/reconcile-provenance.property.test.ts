import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../test/support/property-runs.js';
import type { Part } from '../../contracts/content.js';
import type { EditTarget, Provenance, RequestEdit } from '../../contracts/provenance.js';
import type { LlmRequest, Message, ToolDeclaration } from '../../contracts/request.js';
import type { Source, SourceSubstitution } from '../../contracts/source.js';
import { partPieces, sourceAt, systemPieces, toolDescriptionPieces, type TextPiece } from './provenance-pieces.js';
import { reconcileProvenance } from './reconcile-provenance.js';

const runs = propertyRuns();
// Fuzzing runs a hundred times as many cases.
const timeout = process.env['AGENTCTX_FUZZ'] === '1' ? 15 * 60_000 : undefined;

/** Each hook writes its own character, used nowhere else, so what it wrote can be told apart afterwards. */
const MARKERS = ['§', '¶', '¤', '¦'] as const;
const SEPARATOR = '\n\n';
const text = (maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', '.'), maxLength });

/** What the assembled request held: each source's text, and each substitution's inserted value. */
type Original = { texts: Map<string, string>; values: Map<string, string>; separators: string };
type Assembled = { request: LlmRequest; provenance: Provenance; original: Original };

const blockArbitrary = fc.array(
  fc.oneof(
    text(8).map((literal) => ({ literal })),
    text(4).map((value) => ({ value })),
  ),
  { minLength: 1, maxLength: 5 },
);
const toolArbitrary = fc.record({ description: text(12), parameters: fc.option(fc.nat(3), { nil: undefined }) });
const partArbitrary = fc.oneof(
  text(12).map((value): Part => ({ text: value })),
  fc.nat(5).map((x): Part => ({ functionCall: { name: 'lookup', args: { x } } })),
);
const messageArbitrary = fc.record({
  role: fc.constantFrom('user' as const, 'model' as const),
  content: fc.array(partArbitrary, { minLength: 1, maxLength: 3 }),
});
const requestArbitrary = fc.record({
  blocks: fc.array(blockArbitrary, { maxLength: 4 }),
  tools: fc.array(toolArbitrary, { maxLength: 3 }),
  messages: fc.array(messageArbitrary, { maxLength: 5 }),
});

const OP_KINDS = [
  'system-replace',
  'system-insert',
  'system-delete',
  'system-append',
  'system-prepend',
  'message-insert',
  'message-remove',
  'part-edit',
  'part-insert',
  'part-remove',
  'tool-add',
  'tool-remove',
  'tool-description',
  'tool-parameters',
] as const;
const opArbitrary = fc.record({
  kind: fc.constantFrom(...OP_KINDS),
  a: fc.nat(),
  b: fc.nat(),
  c: fc.nat(),
  text: text(6),
  markers: fc.integer({ min: 1, max: 3 }),
});
type Op = typeof opArbitrary extends fc.Arbitrary<infer T> ? T : never;
const hooksArbitrary = fc.array(fc.array(opArbitrary, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 });

function assemble(generated: typeof requestArbitrary extends fc.Arbitrary<infer T> ? T : never): Assembled {
  const original: Original = { texts: new Map(), values: new Map(), separators: '' };
  let system = '';
  const blocks: Provenance['system'] = [];
  generated.blocks.forEach((segments, index) => {
    if (index > 0) {
      system += SEPARATOR;
      original.separators += SEPARATOR;
    }
    let block = '';
    const substitutions: SourceSubstitution[] = [];
    segments.forEach((segment, position) => {
      if ('literal' in segment) block += segment.literal;
      else {
        const placeholder = `{v${index}_${position}}`;
        substitutions.push({
          placeholder,
          start: block.length,
          end: block.length + segment.value.length,
          kind: 'state',
          key: placeholder,
          scope: 'session',
          present: true,
        });
        original.values.set(placeholder, segment.value);
        block += segment.value;
      }
    });
    const processor = `block${index}`;
    original.texts.set(processor, block);
    const source: Source = { kind: 'instruction', processor, agent: 'root' };
    if (substitutions.length > 0) source.substitutions = substitutions;
    blocks.push({ start: system.length, end: system.length + block.length, source });
    system += block;
  });
  const tools = generated.tools.map((tool, index): ToolDeclaration => {
    original.texts.set(`tool${index}`, tool.description);
    return tool.parameters === undefined
      ? { name: `t${index}`, description: tool.description }
      : { name: `t${index}`, description: tool.description, parameters: { type: 'object', n: tool.parameters } };
  });
  const messages: Message[] = generated.messages.map((message) => ({
    role: message.role,
    content: message.content.map((part) => structuredClone(part)),
  }));
  const partSources = messages.map((message, index) =>
    message.content.map((part, position): Source => {
      const processor = `part${index}.${position}`;
      if ('text' in part) original.texts.set(processor, part.text);
      return { kind: 'history', processor, agent: 'root', eventIds: [`e${index}`] };
    }),
  );
  return {
    request: { system, tools, messages, config: {} },
    provenance: {
      system: blocks,
      tools: tools.map((_, index) => ({ kind: 'tool', processor: `tool${index}`, agent: 'root' })),
      messages: partSources,
    },
    original,
  };
}

function hookSource(hook: number): Source {
  return hook % 2 === 0
    ? {
        kind: 'callback',
        processor: `hook${hook}`,
        agent: 'root',
        field: 'callbacks.beforeModel',
        note: 'beforeModel callback',
      }
    : { kind: 'callback', processor: `hook${hook}`, extension: 'redactor', agent: 'root', note: 'plugin hook' };
}

function applyOp(request: LlmRequest, op: Op, hook: number, index: number): void {
  const written =
    op.text.slice(0, op.c % (op.text.length + 1)) +
    (MARKERS[hook] as string).repeat(op.markers) +
    op.text.slice(op.c % (op.text.length + 1));
  const splice = (value: string): string => {
    const start = op.a % (value.length + 1);
    const end = Math.min(value.length, start + (op.b % 12));
    return value.slice(0, start) + written + value.slice(end);
  };
  const messages = request.messages;
  const message = messages.length === 0 ? undefined : messages[op.a % messages.length];
  const tool = request.tools.length === 0 ? undefined : request.tools[op.a % request.tools.length];
  switch (op.kind) {
    case 'system-replace':
      request.system = splice(request.system);
      break;
    case 'system-insert': {
      const at = op.a % (request.system.length + 1);
      request.system = request.system.slice(0, at) + written + request.system.slice(at);
      break;
    }
    case 'system-delete': {
      const start = op.a % (request.system.length + 1);
      request.system = request.system.slice(0, start) + request.system.slice(start + (op.b % 30));
      break;
    }
    case 'system-append':
      request.system += written;
      break;
    case 'system-prepend':
      request.system = written + request.system;
      break;
    case 'message-insert':
      messages.splice(op.a % (messages.length + 1), 0, {
        role: op.b % 2 === 0 ? 'user' : 'model',
        content: op.b % 3 === 0 ? [{ functionCall: { name: 'lookup', args: { hook } } }] : [{ text: written }],
      });
      break;
    case 'message-remove':
      if (message !== undefined) messages.splice(op.a % messages.length, 1);
      break;
    case 'part-edit': {
      const part = message?.content[op.b % Math.max(1, message.content.length)];
      if (part === undefined) break;
      if ('text' in part) part.text = splice(part.text);
      else if ('functionCall' in part) part.functionCall.args = { changedBy: hook };
      break;
    }
    case 'part-insert':
      message?.content.splice(
        op.b % (message.content.length + 1),
        0,
        op.c % 3 === 0 ? { functionCall: { name: 'lookup', args: { hook } } } : { text: written },
      );
      break;
    case 'part-remove':
      if (message !== undefined && message.content.length > 0) message.content.splice(op.b % message.content.length, 1);
      break;
    case 'tool-add':
      request.tools.splice(op.b % (request.tools.length + 1), 0, { name: `h${hook}_${index}`, description: written });
      break;
    case 'tool-remove':
      if (tool !== undefined) request.tools.splice(op.a % request.tools.length, 1);
      break;
    case 'tool-description':
      if (tool !== undefined) tool.description = splice(tool.description);
      break;
    case 'tool-parameters':
      if (tool !== undefined) tool.parameters = { type: 'object', changedBy: hook, n: op.b % 3 };
      break;
  }
}

/** Every text the provenance attributes, with its pieces and target. */
function attributedTexts(
  request: LlmRequest,
  provenance: Provenance,
): { target: EditTarget; text: string; pieces: TextPiece[] }[] {
  const texts: { target: EditTarget; text: string; pieces: TextPiece[] }[] = [
    { target: { in: 'system' }, text: request.system, pieces: systemPieces(request, provenance) },
  ];
  request.tools.forEach((tool, index) =>
    texts.push({
      target: { in: 'tool', tool: index },
      text: tool.description,
      pieces: toolDescriptionPieces(request, provenance, index),
    }),
  );
  request.messages.forEach((message, index) =>
    message.content.forEach((part, position) => {
      if ('text' in part)
        texts.push({
          target: { in: 'part', message: index, part: position },
          text: part.text,
          pieces: partPieces(request, provenance, index, position),
        });
    }),
  );
  return texts;
}

function targetText(request: LlmRequest, target: EditTarget): string | undefined {
  if (target.in === 'system') return request.system;
  if (target.in === 'tool') return request.tools[target.tool]?.description;
  const part = request.messages[target.message]?.content[target.part];
  return part !== undefined && 'text' in part ? part.text : undefined;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (const char of needle) {
    at = haystack.indexOf(char, at);
    if (at < 0) return false;
    at += char.length;
  }
  return true;
}

const RANK = { system: 0, tool: 1, part: 2 } as const;
function orderKey(edit: RequestEdit): number[] {
  const target = edit.target;
  return [
    RANK[target.in],
    target.in === 'tool' ? target.tool : target.in === 'part' ? target.message : 0,
    target.in === 'part' ? target.part : 0,
    edit.start,
    edit.end,
  ];
}

function checkInvariants(state: Assembled, hooksRun: number): void {
  const { request, provenance, original } = state;
  const system = request.system;

  // (c) system blocks in order, within bounds; substitutions still show their values.
  let previousEnd = 0;
  for (const block of provenance.system) {
    expect(block.start).toBeGreaterThanOrEqual(previousEnd);
    expect(block.end).toBeGreaterThanOrEqual(block.start);
    expect(block.end).toBeLessThanOrEqual(system.length);
    previousEnd = block.end;
    for (const substitution of block.source.substitutions ?? []) {
      expect(substitution.start).toBeGreaterThanOrEqual(0);
      expect(substitution.end).toBeLessThanOrEqual(block.end - block.start);
      expect(system.slice(block.start + substitution.start, block.start + substitution.end)).toBe(
        original.values.get(substitution.placeholder),
      );
    }
  }
  // (c) parallel to the request.
  expect(provenance.tools.length).toBe(request.tools.length);
  expect(provenance.messages.map((parts) => parts.length)).toEqual(
    request.messages.map((message) => message.content.length),
  );
  // (c) edits: present only when some, in request order, inside their text (system: inside one block), not overlapping.
  if (provenance.edits !== undefined) expect(provenance.edits.length).toBeGreaterThan(0);
  if (provenance.removed !== undefined) expect(provenance.removed.length).toBeGreaterThan(0);
  const edits = provenance.edits ?? [];
  edits.forEach((edit, index) => {
    const next = edits[index + 1];
    if (next !== undefined) {
      const [a, b] = [orderKey(edit), orderKey(next)];
      const firstDifference = a.findIndex((value, position) => value !== b[position]);
      if (firstDifference >= 0) expect(a[firstDifference]).toBeLessThan(b[firstDifference] as number);
      if (JSON.stringify(edit.target) === JSON.stringify(next.target) && edit.end > edit.start && next.end > next.start)
        expect(next.start).toBeGreaterThanOrEqual(edit.end);
    }
    expect(edit.by.kind).toBe('callback');
    const textOfTarget = targetText(request, edit.target);
    expect(textOfTarget).toBeDefined();
    expect(edit.start).toBeGreaterThanOrEqual(0);
    expect(edit.end).toBeGreaterThanOrEqual(edit.start);
    expect(edit.end).toBeLessThanOrEqual((textOfTarget as string).length);
    if (edit.target.in === 'system')
      expect(provenance.system.some((block) => block.start <= edit.start && edit.end <= block.end)).toBe(true);
  });
  for (const removal of provenance.removed ?? []) expect(removal.preview.length).toBeLessThanOrEqual(120);
  // Every assembled block is still there, with text, or listed as removed; never both, never twice.
  const present = provenance.system.filter((block) => block.source.kind !== 'callback');
  const removedBlocks = (provenance.removed ?? [])
    .filter((removal) => removal.what === 'system-block' && removal.source.kind !== 'callback')
    .map((removal) => removal.source.processor);
  for (const block of present)
    if ((original.texts.get(block.source.processor) ?? '') !== '') expect(block.end).toBeGreaterThan(block.start);
  const blockNames = [...present.map((block) => block.source.processor), ...removedBlocks].sort();
  const assembledBlocks = [...original.texts.keys()].filter((name) => name.startsWith('block')).sort();
  expect(blockNames).toEqual(assembledBlocks);

  let separators = '';
  for (const { target, text: value, pieces } of attributedTexts(request, provenance)) {
    // (a) + (b): the pieces tile the text exactly; every character but a separator's has a source.
    let cursor = 0;
    for (const piece of pieces) {
      expect(piece.start).toBe(cursor);
      expect(piece.end).toBeGreaterThan(piece.start);
      cursor = piece.end;
      if (piece.separator === true) {
        expect(target.in).toBe('system');
        expect(piece.source).toBeUndefined();
        separators += value.slice(piece.start, piece.end);
      } else expect(piece.source).toBeDefined();
      if (piece.edit !== undefined) expect(piece.source).toBe(piece.edit.by);
    }
    expect(cursor).toBe(value.length);
    expect(pieces.map((piece) => value.slice(piece.start, piece.end)).join('')).toBe(value);

    const sources: (Source | undefined)[] = new Array(value.length);
    for (const piece of pieces)
      for (let offset = piece.start; offset < piece.end; offset++) sources[offset] = piece.source;
    // sourceAt agrees with the pieces.
    for (let offset = 0; offset < value.length; offset += 7)
      expect(sourceAt(request, provenance, target, offset)).toBe(sources[offset]);

    // (d) a hook's marker is its own, or a later hook's that rewrote it.
    for (let offset = 0; offset < value.length; offset++) {
      const hook = MARKERS.indexOf(value[offset] as (typeof MARKERS)[number]);
      if (hook < 0) continue;
      const owner = sources[offset];
      expect(owner?.kind).toBe('callback');
      expect(Number(owner?.processor.slice(4))).toBeGreaterThanOrEqual(hook);
      expect(Number(owner?.processor.slice(4))).toBeLessThan(hooksRun);
    }

    // (e) what is still credited to an assembled source is, in order, a selection of that source's own text.
    const credited = new Map<string, string>();
    for (const piece of pieces) {
      if (piece.source === undefined || piece.edit !== undefined || piece.source.kind === 'callback') continue;
      credited.set(
        piece.source.processor,
        (credited.get(piece.source.processor) ?? '') + value.slice(piece.start, piece.end),
      );
    }
    for (const [processor, chars] of credited) {
      const own = original.texts.get(processor);
      expect(own, processor).toBeDefined();
      expect(
        isSubsequence(chars, own as string),
        `${processor}: ${JSON.stringify(chars)} from ${JSON.stringify(own)}`,
      ).toBe(true);
    }
  }
  // (e) separators are what assembly put between blocks.
  expect(isSubsequence(separators, original.separators)).toBe(true);
}

describe('reconcileProvenance (property)', () => {
  it(
    'keeps every character of a request attributed through a sequence of hooks',
    () => {
      fc.assert(
        fc.property(requestArbitrary, hooksArbitrary, (generated, hooks) => {
          let state = assemble(generated);
          checkInvariants(state, 0);
          hooks.forEach((ops, hook) => {
            const request = structuredClone(state.request);
            ops.forEach((op, index) => applyOp(request, op, hook, index));
            const snapshot = structuredClone({ request: state.request, provenance: state.provenance });
            const provenance = reconcileProvenance(state.request, state.provenance, request, hookSource(hook));
            expect({ request: state.request, provenance: state.provenance }).toEqual(snapshot);
            state = { request, provenance, original: state.original };
            checkInvariants(state, hook + 1);
          });
          // A hook that changes nothing changes no provenance.
          expect(
            reconcileProvenance(state.request, state.provenance, structuredClone(state.request), hookSource(9)),
          ).toEqual(state.provenance);
        }),
        runs,
      );
    },
    timeout,
  );
});
