import type { Extension, ProcessorPlacement, Processor } from '../../contracts/agent.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { checkPipeline } from '../pipeline/pipeline.js';

/** A processor of the pipeline an assembly runs, with the extension that placed it there (none for the pipeline's own). */
export type PlacedProcessor = { readonly processor: Processor; readonly extension: string | undefined };

const unplaced = new WeakMap<readonly Processor[], PlacedProcessor[]>();

/**
 * The pipeline with the processors of each extension placed, extension by extension, in order. Names stay unique
 * (an extension's processor may not share a name with another); an anchor that is not there is an error naming it.
 */
export function placeProcessors(
  pipeline: readonly Processor[],
  extensions: readonly Extension[],
): readonly PlacedProcessor[] {
  if (!extensions.some((extension) => (extension.processors?.length ?? 0) > 0)) {
    let placed = unplaced.get(pipeline);
    if (placed === undefined) {
      checkPipeline(pipeline);
      unplaced.set(pipeline, (placed = pipeline.map((processor) => ({ processor, extension: undefined }))));
    }
    return placed;
  }
  let placed: PlacedProcessor[] = pipeline.map((processor) => ({ processor, extension: undefined }));
  for (const extension of extensions) {
    for (const placement of extension.processors ?? []) placed = place(placed, extension.name, placement);
  }
  checkPipeline(placed.map((entry) => entry.processor));
  return placed;
}

function place(pipeline: PlacedProcessor[], extension: string, placement: ProcessorPlacement): PlacedProcessor[] {
  const entry = { processor: placement.processor, extension };
  if ('at' in placement) return placement.at === 'start' ? [entry, ...pipeline] : [...pipeline, entry];
  const before = 'before' in placement;
  const anchors =
    typeof (before ? placement.before : placement.after) === 'string'
      ? [(before ? placement.before : placement.after) as string]
      : ((before ? placement.before : placement.after) as readonly string[]);
  for (const anchor of anchors) {
    const index = pipeline.findIndex((candidate) => candidate.processor.name === anchor);
    if (index === -1) continue;
    const at = before ? index : index + 1;
    return [...pipeline.slice(0, at), entry, ...pipeline.slice(at)];
  }
  throw new ValidationError({
    subject: `extension '${extension}'`,
    issues: [
      {
        path: `processors.${placement.processor.name}`,
        message: `goes ${before ? 'before' : 'after'} ${anchors.map((anchor) => `'${anchor}'`).join(' or ')}, which the pipeline does not have`,
      },
    ],
    hint: `The pipeline has: ${pipeline.map((candidate) => candidate.processor.name).join(', ')}.`,
  });
}
