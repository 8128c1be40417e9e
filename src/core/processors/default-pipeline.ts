import type { Processor } from '../request/processor.js';
import { agentTransferProcessor } from './agent-transfer.js';
import { contentsProcessor } from './contents.js';
import { finalizeProcessor } from './finalize.js';
import { identityProcessor } from './identity.js';
import { instructionsProcessor } from './instructions.js';
import { toolDeclarationsProcessor } from './tool-declarations.js';

/**
 * ADK Python's order for an LLM agent: instructions, identity, contents, agent transfer (last of AutoFlow),
 * then the agent's tools, then the model layer's last-turn rule.
 */
export function defaultPipeline(): Processor[] {
  return [instructionsProcessor, identityProcessor, contentsProcessor, agentTransferProcessor, toolDeclarationsProcessor, finalizeProcessor];
}
