import type { Processor } from '../contracts/agent.js';
import { contentsProcessor } from '../features/contents/contents-processor.js';
import { finalizeProcessor } from '../features/contents/finalize.js';
import { contextBlocksProcessor } from '../features/context-blocks/context-blocks.js';
import { identityProcessor } from '../features/identity/identity.js';
import { instructionsProcessor } from '../features/instructions/instructions.js';
import { outputSchemaProcessor } from '../features/output-schema/output-schema.js';
import { sectionsProcessor } from '../features/sections/sections.js';
import { skillsListingProcessor } from '../features/skills/skills-listing.js';
import { toolDeclarationsProcessor } from '../features/tools/tool-declarations.js';
import { agentTransferProcessor } from '../features/transfer/agent-transfer.js';

/**
 * ADK Python's order for an LLM agent: instructions, identity, contents, the output schema, agent transfer (last of
 * AutoFlow), then the agent's tools, then the model layer's last-turn rule. Skills and memory fit in without changing any of it: the
 * Available skills section after the identity, loaded bodies and memory at the start of the history; for an agent
 * without skills or memory both add nothing, so the request stays byte for byte ADK's.
 */
export function defaultPipeline(): Processor[] {
  return [
    instructionsProcessor,
    identityProcessor,
    skillsListingProcessor,
    contentsProcessor,
    contextBlocksProcessor,
    outputSchemaProcessor,
    agentTransferProcessor,
    toolDeclarationsProcessor,
    finalizeProcessor,
  ];
}

/**
 * A harness's request: a sectioned system text (Identity, Tool guidance, Runtime, User preferences, then Available
 * skills), the tools apart from it, and the history with loaded skills and memory at its start. No ADK identity or
 * transfer text.
 */
export function harnessPipeline(): Processor[] {
  return [
    sectionsProcessor,
    skillsListingProcessor,
    contentsProcessor,
    contextBlocksProcessor,
    outputSchemaProcessor,
    toolDeclarationsProcessor,
    finalizeProcessor,
  ];
}

/**
 * The names of the built-in processors, to place processors of your own against (`before: PROCESSOR_NAMES.tools`)
 * or to read them in a request's trace.
 */
export const PROCESSOR_NAMES: Readonly<{
  instructions: string;
  identity: string;
  skillsListing: string;
  contents: string;
  contextBlocks: string;
  outputSchema: string;
  agentTransfer: string;
  tools: string;
  finalize: string;
  sections: string;
}> = Object.freeze({
  instructions: instructionsProcessor.name,
  identity: identityProcessor.name,
  skillsListing: skillsListingProcessor.name,
  contents: contentsProcessor.name,
  contextBlocks: contextBlocksProcessor.name,
  outputSchema: outputSchemaProcessor.name,
  agentTransfer: agentTransferProcessor.name,
  tools: toolDeclarationsProcessor.name,
  finalize: finalizeProcessor.name,
  sections: sectionsProcessor.name,
});

/** The default pipeline, made once: a runner or assembly that names none runs this one. */
export const DEFAULT_PIPELINE: readonly Processor[] = Object.freeze(defaultPipeline());
