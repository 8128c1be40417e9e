import { describe, expect, it } from 'vitest';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source, SourceKind } from '../../contracts/source.js';
import { stablePrefixOf } from './stable-prefix.js';

const source = (kind: SourceKind): Source => ({ kind, processor: 'p', agent: 'a' });
const text = (value: string) => ({ text: value });

function request(
  system: [string, SourceKind][],
  messages: SourceKind[][],
): { request: LlmRequest; provenance: Provenance } {
  let at = 0;
  const blocks = system.map(([value, kind], index) => {
    const start = at + (index === 0 ? 0 : 2);
    at = start + value.length;
    return { start, end: at, source: source(kind) };
  });
  return {
    request: {
      system: system.map(([value]) => value).join('\n\n'),
      tools: [],
      messages: messages.map((kinds) => ({ role: 'user', content: kinds.map((kind) => text(kind)) })),
      config: {},
    },
    provenance: { system: blocks, tools: [], messages: messages.map((kinds) => kinds.map(source)) },
  };
}

describe('stablePrefixOf', () => {
  it('counts all of a request built from definitions and history as stable', () => {
    const { request: built, provenance } = request(
      [
        ['Be brief.', 'instruction'],
        ['You are a.', 'identity'],
      ],
      [['history'], ['history', 'history']],
    );
    expect(stablePrefixOf(built, provenance)).toEqual({ systemChars: built.system.length, messages: 2 });
  });

  it('ends the system text before a page and before what a hook wrote, without the separator', () => {
    const { request: paged, provenance } = request(
      [
        ['Be brief.', 'instruction'],
        ['--- PAGE ---', 'page'],
        ['You are a.', 'identity'],
      ],
      [['history']],
    );
    expect(stablePrefixOf(paged, provenance)).toEqual({ systemChars: 'Be brief.'.length, messages: 1 });
    const edited = {
      ...provenance,
      system: provenance.system.filter((block) => block.source.kind !== 'page'),
      edits: [{ target: { in: 'system' as const }, start: 4, end: 5, by: source('callback') }],
    };
    expect(stablePrefixOf(paged, edited).systemChars).toBe(4);
  });

  it('ends the messages before a dynamic instruction, a finalize turn or a hook-written message; a page in the history stays stable', () => {
    expect(
      stablePrefixOf(...pair(request([['S', 'static-instruction']], [['history'], ['instruction'], ['history']]))),
    ).toEqual({ systemChars: 1, messages: 1 });
    expect(stablePrefixOf(...pair(request([['S', 'instruction']], [['history'], ['history'], ['finalize']])))).toEqual({
      systemChars: 1,
      messages: 2,
    });
    expect(stablePrefixOf(...pair(request([['S', 'instruction']], [['history'], ['page'], ['history']])))).toEqual({
      systemChars: 1,
      messages: 3,
    });
    const { request: built, provenance } = request([['S', 'instruction']], [['history'], ['history']]);
    expect(
      stablePrefixOf(built, {
        ...provenance,
        edits: [{ target: { in: 'part', message: 1, part: 0 }, start: 0, end: 1, by: source('callback') }],
      }).messages,
    ).toBe(1);
  });
});

function pair(value: { request: LlmRequest; provenance: Provenance }): [LlmRequest, Provenance] {
  return [value.request, value.provenance];
}
