import type { Extension } from '../../contracts/agent.js';
import type { Tool } from '../../contracts/tool.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { TOOLS_PROCESSOR } from '../tools/tool-declarations.js';
import { memoryAsResult } from './memory-text.js';

// ADK's load_memory (tools/load_memory_tool.py at 2.5.0): the model searches the user's memory with a query; while the
// tool is offered, a paragraph in the system text says so.

export const LOAD_MEMORY = 'load_memory';

/** ADK's paragraph, byte for byte (its own line breaks around it). */
export const LOAD_MEMORY_INSTRUCTION =
  '\nYou have memory. You can use it to answer questions. If any questions need\nyou to look up the memory, you should call load_memory function with a query.\n';

/**
 * ADK's `load_memory` tool: declared as ADK 2.5.0 declares it (its docstring, one required `query` string), answering
 * `{ result: { memories } }` as ADK's wrapped `LoadMemoryResponse` serializes. Needs the runner's `memory`.
 */
export const loadMemoryTool: Tool = Object.freeze({
  name: LOAD_MEMORY,
  description:
    'Loads the memory for the current user.\n\nArgs:\n  query: The query to load the memory for.\n\nReturns:\n  A list of memory results.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  async execute(args, context) {
    const query = typeof args['query'] === 'string' ? args['query'] : '';
    const found = await context.searchMemory(query);
    return { result: { memories: found.memories.map(memoryAsResult) } };
  },
} satisfies Tool);

/**
 * `load_memory` with ADK's paragraph: the tool, and the paragraph added after the tools are declared (where ADK's
 * `process_llm_request` adds it), in every request that offers the tool.
 */
export function loadMemory(): Extension {
  return Object.freeze({ ...loadMemoryInstruction(), tools: [loadMemoryTool] });
}

/** The paragraph alone, for an agent that lists `loadMemoryTool` among its own tools (an agent file does). */
export function loadMemoryInstruction(): Extension {
  const processor = defineProcessor({
    name: LOAD_MEMORY,
    process(draft, context) {
      if (!draft.tools.some((tool) => tool.declaration.name === LOAD_MEMORY)) return draft;
      return withSystemBlock(draft, LOAD_MEMORY_INSTRUCTION, {
        kind: 'tool',
        processor: LOAD_MEMORY,
        extension: LOAD_MEMORY,
        agent: context.agent.name,
        note: "ADK's load_memory instruction",
      });
    },
  });
  return Object.freeze({ name: LOAD_MEMORY, processors: [{ processor, after: TOOLS_PROCESSOR }] });
}
