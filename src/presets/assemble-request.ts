import type { AssembledRequest } from '../contracts/provenance.js';
import { assembleWithFallback, type AssembleOptions } from '../engine/assembly/assemble.js';
import { DEFAULT_PIPELINE } from './pipelines.js';

/**
 * Builds the exact request a model call receives, and where every part of it came from, by running the pipeline's
 * processors in order (the options' pipeline, else the agent's, else `defaultPipeline()`), with the processors of the
 * agent's extensions and the plugins placed in it. Deterministic: the same definitions and session give a
 * byte-identical request. The request shares unchanged parts with the events; use `cloneRequest` before editing it.
 */
export function assembleRequest(options: AssembleOptions): Promise<AssembledRequest> {
  return assembleWithFallback(options, () => DEFAULT_PIPELINE);
}
