import type { Instruction, Plugin, ProcessorPlacement, AssemblyContext } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { Source } from '../../contracts/source.js';
import { withLeadingSystemBlock } from '../../engine/assembly/draft.js';
import { resolveInstruction } from '../instructions/resolve-instruction.js';

/**
 * ADK's replacement for the deprecated `globalInstruction` field: a plugin that puts one instruction first in the
 * system text of every agent's every request. A string is filled from state like an instruction; a provider's output
 * is used as it is; an empty result changes nothing. As in ADK, it goes in front after every processor has run (so
 * before the agents' `beforeModel` callbacks see the request), followed by a blank line when the system text has any.
 *
 * @example
 * createRunner({ agents, plugins: [new GlobalInstructionPlugin('Answer in {user:language}.')] });
 */
export class GlobalInstructionPlugin implements Plugin {
  readonly name: string;
  readonly globalInstruction: Instruction;
  readonly processors: readonly ProcessorPlacement[];

  constructor(globalInstruction: Instruction = '', name = 'global_instruction') {
    this.name = name;
    this.globalInstruction = globalInstruction;
    const instruction = globalInstruction;
    this.processors = Object.freeze([
      {
        at: 'end' as const,
        processor: {
          name,
          process: (draft: RequestDraft, context: AssemblyContext) => prepend(draft, context, instruction, name),
        },
      },
    ]);
  }
}

async function prepend(
  draft: RequestDraft,
  context: AssemblyContext,
  instruction: Instruction,
  name: string,
): Promise<RequestDraft> {
  if (instruction === '') return draft;
  const resolved = await resolveInstruction(instruction, context);
  if (resolved.text === '') return draft;
  const source: Source = {
    kind: 'global-instruction',
    processor: name,
    agent: context.agent.name,
    field: 'globalInstruction',
    ...(resolved.substitutions.length === 0 ? {} : { substitutions: resolved.substitutions }),
    note: resolved.provided
      ? `GlobalInstructionPlugin '${name}', from an instruction provider (not templated)`
      : `GlobalInstructionPlugin '${name}'`,
  };
  return withLeadingSystemBlock(draft, resolved.text, source);
}
