import { withTool, type RequestDraft } from '../request/draft.js';
import { defineProcessor, type Processor } from '../request/processor.js';
import { toolDeclaration } from '../tools/tool.js';

export const TOOLS_PROCESSOR = 'tools';

/** The agent's own tools, in declaration order, after every other processor (as ADK adds them). */
export const toolDeclarationsProcessor: Processor = defineProcessor({
  name: TOOLS_PROCESSOR,
  process(draft, context): RequestDraft {
    let next = draft;
    context.agent.tools.forEach((tool, index) => {
      if (tool.isAvailable?.(context.state) === false) return;
      next = withTool(next, toolDeclaration(tool), { kind: 'tool', processor: TOOLS_PROCESSOR, agent: context.agent.name, field: `tools[${index}]` });
    });
    return next;
  },
});
