import type { AgentNode, AgentTree } from '../agent/agent-tree.js';
import type { LlmAgentDefinition } from '../agent/agent.js';
import type { ReadonlyContext } from '../agent/readonly-context.js';
import type { Content } from '../session/content.js';
import type { Event } from '../session/event.js';
import type { ArtifactTextReader } from '../state/template/inject-state.js';
import type { ValueFormat } from '../state/template/value-format.js';
import type { ContentsCache } from '../processors/contents/contents-cache.js';
import type { RequestDraft } from './draft.js';

/** Everything a processor may read while building one request. Nothing in it changes during assembly. */
export type AssemblyContext = {
  readonly tree: AgentTree;
  /** The agent being asked. */
  readonly node: AgentNode;
  readonly agent: LlmAgentDefinition;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly events: readonly Event[];
  /** The merged state, `temp:` keys of the running invocation included. */
  readonly state: Readonly<Record<string, unknown>>;
  readonly artifacts: ArtifactTextReader | undefined;
  readonly branch: string | undefined;
  readonly invocationId: string;
  readonly userContent: Content | undefined;
  /** How values are written into templates and into retold tool calls. */
  readonly valueFormat: ValueFormat;
  readonly escapes: boolean;
  readonly stateAlias: boolean;
  /** Keep `adk-…` function call ids (providers that pair calls by id need them). */
  readonly preserveFunctionCallIds: boolean;
  /** The view instruction providers receive. */
  readonly readonly: ReadonlyContext;
  /** Messages already built from this session's history, reused by `contents` (the runner keeps one per session). */
  readonly contentsCache: ContentsCache | undefined;
  /** Reproduce ADK where agentctx deliberately differs (how compaction summaries are shown); see docs/compaction.md. */
  readonly adkCompatibility: boolean;
};

/**
 * One named step of request assembly. It returns a new draft (adding system blocks, messages or tools, each with
 * its source) and must not change the draft it was given; errors it throws are reported with its name and the agent.
 */
export type Processor = {
  readonly name: string;
  process(draft: RequestDraft, context: AssemblyContext): RequestDraft | Promise<RequestDraft>;
};

/** Identity helper that gives a processor object its type. */
export function defineProcessor(processor: Processor): Processor {
  return processor;
}
