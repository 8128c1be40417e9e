import type { AssemblyContext, Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { OutputSchema } from '../../contracts/output-schema.js';
import type { Source } from '../../contracts/source.js';
import type { Tool } from '../../contracts/tool.js';
import { answerOfToolArgs } from '../../engine/agent/output-schema.js';
import { withSystemBlock, withTool } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';

// ADK's output schema (flows/llm_flows/basic.py and _output_schema_processor.py at 2.5.0): an agent without tools
// asks its provider for JSON of the schema; an agent with tools keeps them and gets one more, `set_model_response`,
// with a paragraph telling the model to answer through it. The runner turns that call into the agent's final text.

export const OUTPUT_SCHEMA_PROCESSOR = 'output-schema';
export const SET_MODEL_RESPONSE = 'set_model_response';

/** ADK's paragraph, byte for byte. */
export const SET_MODEL_RESPONSE_INSTRUCTION =
  'IMPORTANT: You have access to other tools, but you must provide your final response using the set_model_response tool with the required structured format. After using any other tools needed to complete the task, always call set_model_response with your final answer in the specified schema format.';

/** The tool's description: its function's docstring, cleaned as `inspect.cleandoc` cleans it. */
export const SET_MODEL_RESPONSE_DESCRIPTION =
  'Set your final response using the required output schema.\n\nUse this tool to provide your final structured answer instead\nof outputting text directly.';

/**
 * The agent's output schema in its request: the response schema and `application/json` when the provider can keep it
 * with the agent's tools (no tools; or Gemini 2 and later on Vertex AI, as ADK decides), else `set_model_response`
 * first among the tools and ADK's instruction paragraph. Nothing for an agent without one, or in `task` mode.
 */
export const outputSchemaProcessor: Processor = defineProcessor({
  name: OUTPUT_SCHEMA_PROCESSOR,
  process(draft, context): RequestDraft {
    const schema = context.agent.outputSchema;
    if (schema === undefined || context.agent.mode === 'task') return draft;
    const source: Source = {
      kind: 'custom',
      processor: OUTPUT_SCHEMA_PROCESSOR,
      agent: context.agent.name,
      field: 'outputSchema',
      note: 'how to give the structured answer',
    };
    if (!hasTools(context) || canUseOutputSchemaWithTools(draft.config.model)) {
      const { responseSchema: _replaced, responseMimeType: _also, ...config } = draft.config;
      return {
        ...draft,
        config: { ...config, responseSchema: schema.jsonSchema, responseMimeType: 'application/json' },
      };
    }
    const tool = setModelResponseTool(schema);
    const instructed = withSystemBlock(draft, SET_MODEL_RESPONSE_INSTRUCTION, source);
    return withTool(
      instructed,
      { name: tool.name, description: tool.description, parameters: schema.toolParameters },
      { ...source, kind: 'tool', note: 'the tool the structured answer is given through', tool: { kind: 'function' } },
      tool,
    );
  },
});

// ADK counts the agent's own tools, its built-in ones (google_search) among them; agentctx's extensions' tools are
// offered beside them, so they count too.
function hasTools(context: AssemblyContext): boolean {
  return (
    context.agent.tools.length > 0 ||
    (context.agent.builtInTools ?? []).length > 0 ||
    context.agent.toolsets.length > 0 ||
    context.extensions.some((extension) => (extension.tools ?? []).length > 0)
  );
}

/** ADK's `can_use_output_schema_with_tools`: Vertex AI (as the environment chooses it) and a Gemini 2.0 or later model. */
export function canUseOutputSchemaWithTools(
  model: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  const flag = env['GOOGLE_GENAI_USE_ENTERPRISE'] ?? env['GOOGLE_GENAI_USE_VERTEXAI'];
  if (flag === undefined || !['true', '1'].includes(flag.toLowerCase())) return false;
  return model !== undefined && isGemini2OrLater(model);
}

/** ADK's `is_gemini_eap_or_2_or_above`, for the model names agentctx takes (`google:gemini-2.5-pro` too). */
export function isGemini2OrLater(model: string): boolean {
  const name = modelName(model.replace(/^[a-z-]+:(?!\/)/, ''));
  if (/^gemini-[a-z0-9_]+(?:-[a-z0-9_]+)*-early-exp\d*$/.test(name)) return true;
  const version = /^gemini-(\d+)(?:\.\d+)*(?:[-.]|$)/.exec(name);
  return version !== null && Number(version[1]) >= 2;
}

function modelName(model: string): string {
  const path = /^projects\/[^/]+\/locations\/[^/]+\/publishers\/[^/]+\/models\/(.+)$/.exec(model);
  if (path !== null) return path[1] as string;
  if (model.startsWith('models/')) return model.slice('models/'.length);
  if (!model.startsWith('projects/') && model.includes('/')) {
    const last = model.slice(model.lastIndexOf('/') + 1);
    if (last.startsWith('gemini-')) return last;
  }
  return model;
}

/**
 * ADK's `set_model_response` for a schema: its arguments are checked against the schema (a mismatch goes back to the
 * model as the tool's error, for it to call again), and the answer they carry becomes the agent's final text.
 */
export function setModelResponseTool(schema: OutputSchema): Tool {
  return Object.freeze({
    name: SET_MODEL_RESPONSE,
    description: SET_MODEL_RESPONSE_DESCRIPTION,
    parameters: schema.toolParameters,
    async checkArgs(args: Record<string, unknown>) {
      const checked = await schema.check(answerOfToolArgs(schema, args));
      return checked.ok ? { ok: true as const, value: args } : { ok: false as const, issues: [...checked.problems] };
    },
    // Checked again here (callbacks may have changed the arguments): the answer kept is the checked value.
    async execute(args: Record<string, unknown>, context) {
      const checked = await schema.check(answerOfToolArgs(schema, args));
      if (!checked.ok) throw new Error(`the answer does not match the output schema: ${checked.problems.join('; ')}`);
      context.actions.setModelResponse = checked.value;
      return checked.value;
    },
  } satisfies Tool);
}
