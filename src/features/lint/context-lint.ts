import type { AgentNode, AgentTree, LlmAgentDefinition } from '../../contracts/agent.js';
import { isLlmAgent } from '../../engine/agent/agent-tree.js';
import { hasStaticInstruction } from '../instructions/static-instruction.js';
import { checkTemplate } from '../templating/check-template.js';
import { transferTargets } from '../transfer/agent-transfer.js';

// A context lint: don't write what the framework writes anyway (identity, the transfer
// list), don't let braces meant literally become placeholders, and write descriptions for the three places that
// read them (the agent's identity, its parent's transfer list, an agent tool's description). And keep values that
// change from call to call out of the system text, which leads the prefix a provider caches.

export type ContextWarningRule =
  | 'self-introduction'
  | 'transfer-list'
  | 'literal-braces'
  | 'description-missing'
  | 'description-instruction-like'
  | 'volatile-in-prefix';

export type ContextWarning = {
  rule: ContextWarningRule;
  agent: string;
  field: 'instruction' | 'globalInstruction' | 'description';
  /** The text the warning is about, as written. */
  text: string;
  message: string;
  fix: string;
};

export type LintOptions = {
  /** State the templates will be filled from; when given, placeholders are checked against it elsewhere, not guessed at here. */
  state?: Readonly<Record<string, unknown>> | undefined;
  /** `\{` and `\}` are literal braces in these templates. */
  escapes?: boolean | undefined;
};

const INTRODUCTION =
  /\b(you are|you're|your (?:internal )?name is|i am|i'm|act as|acting as|known as)\b|あなたは|名前は|私は/i;
const IMPERATIVE =
  /^(?:you\b|always\b|never\b|do not\b|don't\b|must\b|please\b|make sure\b)|\b(?:you must|you should|you will)\b/i;

/** Warnings for every agent of the tree and every agent offered as a tool; none for a tree that needs none. */
export function lintAgentTree(tree: AgentTree, options: LintOptions = {}): ContextWarning[] {
  const warnings: ContextWarning[] = [];
  const written = new Set(
    tree.nodes.flatMap((node) =>
      isLlmAgent(node.definition) && node.definition.outputKey !== undefined ? [node.definition.outputKey] : [],
    ),
  );
  // Agents some LLM agent may transfer to: their descriptions are in that agent's transfer text.
  const targets = new Set(
    tree.nodes.flatMap((node) =>
      isLlmAgent(node.definition) ? transferTargets(node).map((target) => target.name) : [],
    ),
  );
  for (const node of tree.nodes) {
    const agent = node.definition;
    if (targets.has(node.name))
      lintDescription(warnings, agent.name, agent.description, 'a transfer target of other agents');
    if (!isLlmAgent(agent)) continue;
    for (const tool of agent.tools ?? []) {
      if (tool.agent !== undefined)
        lintDescription(warnings, tool.agent.name, tool.description, `an agent tool of ${agent.name}`);
    }
    // A custom pipeline (the harness preset among others) writes no ADK identity or transfer text.
    const adkText = agent.pipeline === undefined;
    if (typeof agent.instruction === 'string') {
      if (adkText) {
        lintIntroduction(warnings, node, agent.instruction);
        lintTransferList(warnings, node, agent.instruction);
      }
      if (options.state === undefined) lintBraces(warnings, agent, 'instruction', agent.instruction, written, options);
    }
    if (typeof agent.globalInstruction === 'string' && options.state === undefined)
      lintBraces(warnings, agent, 'globalInstruction', agent.globalInstruction, written, options);
    lintVolatilePrefix(warnings, agent, options);
  }
  return warnings;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s*|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\w])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`, 'i').test(text);
}

function lintIntroduction(warnings: ContextWarning[], node: AgentNode, instruction: string): void {
  for (const sentence of sentences(instruction)) {
    if (!INTRODUCTION.test(sentence) || !mentions(sentence, node.name)) continue;
    warnings.push({
      rule: 'self-introduction',
      agent: node.name,
      field: 'instruction',
      text: sentence,
      message: `introduces the agent by its name, which the identity text already does ("You are an agent. Your internal name is "${node.name}"."${node.definition.description ? ', with its description' : ''})`,
      fix: 'Leave the introduction out; keep the instruction for how to behave. To change how the agent sees itself, change its description.',
    });
  }
}

function lintTransferList(warnings: ContextWarning[], node: AgentNode, instruction: string): void {
  const targets = transferTargets(node).map((target) => target.name);
  const named = targets.filter((name) => mentions(instruction, name));
  const explainsTool = instruction.includes('transfer_to_agent');
  if (named.length < 2 && !explainsTool) return;
  warnings.push({
    rule: 'transfer-list',
    agent: node.name,
    field: 'instruction',
    text: named.length >= 2 ? named.join(', ') : 'transfer_to_agent',
    message:
      named.length >= 2
        ? `lists ${named.length} of its ${targets.length} transfer targets by hand; the transfer text already lists every target with its description, and how to call transfer_to_agent`
        : 'explains transfer_to_agent, which the transfer text already explains',
    fix: 'Keep only when to hand over (e.g. "hand billing questions on once the order number is known"); describe each target in its own description.',
  });
}

function lintBraces(
  warnings: ContextWarning[],
  agent: LlmAgentDefinition,
  field: 'instruction' | 'globalInstruction',
  template: string,
  written: ReadonlySet<string>,
  options: LintOptions,
): void {
  for (const placeholder of checkTemplate(template, { escapes: options.escapes === true }).placeholders) {
    if (
      placeholder.kind !== 'state' ||
      placeholder.optional ||
      placeholder.scope !== 'session' ||
      written.has(placeholder.key)
    )
      continue;
    warnings.push({
      rule: 'literal-braces',
      agent: agent.name,
      field,
      text: placeholder.text,
      message: `will be filled from the state key '${placeholder.key}', which nothing in this file writes (no outputKey); when it is not set, the call fails`,
      fix: `If the braces are meant literally (an example of the output), move that text to staticInstruction, which is never templated, or turn on escapes and write \\{${placeholder.key}\\}. If it is state, write it before the agent runs (--state, an outputKey, a tool) or make it optional: {${placeholder.key}?}.`,
    });
  }
}

function lintDescription(
  warnings: ContextWarning[],
  agent: string,
  description: string | undefined,
  role: string,
): void {
  if (description === undefined || description.trim() === '') {
    warnings.push({
      rule: 'description-missing',
      agent,
      field: 'description',
      text: '',
      message: `has no description, yet it is ${role}: the agents that may hand work to it read only its name`,
      fix: 'Say in one sentence what it does, for the agents choosing it ("Answers billing questions.").',
    });
  } else if (IMPERATIVE.test(description.trim())) {
    warnings.push({
      rule: 'description-instruction-like',
      agent,
      field: 'description',
      text: description,
      message: `reads like an instruction, yet it is what other agents read to choose it (${role}), and it is in its own identity text`,
      fix: 'Say what the agent does ("Answers billing questions."); put rules for its behaviour in its instruction.',
    });
  }
}

/**
 * How a state key's name says its value changes from call to call. The name is split into segments at `_`, `-`, `.`,
 * `:` and camelCase (`app:`/`user:`/`temp:` first taken off). A key is volatile when a segment is in
 * `VOLATILE_KEY_SEGMENTS` (`now`, `timestamp`, `uuid`, `nonce`, `counter`, …); when a clock word (`time`, `date`,
 * `datetime`) stands alone or beside a word that makes it the present (`current_time`, `local_date`, `utc_time`) —
 * `delivery_date` or `time_zone` are not clocks; or when two neighbouring segments are a per-request id
 * (`request_id`, `trace_id`, `requestId`). Any `temp:` key is volatile too: it is set anew in every invocation.
 */
export const VOLATILE_KEY_SEGMENTS: readonly string[] = [
  'now',
  'today',
  'timestamp',
  'ts',
  'clock',
  'epoch',
  'elapsed',
  'random',
  'rand',
  'uuid',
  'guid',
  'nonce',
  'counter',
  'seq',
  'sequence',
  'tick',
];
const CLOCK_WORDS: readonly string[] = ['time', 'date', 'datetime'];
const PRESENT_WORDS: readonly string[] = [
  'current',
  'curr',
  'cur',
  'local',
  'utc',
  'system',
  'server',
  'request',
  'call',
  'run',
  'invocation',
];
const PER_REQUEST: readonly string[] = ['request', 'req', 'trace', 'span', 'correlation', 'call', 'invocation'];

/** Why a state key looks volatile (see `VOLATILE_KEY_SEGMENTS`), or undefined when its name does not say so. */
export function volatileKeyReason(key: string): string | undefined {
  if (key.startsWith('temp:')) return 'a temp: key, set anew in every invocation';
  const segments = key
    .replace(/^(app|user):/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((segment) => segment !== '');
  const says = (words: string) => `its name says '${words}', a value that changes from call to call`;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as string;
    const next = segments[index + 1];
    if (VOLATILE_KEY_SEGMENTS.includes(segment)) return says(segment);
    if (
      CLOCK_WORDS.includes(segment) &&
      (segments.length === 1 || segments.some((other) => PRESENT_WORDS.includes(other)))
    )
      return says(segments.join('_'));
    if (PER_REQUEST.includes(segment) && next === 'id') return says(`${segment} id`);
  }
  return undefined;
}

// The system text leads the prefix a provider caches (after the tools): a value there that changes between calls
// makes every call after the change pay in full for all that follows it. A static instruction moves the instruction
// out of the system text (into a user turn after the history, as ADK does); the global instruction stays in it.
function lintVolatilePrefix(warnings: ContextWarning[], agent: LlmAgentDefinition, options: LintOptions): void {
  if (agent.pipeline !== undefined && !agent.pipeline.some((step) => step.name === 'instructions')) return;
  const moved = hasStaticInstruction(agent.staticInstruction);
  const fields: ['instruction' | 'globalInstruction', LlmAgentDefinition['instruction']][] = [
    ['globalInstruction', agent.globalInstruction],
  ];
  if (!moved) fields.unshift(['instruction', agent.instruction]);
  for (const [field, value] of fields) {
    if (value === undefined || value === '') continue;
    const fix =
      field === 'instruction'
        ? 'Set a staticInstruction with the text that never changes and keep this value in instruction: agentctx then sends the instruction after the cacheable prefix (as ADK does). Or read it from a state key that does not change per call.'
        : "Move the value into the agent's instruction and set a staticInstruction, so it is sent after the cacheable prefix; keep the global instruction constant. Or read it from a state key that does not change per call.";
    if (typeof value === 'function') {
      warnings.push({
        rule: 'volatile-in-prefix',
        agent: agent.name,
        field,
        text: '',
        message: `is an instruction provider: its text is computed for every call and sits in the system text, at the start of the cacheable prefix, so whenever it differs from the last call's, everything after it is billed again in full`,
        fix,
      });
      continue;
    }
    for (const placeholder of checkTemplate(value, { escapes: options.escapes === true }).placeholders) {
      if (placeholder.kind !== 'state') continue;
      const reason = volatileKeyReason(placeholder.key);
      if (reason === undefined) continue;
      warnings.push({
        rule: 'volatile-in-prefix',
        agent: agent.name,
        field,
        text: placeholder.text,
        message: `puts the state key '${placeholder.key}' in the system text, at the start of the cacheable prefix (${reason}): each call that sees a new value pays again in full for all of the prompt after it`,
        fix,
      });
    }
  }
}
