import type { Extension } from '../../contracts/agent.js';
import type { Content, Part } from '../../contracts/content.js';
import { inheritedModel } from '../../engine/agent/agent-tree.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { pythonRepr, pythonStr, type PythonVersion } from '../../engine/python/python-format.js';
import { TOOLS_PROCESSOR } from '../tools/tool-declarations.js';

/** One few-shot example of ADK's `ExampleTool`: what the user said, and the turns that answered it. */
export type AdkExample = { readonly input: Content | undefined; readonly output: readonly Content[] };

export const EXAMPLE_TOOL = 'example_tool';

/**
 * ADK's `ExampleTool` (tools/example_tool.py and examples/example_util.py at 2.5.0): no declaration, only few-shot
 * examples appended to the system text, after everything the pipeline put there (ADK runs its tools' request hooks
 * after its request processors), and only when the invocation's user message starts with text. `field` names where
 * the agent's definition holds it, for provenance.
 */
export function adkExampleTool(examples: readonly AdkExample[], field: string): Extension {
  const processor = defineProcessor({
    name: EXAMPLE_TOOL,
    process(draft, context) {
      const first = context.userContent?.parts[0];
      if (first === undefined || !('text' in first) || first.text === '') return draft;
      const text = examplesText(examples, inheritedModel(context.node), context.profile.python);
      return withSystemBlock(draft, text, {
        kind: 'tool',
        processor: EXAMPLE_TOOL,
        extension: EXAMPLE_TOOL,
        agent: context.agent.name,
        field,
        note: `${examples.length} few-shot example${examples.length === 1 ? '' : 's'} of ExampleTool`,
      });
    },
  });
  return Object.freeze({ name: EXAMPLE_TOOL, processors: [{ processor, after: TOOLS_PROCESSOR }] });
}

/** ADK's text for the examples, byte for byte (`convert_examples_to_text`). */
export function examplesText(
  examples: readonly AdkExample[],
  model: string | undefined,
  python?: PythonVersion,
): string {
  // Gemini 2 models (and a request without a model) get plain fences around calls and responses.
  const gemini2 = model === undefined || model.includes('gemini-2');
  let text = '';
  examples.forEach((example, index) => {
    text += `EXAMPLE ${index + 1}:\nBegin example\n[user]\n`;
    const input = example.input?.parts ?? [];
    if (input.length > 0) text += `${input.flatMap((part) => (textOf(part) ? [textOf(part)] : [])).join('\n')}\n`;
    let previous: string | undefined;
    for (const content of example.output) {
      const role = content.role === 'model' ? '[model]\n' : '[user]\n';
      if (role !== previous) text += role;
      previous = role;
      for (const part of content.parts) text += partText(part, gemini2, python);
    }
    text += 'End example\n\n';
  });
  return `<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n${text}End few-shot\n<EXAMPLES>`;
}

function textOf(part: Part): string {
  return 'text' in part ? part.text : '';
}

function partText(part: Part, gemini2: boolean, python: PythonVersion | undefined): string {
  if ('functionCall' in part) {
    // Python's f-string: a string argument in bare quotes (unescaped), anything else as str() prints it.
    const args = Object.entries(part.functionCall.args ?? {}).map(([key, value]) =>
      typeof value === 'string' ? `${key}='${value}'` : `${key}=${pythonStr(value, python)}`,
    );
    return `${gemini2 ? '```\n' : '```tool_code\n'}${part.functionCall.name}(${args.join(', ')})\n\`\`\`\n`;
  }
  if ('functionResponse' in part) {
    // ADK prints the response object's `__dict__`: every field of google-genai's FunctionResponse, in its order.
    const { id, name, response } = part.functionResponse;
    const fields = {
      will_continue: null,
      scheduling: null,
      parts: null,
      id: id ?? null,
      name,
      response: response ?? null,
    };
    return `${gemini2 ? '```\n' : '```tool_outputs\n'}${pythonRepr(fields, python)}\n\`\`\`\n`;
  }
  return 'text' in part && part.text !== '' ? `${part.text}\n` : '';
}
