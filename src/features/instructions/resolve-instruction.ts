import type { Instruction, AssemblyContext } from '../../contracts/agent.js';
import type { SourceSubstitution } from '../../contracts/source.js';
import { renderTemplate } from '../templating/inject-state.js';
import { readonlyContext, templateOptions } from './readonly-context.js';

export type ResolvedInstruction = {
  text: string;
  substitutions: SourceSubstitution[];
  /** Came from a provider, so it was not templated. */
  provided: boolean;
};

/** A string instruction with its placeholders filled, or a provider's output as returned (ADK's bypass rule). */
export async function resolveInstruction(
  instruction: Instruction,
  context: AssemblyContext,
): Promise<ResolvedInstruction> {
  if (typeof instruction === 'function') {
    const text = await instruction(readonlyContext(context));
    if (typeof text !== 'string') {
      throw new TypeError(`the instruction provider returned ${text === null ? 'null' : typeof text}, not a string`);
    }
    return { text, substitutions: [], provided: true };
  }
  const rendered = await renderTemplate(instruction, templateOptions(context));
  const substitutions = rendered.substitutions.map(
    ({ placeholder, start, end, source }): SourceSubstitution =>
      source.kind === 'state'
        ? { placeholder, start, end, kind: 'state', key: source.key, scope: source.scope, present: source.present }
        : { placeholder, start, end, kind: 'artifact', name: source.name, present: source.present },
  );
  return { text: rendered.text, substitutions, provided: false };
}
