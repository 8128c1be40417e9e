import type { JsonSchema } from './request.js';

/** A value checked against an output schema: the value to keep, or every way it does not match. */
export type OutputCheck<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * The Standard Schema interface (standardschema.dev, v1) as far as agentctx uses it: zod 4, valibot, arktype and
 * others implement it. With `jsonSchema` (Standard JSON Schema, zod ≥ 4.2) agentctx also tells the model the schema.
 */
export type StandardSchema<T = unknown> = {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult<T> | Promise<StandardResult<T>>;
    readonly jsonSchema?: { output(options: { target: string }): Record<string, unknown> } | undefined;
    readonly types?: { readonly input: unknown; readonly output: T } | undefined;
  };
};

/** What a Standard Schema's `validate` returns. */
export type StandardResult<T> =
  | { readonly value: T; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly unknown[] | undefined }[] };

/**
 * The shape an agent's answer must have (ADK's `output_schema`), as `llmAgent` keeps it whatever it was given (a JSON
 * Schema, a Standard Schema such as zod, or a pydantic class read from an agent file's Python).
 *
 * Its form decides how the `set_model_response` tool takes the answer when the agent also has tools, as in ADK:
 * `model` (an object: its fields are the tool's parameters) or `value` (anything else: one `response` parameter).
 */
export type OutputSchema<T = unknown> = {
  /** The JSON Schema of the answer, as a provider's structured output receives it. */
  readonly jsonSchema: JsonSchema;
  readonly form: 'model' | 'value';
  /** The parameters of `set_model_response` (a JSON Schema of an object). */
  readonly toolParameters: JsonSchema;
  /** Where it came from: a JSON Schema, a Standard Schema, or a pydantic class (whose answers ADK dumps without nulls). */
  readonly origin: 'json-schema' | 'standard-schema' | 'pydantic';
  /** Checks a parsed answer: the value to keep (a pydantic model's defaults filled, its nulls dropped) or the problems. */
  check(value: unknown): OutputCheck<T> | Promise<OutputCheck<T>>;
};

/** What `outputSchema` accepts where an agent is defined. */
export type OutputSchemaInput<T = unknown> = OutputSchema<T> | StandardSchema<T> | JsonSchema;
