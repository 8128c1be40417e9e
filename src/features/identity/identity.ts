import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';

export const IDENTITY_PROCESSOR = 'identity';

/** ADK's identity sentence: the agent's name, and its description when it has one. Quotes are not escaped, as in ADK. */
export function identityText(name: string, description: string): string {
  const base = `You are an agent. Your internal name is "${name}".`;
  return description === '' ? base : `${base} The description about you is "${description}".`;
}

export const identityProcessor: Processor = defineProcessor({
  name: IDENTITY_PROCESSOR,
  process(draft, context): RequestDraft {
    const { name, description, mode } = context.agent;
    if (mode === 'single_turn') return draft;
    return withSystemBlock(draft, identityText(name, description), {
      kind: 'identity',
      processor: IDENTITY_PROCESSOR,
      agent: name,
      field: description === '' ? 'name' : 'name, description',
    });
  },
});
