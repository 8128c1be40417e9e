import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { withTool } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/assembly/pipeline.js';
import { toolDeclaration } from '../../engine/tools/tool.js';

export const TOOLS_PROCESSOR = 'tools';

/**
 * The agent's own tools, in declaration order, then those of the extensions in effect (plugins', then the agent's),
 * after every other processor (as ADK adds them); each with what the runner calls for it. A tool whose `isAvailable`
 * says no for this state is left out.
 */
export const toolDeclarationsProcessor: Processor = defineProcessor({
  name: TOOLS_PROCESSOR,
  process(draft, context): RequestDraft {
    let next = draft;
    const agent = context.agent.name;
    context.agent.tools.forEach((tool, index) => {
      if (tool.isAvailable?.(context.state) === false) return;
      next = withTool(next, toolDeclaration(tool), { kind: 'tool', processor: TOOLS_PROCESSOR, agent, field: `tools[${index}]` }, tool);
    });
    for (const extension of context.extensions) {
      (extension.tools ?? []).forEach((tool, index) => {
        if (tool.isAvailable?.(context.state) === false) return;
        next = withTool(next, toolDeclaration(tool), { kind: 'tool', processor: TOOLS_PROCESSOR, agent, extension: extension.name, field: `${extension.name}.tools[${index}]` }, tool);
      });
    }
    return next;
  },
});
