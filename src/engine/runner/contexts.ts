import type { MemoryService } from '../../contracts/memory-service.js';
import { UsageError } from '../../contracts/errors/usage-error.js';
import type { Artifact, StoredArtifact } from '../../contracts/artifact.js';
import type {
  CallbackContext,
  SessionArtifacts,
  ToolActions,
  ToolConfirmation,
  ToolContext,
} from '../../contracts/contexts.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { StateOp } from '../../contracts/state-op.js';
import { State } from '../state/state.js';
import type { EmbedResponse, Model } from '../../contracts/model.js';
import type { AgentRun } from './invocation.js';
import type { SavedVersion } from './saved-artifacts.js';

/** A callback or tool context over the live session; its writes collect in `delta`, `ops` and `artifactDelta`. */
export function createCallbackContext(run: AgentRun): {
  context: CallbackContext;
  delta: Record<string, unknown>;
  ops: StateOp[];
  artifactDelta: Record<string, number>;
  saved: SavedVersion[];
} {
  const { invocation, node, branch } = run;
  const delta: Record<string, unknown> = {};
  const ops: StateOp[] = [];
  const artifactDelta: Record<string, number> = {};
  // Every version saved, where artifactDelta keeps the last of each name.
  const saved: SavedVersion[] = [];
  const session = invocation.session;
  const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const store = invocation.settings.artifacts;
  const needStore = () => {
    if (store === undefined) {
      throw new AgentctxError({
        code: 'artifact_store_missing',
        message: 'No artifact store is configured.',
        hint: 'Pass `artifacts` to createRunner.',
      });
    }
    return store;
  };
  const artifacts: SessionArtifacts = {
    load: (name: string, version?: number): Promise<StoredArtifact | undefined> =>
      needStore().load({ ...key, filename: name, version }),
    async save(name: string, artifact: Artifact): Promise<number> {
      const version = await needStore().save({ ...key, filename: name, artifact });
      artifactDelta[name] = version;
      saved.push({ filename: name, version });
      return version;
    },
    list: (): Promise<string[]> => needStore().list(key),
  };
  const context: CallbackContext = {
    agentName: node.name,
    invocationId: invocation.id,
    appName: session.appName,
    userId: session.userId,
    sessionId: session.id,
    branch,
    userContent: invocation.userContent,
    state: new State(session.state, delta, ops),
    artifacts,
    searchMemory: (query) =>
      needMemory(invocation).searchMemory({
        appName: session.appName,
        userId: session.userId,
        query,
        recordEmbedding: embeddingRecorder(run),
      }),
    addSessionToMemory: () =>
      needMemory(invocation).addSessionToMemory(session, { recordEmbedding: embeddingRecorder(run) }),
  };
  return { context, delta, ops, artifactDelta, saved };
}

/**
 * How the memory service's embeddings are recorded when it embeds with a model: as calls of this invocation, for the
 * agent that searched or remembered (operation `embeddings`, priced and traced like a model call).
 */
export function embeddingRecorder(
  run: Pick<AgentRun, 'invocation' | 'node'>,
): (model: Model, texts: readonly string[], purpose: 'query' | 'document') => Promise<EmbedResponse> {
  return (model: Model, texts: readonly string[], purpose: 'query' | 'document') =>
    run.invocation.context.embed(model, texts, { purpose, agent: run.node.name });
}

// ADK's `ValueError('Memory service is not available.')`, as a typed error saying what to pass.
function needMemory(invocation: AgentRun['invocation']): MemoryService {
  const memory = invocation.settings.memory;
  if (memory === undefined)
    throw new UsageError(
      'Memory service is not available.',
      'Pass `memory` to createRunner (createInMemoryMemoryService(), or a store).',
    );
  return memory;
}

/** A tool's context; its `signal` is the invocation's, or the call's own when the call has a time limit. */
export function createToolContext(
  run: AgentRun,
  functionCallId: string | undefined,
  signal: AbortSignal | undefined,
  runAgent: ToolContext['runAgent'],
  toolConfirmation?: ToolConfirmation,
): {
  context: ToolContext;
  delta: Record<string, unknown>;
  ops: StateOp[];
  artifactDelta: Record<string, number>;
  saved: SavedVersion[];
  actions: ToolActions;
} {
  const base = createCallbackContext(run);
  const actions: ToolActions = {};
  const requestConfirmation: ToolContext['requestConfirmation'] = (options = {}) => {
    if (functionCallId === undefined)
      throw new Error('requestConfirmation needs the id of the call being answered; it works only inside a tool');
    actions.requestedConfirmation = {
      hint: options.hint ?? '',
      confirmed: false,
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    };
  };
  return {
    ...base,
    actions,
    context: { ...base.context, functionCallId, actions, signal, runAgent, toolConfirmation, requestConfirmation },
  };
}
