import type { TokenBasedContextCompactor } from '../compaction/compaction-config.js';
import type { MemoryEntry, SkillEntry } from '../context/agent-context.js';
import type { Processor } from '../request/processor.js';
import type { RequestConfig } from '../request/request.js';
import type { Content, Part } from '../session/content.js';
import type { Tool } from '../tools/tool.js';
import type { AgentCallbacks } from './callbacks.js';
import type { ReadonlyContext } from './readonly-context.js';

/** Builds an instruction at request time; its output is used exactly as returned, without templating. */
export type InstructionProvider = (context: ReadonlyContext) => string | Promise<string>;

/** A template string (its `{placeholders}` are filled from state) or a provider. */
export type Instruction = string | InstructionProvider;

/** Text (and data) that goes into the system text unchanged: never templated, so braces are safe. */
export type StaticInstruction = string | readonly (string | Part)[] | Content;

type AgentBase = {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly AgentDefinition[];
};

/** An agent that talks to a model. */
export type LlmAgentDefinition = AgentBase & {
  readonly kind: 'llm';
  readonly model?: string;
  readonly instruction?: Instruction;
  /** Only the root agent's counts; it goes first in every agent's system text. */
  readonly globalInstruction?: Instruction;
  readonly staticInstruction?: StaticInstruction;
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  /** `none`: the model sees only the current turn, not the history. */
  readonly includeContents: 'default' | 'none';
  readonly tools: readonly Tool[];
  /** State key that receives the agent's final text. */
  readonly outputKey?: string;
  readonly generateConfig?: Omit<RequestConfig, 'model'>;
  readonly callbacks?: AgentCallbacks;
  /**
   * ADK 2.0's agent modes, as far as the request goes: a `single_turn` agent gets no identity sentence; `task` and
   * `single_turn` agents are never transfer targets and get no transfer text. Absent means `chat`.
   */
  readonly mode?: 'chat' | 'task' | 'single_turn';
  /**
   * A sectioned system text (Identity, Tool guidance, Runtime, User preferences), each a template filled like the
   * instruction; used by the `harness` pipeline's `sections` processor.
   */
  readonly sections?: SystemSections;
  /** Skills offered to the agent: listed in the system text, or loaded into the first user message. */
  readonly skills?: readonly SkillEntry[];
  /** Budget in tokens for the Available skills listing; skills beyond it are left out and reported, never silently. */
  readonly skillListingBudget?: number;
  /** Memory files offered to the agent; an `on` file's body goes into the first user message. */
  readonly memory?: readonly MemoryEntry[];
  /** This agent's request pipeline (`harnessPipeline()`, or one of your own); the default one when absent. */
  readonly pipeline?: readonly Processor[];
  /**
   * Token-threshold compaction before each of this agent's model calls, as @google/adk spells it; tried in order, at
   * most one compacts per call. Takes the place of the runner's `eventsCompactionConfig` token trigger for this agent.
   */
  readonly contextCompactors?: readonly TokenBasedContextCompactor[];
};

/** The named parts of a sectioned system text; each a template filled from state, like an instruction. */
export type SystemSections = {
  readonly identity?: Instruction;
  readonly toolGuidance?: Instruction;
  readonly runtime?: Instruction;
  readonly userPreferences?: Instruction;
};

/** An agent that runs its sub-agents in order, at once, or in a loop, without a model of its own. */
export type WorkflowAgentDefinition = AgentBase & {
  readonly kind: 'sequential' | 'parallel' | 'loop';
  /** For `loop`: stop after this many rounds (no limit when absent). */
  readonly maxIterations?: number;
};

export type AgentDefinition = LlmAgentDefinition | WorkflowAgentDefinition;

export function isLlmAgent(definition: AgentDefinition): definition is LlmAgentDefinition {
  return definition.kind === 'llm';
}
