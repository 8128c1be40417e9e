import type { AssembledRequest } from '../contracts/provenance.js';
import { modelLoadsDeferredTools, modelPairsCallsById } from '../models/registry/model-string.js';
import { assembleCase, type CaseFile } from '../presets/case-file.js';

/** A case's request as the runner would send it to the agent's model: call ids kept where that provider pairs by id, deferred tools held back where it loads them itself. */
export function assembleCaseForModel(caseFile: CaseFile): Promise<AssembledRequest> {
  return assembleCase(caseFile, { pairsCallsById: modelPairsCallsById, loadsDeferredTools: modelLoadsDeferredTools });
}
