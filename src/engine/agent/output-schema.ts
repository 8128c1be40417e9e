import type { AgentDefinition } from '../../contracts/agent.js';
import type { OutputCheck, OutputSchema, OutputSchemaInput, StandardSchema } from '../../contracts/output-schema.js';
import type { JsonSchema } from '../../contracts/request.js';
import { UsageError } from '../../contracts/errors/usage-error.js';
import { checkJsonSchema } from '../util/json-schema-check.js';

/** The parameter `set_model_response` takes a non-object answer in (ADK's name). */
const VALUE_PARAMETER = 'response';

/**
 * An agent's `outputSchema`, whatever it was given as: an `OutputSchema` as is, a Standard Schema (checked by its own
 * `validate`, told to the model through its Standard JSON Schema), or a JSON Schema (checked by agentctx).
 */
export function toOutputSchema(given: OutputSchemaInput): OutputSchema {
  if (isOutputSchema(given)) return given;
  if (isStandardSchema(given)) return fromStandardSchema(given);
  return fromJsonSchema(given as JsonSchema, 'json-schema');
}

export function isOutputSchema(value: unknown): value is OutputSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { check?: unknown }).check === 'function' &&
    typeof (value as { jsonSchema?: unknown }).jsonSchema === 'object'
  );
}

function isStandardSchema(value: unknown): value is StandardSchema {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof standard === 'object' && standard !== null && typeof standard.validate === 'function';
}

/**
 * An output schema from a JSON Schema: an object schema is ADK's `model` form (its properties are the tool's
 * parameters), anything else the `value` form. `pydantic` marks a schema pydantic wrote for a model class: answers are
 * kept as ADK keeps them (`model_dump(exclude_none=True)`: defaults filled in, nulls dropped).
 */
export function fromJsonSchema(
  schema: JsonSchema,
  origin: OutputSchema['origin'],
  options: { toolParameters?: JsonSchema } = {},
): OutputSchema {
  const jsonSchema = withoutDialect(schema);
  const form = formOf(jsonSchema);
  const toolParameters = options.toolParameters ?? parametersFor(jsonSchema, form);
  return Object.freeze({
    jsonSchema,
    form,
    toolParameters,
    origin,
    check(value: unknown): OutputCheck {
      const problems = checkJsonSchema(jsonSchema, value);
      if (problems.length > 0) return { ok: false, problems };
      return { ok: true, value: origin === 'pydantic' ? dumped(jsonSchema, jsonSchema, value) : value };
    },
  });
}

function fromStandardSchema(given: StandardSchema): OutputSchema {
  const standard = given['~standard'];
  if (standard.jsonSchema === undefined)
    throw new UsageError(
      `this ${standard.vendor} schema cannot say what it is as JSON Schema, so the model could not be told`,
      'Give a schema that implements Standard JSON Schema (zod ≥ 4.2 does), or a JSON Schema object.',
    );
  const jsonSchema = withoutDialect(standard.jsonSchema.output({ target: 'draft-2020-12' }) as JsonSchema);
  const base = fromJsonSchema(jsonSchema, 'standard-schema');
  return Object.freeze({
    ...base,
    async check(value: unknown): Promise<OutputCheck> {
      const result = await standard.validate(value);
      if (result.issues === undefined) return { ok: true, value: result.value };
      return {
        ok: false,
        problems: result.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`),
      };
    },
  });
}

function pathText(path: readonly unknown[] | undefined): string {
  let text = '$';
  for (const step of path ?? []) {
    const key = typeof step === 'object' && step !== null && 'key' in step ? (step as { key: unknown }).key : step;
    text += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return text;
}

// `$schema` names a dialect and constrains nothing; providers' structured output refuses some of its spellings.
function withoutDialect(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function formOf(schema: JsonSchema): OutputSchema['form'] {
  if (schema['type'] === 'object' && typeof schema['properties'] === 'object') return 'model';
  return 'value';
}

function parametersFor(schema: JsonSchema, form: OutputSchema['form']): JsonSchema {
  if (form === 'model') return schema;
  const { $defs, ...value } = schema;
  return {
    type: 'object',
    properties: { [VALUE_PARAMETER]: value },
    required: [VALUE_PARAMETER],
    ...($defs === undefined ? {} : { $defs }),
  };
}

/** The answer `set_model_response`'s arguments carry, by the schema's form (ADK's `run_async` of the tool). */
export function answerOfToolArgs(schema: OutputSchema, args: Record<string, unknown>): unknown {
  return schema.form === 'model' ? args : args[VALUE_PARAMETER];
}

/**
 * The answer in a model's text: JSON, maybe wrapped in one Markdown code fence (as ADK's `validate_schema` accepts it),
 * or the reason it is not JSON.
 */
export function parseAnswerText(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const stripped = text.trim();
  const fenced = /^```\w*\s*([\s\S]*?)\s*```$/.exec(stripped);
  const json = fenced === null ? text : (fenced[1] as string).trim();
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    return {
      ok: false,
      problem: `$: the answer is not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

// What pydantic's `model_dump(exclude_none=True)` keeps of a validated model: each field, its default when absent,
// nested models alike, and no field whose value is null.
function dumped(root: JsonSchema, schema: unknown, value: unknown): unknown {
  const s = resolved(root, schema);
  if (s === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => dumped(root, s['items'], item));
  if (typeof value !== 'object' || value === null) return value;
  if (s['type'] !== 'object' || typeof s['properties'] !== 'object') {
    const choices = s['anyOf'];
    if (!Array.isArray(choices)) return value;
    const model = choices.find(
      (choice) =>
        resolved(root, choice)?.['type'] === 'object' &&
        checkJsonSchema(choice as JsonSchema, value, 1, root).length === 0,
    );
    return model === undefined ? value : dumped(root, model, value);
  }
  const properties = s['properties'] as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    const fieldSchema = resolved(root, field);
    const present = Object.hasOwn(value, name);
    const item = present
      ? (value as Record<string, unknown>)[name]
      : fieldSchema !== undefined && 'default' in fieldSchema
        ? structuredClone(fieldSchema['default'])
        : undefined;
    if (item === undefined || item === null) continue;
    out[name] = dumped(root, field, item);
  }
  return out;
}

function resolved(root: JsonSchema, schema: unknown): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return schema as Record<string, unknown>;
  const name = ref.split('/').at(-1) as string;
  const defs = (root['$defs'] ?? root['definitions']) as Record<string, unknown> | undefined;
  return resolved(root, defs?.[name]);
}

/** ADK's `_get_output_schema`: an LLM agent's own, else its last sub-agent's (a workflow answers with it). */
export function outputSchemaOf(agent: AgentDefinition): OutputSchema | undefined {
  if (agent.kind === 'llm') return agent.outputSchema;
  const last = agent.subAgents.at(-1);
  return last === undefined ? undefined : outputSchemaOf(last);
}
