import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { Source } from '../../contracts/source.js';
import { isLlmAgent } from '../../engine/agent/agent-tree.js';
import { draftMessage, withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { resolveInstruction } from './resolve-instruction.js';
import { appendStaticInstruction, hasStaticInstruction } from './static-instruction.js';

export const INSTRUCTIONS_PROCESSOR = 'instructions';

/**
 * The root's global instruction, then the static instruction or the instruction (ADK's `instructions` processor).
 * With a static instruction, the instruction moves into the messages as a user turn, placed by `contents`.
 */
export const instructionsProcessor: Processor = defineProcessor({
  name: INSTRUCTIONS_PROCESSOR,
  async process(draft, context): Promise<RequestDraft> {
    const root = context.tree.root.definition;
    const source = (kind: Source['kind'], agent: string, field: string): Source => ({
      kind,
      processor: INSTRUCTIONS_PROCESSOR,
      agent,
      field,
    });
    let next = draft;
    if (isLlmAgent(root) && root.globalInstruction !== undefined && root.globalInstruction !== '') {
      const resolved = await resolveInstruction(root.globalInstruction, context);
      next = withSystemBlock(
        next,
        resolved.text,
        withSubstitutions(
          source('global-instruction', root.name, 'globalInstruction'),
          resolved.substitutions,
          resolved.provided,
        ),
      );
    }
    const agent = context.agent;
    const hasStatic = hasStaticInstruction(agent.staticInstruction);
    if (hasStatic) {
      next = appendStaticInstruction(
        next,
        agent.staticInstruction as NonNullable<typeof agent.staticInstruction>,
        source('static-instruction', agent.name, 'staticInstruction'),
      );
    }
    if (agent.instruction !== undefined && agent.instruction !== '') {
      const resolved = await resolveInstruction(agent.instruction, context);
      const instructionSource = withSubstitutions(
        source('instruction', agent.name, 'instruction'),
        resolved.substitutions,
        resolved.provided,
      );
      next = hasStatic
        ? {
            ...next,
            messages: [
              ...next.messages,
              draftMessage('user', [{ text: resolved.text }], {
                ...instructionSource,
                note: 'dynamic instruction, sent as a user turn because a static instruction is set',
              }),
            ],
          }
        : withSystemBlock(next, resolved.text, instructionSource);
    }
    return next;
  },
});

function withSubstitutions(source: Source, substitutions: Source['substitutions'], provided: boolean): Source {
  const withSubs = substitutions !== undefined && substitutions.length > 0 ? { ...source, substitutions } : source;
  return provided ? { ...withSubs, note: 'from an instruction provider (not templated)' } : withSubs;
}
