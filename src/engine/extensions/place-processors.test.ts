import { describe, expect, it } from 'vitest';
import type { Extension, Processor } from '../../contracts/agent.js';
import { placeProcessors } from './place-processors.js';

const step = (name: string): Processor => ({ name, process: (draft) => draft });
const names = (placed: ReturnType<typeof placeProcessors>) =>
  placed.map((entry) => `${entry.processor.name}${entry.extension === undefined ? '' : `@${entry.extension}`}`);

describe('placeProcessors', () => {
  const pipeline = [step('instructions'), step('identity'), step('contents'), step('finalize')];

  it('leaves a pipeline without extension processors as it is', () => {
    expect(names(placeProcessors(pipeline, [{ name: 'settings-only' }]))).toEqual([
      'instructions',
      'identity',
      'contents',
      'finalize',
    ]);
  });

  it('places each extension’s processors before or after an anchor (the first one present), or at the start or end', () => {
    const extensions: Extension[] = [
      {
        name: 'a',
        processors: [
          { processor: step('a1'), after: ['sections', 'instructions'] },
          { processor: step('a2'), at: 'end' },
        ],
      },
      {
        name: 'b',
        processors: [
          { processor: step('b1'), before: 'contents' },
          { processor: step('b2'), at: 'start' },
          { processor: step('b3'), after: 'a1' },
        ],
      },
    ];
    expect(names(placeProcessors(pipeline, extensions))).toEqual([
      'b2@b',
      'instructions',
      'a1@a',
      'b3@b',
      'identity',
      'b1@b',
      'contents',
      'finalize',
      'a2@a',
    ]);
  });

  it('refuses an anchor the pipeline does not have, and two processors of one name', () => {
    expect(() =>
      placeProcessors(pipeline, [
        { name: 'lost', processors: [{ processor: step('x'), before: ['nope', 'neither'] }] },
      ]),
    ).toThrow(
      /Invalid extension 'lost': processors\.x: goes before 'nope' or 'neither', which the pipeline does not have/,
    );
    expect(() =>
      placeProcessors(pipeline, [{ name: 'twin', processors: [{ processor: step('identity'), at: 'end' }] }]),
    ).toThrow(/two processors are named 'identity'/);
  });
});
