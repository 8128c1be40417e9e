import type { Processor } from '../../contracts/agent.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';

/** Identity helper that gives a processor object its type. */
export function defineProcessor(processor: Processor): Processor {
  return processor;
}

export type ProcessorPosition = { before: string } | { after: string };

/** A pipeline with `processor` added before or after the named one. */
export function insertProcessor(
  pipeline: readonly Processor[],
  position: ProcessorPosition,
  processor: Processor,
): Processor[] {
  const anchor = 'before' in position ? position.before : position.after;
  const index = indexOf(pipeline, anchor);
  const at = 'before' in position ? index : index + 1;
  return [...pipeline.slice(0, at), processor, ...pipeline.slice(at)];
}

/** A pipeline with the named processor swapped for another. */
export function replaceProcessor(pipeline: readonly Processor[], name: string, processor: Processor): Processor[] {
  const index = indexOf(pipeline, name);
  return [...pipeline.slice(0, index), processor, ...pipeline.slice(index + 1)];
}

/** A pipeline without the named processor. */
export function removeProcessor(pipeline: readonly Processor[], name: string): Processor[] {
  const index = indexOf(pipeline, name);
  return [...pipeline.slice(0, index), ...pipeline.slice(index + 1)];
}

/** Throws unless every processor has a distinct, non-empty name. */
export function checkPipeline(pipeline: readonly Processor[]): void {
  const seen = new Set<string>();
  pipeline.forEach((processor, index) => {
    if (typeof processor.name !== 'string' || processor.name === '' || typeof processor.process !== 'function') {
      throw new ValidationError({
        subject: 'pipeline',
        issues: [{ path: `[${index}]`, message: 'a processor needs a name and a process function' }],
      });
    }
    if (seen.has(processor.name)) {
      throw new ValidationError({
        subject: 'pipeline',
        issues: [{ path: `[${index}]`, message: `two processors are named '${processor.name}'` }],
      });
    }
    seen.add(processor.name);
  });
}

function indexOf(pipeline: readonly Processor[], name: string): number {
  const index = pipeline.findIndex((processor) => processor.name === name);
  if (index === -1) {
    throw new ValidationError({
      subject: 'pipeline',
      issues: [{ path: name, message: 'no processor of that name' }],
      hint: `The pipeline has: ${pipeline.map((processor) => processor.name).join(', ')}.`,
    });
  }
  return index;
}
