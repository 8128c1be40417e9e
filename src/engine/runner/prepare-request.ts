import type { MemoryService } from '../../contracts/memory-service.js';
import type { AssemblyContext } from '../../contracts/agent.js';
import type { Event } from '../../contracts/event.js';
import type { Model } from '../../contracts/model.js';
import type { AssembledRequest } from '../../contracts/provenance.js';
import { assemble, extensionsInEffect } from '../assembly/assemble.js';
import { embeddingRecorder } from './contexts.js';
import { everyHook, hookSources } from './hooks.js';
import type { LlmAgentRun } from './invocation.js';

/**
 * The request for an agent's next model call: assembled from the session as it stands, then handed to the
 * `afterAssembly` hooks (a compaction may change the history there), and built again when one asks for it. Events the
 * hooks appended reach the caller first.
 */
export async function* prepareRequest(run: LlmAgentRun, model: Model): AsyncGenerator<Event, AssembledRequest> {
  const capabilities = {
    preserveFunctionCallIds: model.pairsCallsById === true,
    loadsDeferredTools: model.loadsDeferredTools === true,
  };
  const assembled = await assembleFor(run, capabilities);
  const sources = hookSources(run);
  if (!sources.some((extension) => extension.hooks?.afterAssembly !== undefined)) return assembled;
  const answers = await everyHook(sources, 'afterAssembly', {
    agent: run.node,
    branch: run.branch,
    context: run.invocation.context,
    assembled,
  });
  yield* run.invocation.drain();
  return answers.some((answer) => answer.reassemble) ? assembleFor(run, capabilities) : assembled;
}

// What the model's provider does with a request that assembly adapts to.
type ModelCapabilities = { preserveFunctionCallIds: boolean; loadsDeferredTools: boolean };

function assembleFor(
  run: LlmAgentRun,
  { preserveFunctionCallIds, loadsDeferredTools }: ModelCapabilities,
): Promise<AssembledRequest> {
  const { invocation, node, branch } = run;
  const { settings, session } = invocation;
  const agent = node.definition;
  const context: AssemblyContext = {
    tree: settings.tree,
    node,
    agent,
    appName: session.appName,
    userId: session.userId,
    sessionId: session.id,
    invocationId: invocation.id,
    branch,
    userContent: invocation.userContent,
    events: session.events,
    state: session.state,
    artifacts: invocation.artifactTexts,
    ...(settings.memory === undefined
      ? {}
      : {
          searchMemory: (query: string) =>
            (settings.memory as MemoryService).searchMemory({
              appName: session.appName,
              userId: session.userId,
              query,
              recordEmbedding: embeddingRecorder(run),
            }),
        }),
    extensions: extensionsInEffect(settings.plugins, agent),
    profile: settings.profile,
    preserveFunctionCallIds,
    ...(loadsDeferredTools ? { loadsDeferredTools } : {}),
    memo: invocation.memo,
  };
  return assemble(context, settings.pipeline ?? agent.pipeline ?? settings.defaultPipeline);
}
