import type { Extension } from '../../contracts/agent.js';
import type { CallbackContext } from '../../contracts/contexts.js';
import type { ModelResponse } from '../../contracts/model.js';
import type { AssembledRequest, Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { reconcileProvenance } from '../assembly/reconcile-provenance.js';
import { cloneRequest } from '../assembly/request-json.js';
import { hasHook, runHook } from './hooks.js';
import type { AgentRun, LlmAgentRun } from './invocation.js';

/** The request as the model will get it, after the `beforeModel` hooks, and the answer one of them gave instead. */
export type BeforeModel = {
  request: LlmRequest;
  /** Where every piece of `request` came from: assembly's sources, and the hooks' for what they wrote. */
  provenance: Provenance;
  edited: boolean;
  response: ModelResponse | undefined;
};

/**
 * Runs the `beforeModel` hooks (the plugins', then the agent's callbacks) in order until one answers. Each may edit
 * the request in place; after each one that did, provenance is brought in line with the edited request, so what it
 * wrote is attributed to it and what it left keeps its source.
 */
export async function runBeforeModel(
  run: LlmAgentRun,
  assembled: AssembledRequest,
  sources: readonly Extension[],
  context: CallbackContext,
): Promise<BeforeModel> {
  const agent = run.node.definition;
  const callbacks = agent.callbacks?.beforeModel;
  if (callbacks === undefined && !hasHook(sources, 'beforeModel'))
    return { request: assembled.request, provenance: assembled.provenance, edited: false, response: undefined };

  const request = cloneRequest(assembled.request);
  let provenance = assembled.provenance;
  let before = cloneRequest(request);
  let beforeJson = JSON.stringify(before);
  let edited = false;
  // Compares the request with what the previous step left, and attributes any difference to this step.
  const settle = (by: Source) => {
    const json = JSON.stringify(request);
    if (json === beforeJson) return;
    edited = true;
    provenance = reconcileProvenance(before, provenance, request, by);
    before = cloneRequest(request);
    beforeJson = json;
  };

  for (const extension of sources) {
    const hook = extension.hooks?.beforeModel;
    if (hook === undefined) continue;
    const answer = await runHook(extension, 'beforeModel', () =>
      hook.call(extension.hooks, { agent: run.node, context, request }),
    );
    settle(hookSource(run, extension.name));
    if (answer !== undefined && answer !== null) return { request, provenance, edited, response: answer };
  }
  const list = callbacks === undefined ? [] : typeof callbacks === 'function' ? [callbacks] : callbacks;
  for (const [position, callback] of list.entries()) {
    const answer = await callback({ context, request });
    settle(callbackSource(run, list.length === 1 ? undefined : position));
    if (answer !== undefined && answer !== null) return { request, provenance, edited, response: answer };
  }
  return { request, provenance, edited, response: undefined };
}

function hookSource(run: AgentRun, extension: string): Source {
  return {
    kind: 'callback',
    processor: 'beforeModel',
    extension,
    agent: run.node.name,
    note: `beforeModel hook of ${extension}`,
  };
}

function callbackSource(run: AgentRun, position: number | undefined): Source {
  const field = position === undefined ? 'callbacks.beforeModel' : `callbacks.beforeModel[${position}]`;
  return { kind: 'callback', processor: 'beforeModel', agent: run.node.name, field, note: 'beforeModel callback' };
}
