import type { Extension } from '../../contracts/agent.js';
import type { Part } from '../../contracts/content.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { ModelResponse } from '../../contracts/model.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { OUTPUT_SCHEMA_PROCESSOR } from '../output-schema/output-schema.js';
import { AGENT_TRANSFER_PROCESSOR } from '../transfer/agent-transfer.js';
import { TOOLS_PROCESSOR } from '../tools/tool-declarations.js';

// ADK's PlanReActPlanner (planners/plan_re_act_planner.py and flows/llm_flows/_nl_planning.py at 2.5.0): the model is
// asked to plan, act and reason under tags, and its answer is split into thoughts (the plan, the reasoning) and the
// final answer. The instruction is ADK's, byte for byte, so a request carries what ADK's would.

export const PLANNING_TAG = '/*PLANNING*/';
export const REPLANNING_TAG = '/*REPLANNING*/';
export const REASONING_TAG = '/*REASONING*/';
export const ACTION_TAG = '/*ACTION*/';
export const FINAL_ANSWER_TAG = '/*FINAL_ANSWER*/';

export const PLANNER = 'planner';

/** ADK's planning instruction: its six paragraphs joined by a blank line, each starting and ending with a line break. */
export const PLAN_RE_ACT_INSTRUCTION: string = [
  `
When answering the question, try to leverage the available tools to gather the information instead of your memorized knowledge.

Follow this process when answering the question: (1) first come up with a plan in natural language text format; (2) Then use tools to execute the plan and provide reasoning between tool code snippets to make a summary of current state and next step. Tool code snippets and reasoning should be interleaved with each other. (3) In the end, return one final answer.

Follow this format when answering the question: (1) The planning part should be under ${PLANNING_TAG}. (2) The tool code snippets should be under ${ACTION_TAG}, and the reasoning parts should be under ${REASONING_TAG}. (3) The final answer part should be under ${FINAL_ANSWER_TAG}.
`,
  `
Below are the requirements for the planning:
The plan is made to answer the user query if following the plan. The plan is coherent and covers all aspects of information from user query, and only involves the tools that are accessible by the agent. The plan contains the decomposed steps as a numbered list where each step should use one or multiple available tools. By reading the plan, you can intuitively know which tools to trigger or what actions to take.
If the initial plan cannot be successfully executed, you should learn from previous execution results and revise your plan. The revised plan should be under ${REPLANNING_TAG}. Then use tools to follow the new plan.
`,
  `
Below are the requirements for the reasoning:
The reasoning makes a summary of the current trajectory based on the user query and tool outputs. Based on the tool outputs and plan, the reasoning also comes up with instructions to the next steps, making the trajectory closer to the final answer.
`,
  `
Below are the requirements for the final answer:
The final answer should be precise and follow query formatting requirements. Some queries may not be answerable with the available tools and information. In those cases, inform the user why you cannot process their query and ask for more information.
`,
  `
Below are the requirements for the tool code:

**Custom Tools:** The available tools are described in the context and can be directly used.
- Code must be valid self-contained Python snippets with no imports and no references to tools or Python libraries that are not in the context.
- You cannot use any parameters or fields that are not explicitly defined in the APIs in the context.
- The code snippets should be readable, efficient, and directly relevant to the user query and reasoning steps.
- When using the tools, you should use the library name together with the function name, e.g., vertex_search.search().
- If Python libraries are not provided in the context, NEVER write your own code other than the function calls using the provided tools.
`,
  `
VERY IMPORTANT instruction that you MUST follow in addition to the above instructions:

You should ask for clarification if you need more information to answer the question.
You should prefer using the information available in the context instead of repeated tool use.
`,
].join('\n\n');

/**
 * ADK's `PlanReActPlanner` for an agent: its planning instruction after the identity and history steps (before the
 * output schema's and the transfer text, where ADK's request processors put it), earlier turns' thoughts sent as plain text (ADK clears the
 * flag), and each answer split as ADK splits it — the plan and the reasoning marked as thoughts, the text after the
 * last `/*FINAL_ANSWER*\/` as the answer, and nothing after the first group of function calls.
 */
export function planReActPlanner(): Extension {
  const processor = defineProcessor({
    name: PLANNER,
    process(draft, context): RequestDraft {
      const planned = withSystemBlock(draft, PLAN_RE_ACT_INSTRUCTION, {
        kind: 'custom',
        processor: PLANNER,
        extension: PLANNER,
        agent: context.agent.name,
        note: "ADK's PlanReActPlanner instruction",
      });
      return {
        ...planned,
        messages: planned.messages.map((entry) =>
          entry.message.content.some((part) => 'thought' in part)
            ? { ...entry, message: { ...entry.message, content: entry.message.content.map(withoutThought) } }
            : entry,
        ),
      };
    },
  });
  return Object.freeze({
    name: PLANNER,
    processors: [{ processor, before: [OUTPUT_SCHEMA_PROCESSOR, AGENT_TRANSFER_PROCESSOR, TOOLS_PROCESSOR] }],
    hooks: {
      processResponse({ response }: { response: ModelResponse }) {
        const parts = response.content?.parts;
        if (parts === undefined || parts.length === 0) return undefined;
        const processed = planningResponse(parts);
        if (processed.length === 0) return undefined;
        return { ...response, content: { ...(response.content ?? { role: 'model' }), parts: processed } };
      },
    },
  });
}

function withoutThought(part: Part): Part {
  if (!('thought' in part)) return part;
  const { thought: _cleared, ...rest } = part;
  return rest as Part;
}

/** ADK's `process_planning_response`: reasoning marked as thought, the final answer kept, the calls' group kept. */
export function planningResponse(parts: readonly Part[]): Part[] {
  const preserved: Part[] = [];
  let index = 0;
  for (; index < parts.length; index++) {
    const part = parts[index] as Part;
    if ('functionCall' in part) {
      // A call without a name is passed over; the first named one starts the group that ends the answer.
      if (part.functionCall.name === '') continue;
      break;
    }
    splitText(part, preserved);
  }
  for (; index < parts.length; index++) {
    const part = parts[index] as Part;
    if (!('functionCall' in part)) break;
    if (part.functionCall.name !== '' || preserved.some((kept) => 'functionCall' in kept)) preserved.push(part);
  }
  return preserved;
}

const REASONING_TAGS = [PLANNING_TAG, REASONING_TAG, ACTION_TAG, REPLANNING_TAG];

function splitText(part: Part, preserved: Part[]): void {
  const text = 'text' in part ? part.text : '';
  const at = text.lastIndexOf(FINAL_ANSWER_TAG);
  if (at !== -1) {
    const reasoning = text.slice(0, at + FINAL_ANSWER_TAG.length);
    const answer = text.slice(at + FINAL_ANSWER_TAG.length);
    if (reasoning !== '') preserved.push({ text: reasoning, thought: true });
    if (answer !== '') preserved.push({ text: answer });
    return;
  }
  preserved.push(text !== '' && REASONING_TAGS.some((tag) => text.startsWith(tag)) ? { ...part, thought: true } : part);
}
