import type { ToolContext } from '../../contracts/contexts.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { JsonSchema } from '../../contracts/request.js';
import type { ArgsCheck, Tool } from '../../contracts/tool.js';
import { checkToolName } from './tool.js';

/**
 * A schema in the Standard Schema form (zod 4, valibot, arktype…). Zod schemas also convert themselves to
 * JSON Schema; for other libraries pass `jsonSchema` too.
 */
export type StandardSchema<TOutput> = {
  readonly '~standard': {
    readonly validate: (value: unknown) => StandardResult<TOutput> | Promise<StandardResult<TOutput>>;
  };
  toJSONSchema?: (options?: { io?: 'input' | 'output' }) => JsonSchema;
};

type StandardResult<TOutput> =
  | { readonly value: TOutput; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
      }[];
    };

export type FunctionToolConfig<TArgs> = {
  name: string;
  description: string;
  /** The arguments' schema; arguments are checked against it before `execute` runs. */
  parameters?: StandardSchema<TArgs>;
  /** The JSON Schema the model sees, when `parameters` cannot produce one itself. */
  jsonSchema?: JsonSchema;
  execute: (args: TArgs, context: ToolContext) => unknown;
  /** A person confirms each call first (always, or when this returns true for the arguments): see `Tool`. */
  requireConfirmation?: boolean | ((args: TArgs, context: ToolContext) => boolean | Promise<boolean>);
  /** Its final answer comes later from the client (ADK's `LongRunningFunctionTool`): see `Tool`. */
  longRunning?: boolean;
};

/**
 * A tool backed by a function. Arguments that fail the schema never reach `execute`: the model gets the problems as
 * the tool's result and can call again. A function that throws is reported to the model the same way.
 *
 * @example
 * const add = functionTool({
 *   name: 'add', description: 'Adds two numbers.',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => ({ sum: a + b }),
 * });
 */
export function functionTool<TArgs>(config: FunctionToolConfig<TArgs>): Tool {
  checkToolName(config.name);
  const schema = config.parameters;
  const parameters = config.jsonSchema ?? jsonSchemaOf(config.name, schema);
  const checkArgs =
    schema === undefined
      ? undefined
      : async (args: Record<string, unknown>): Promise<ArgsCheck> => {
          const result = await schema['~standard'].validate(args);
          if (result.issues === undefined) return { ok: true, value: result.value as Record<string, unknown> };
          return { ok: false, issues: result.issues.map((issue) => `${pathOf(issue.path)}${issue.message}`) };
        };
  return Object.freeze({
    name: config.name,
    description: config.description,
    ...(parameters === undefined ? {} : { parameters }),
    ...(checkArgs === undefined ? {} : { checkArgs }),
    execute: (args: Record<string, unknown>, context: ToolContext) => config.execute(args as TArgs, context),
    ...(config.requireConfirmation === undefined
      ? {}
      : { requireConfirmation: confirmationRule(config.requireConfirmation) }),
    ...(config.longRunning === true ? { longRunning: true } : {}),
  });
}

function confirmationRule<TArgs>(
  rule: NonNullable<FunctionToolConfig<TArgs>['requireConfirmation']>,
): NonNullable<Tool['requireConfirmation']> {
  return typeof rule === 'boolean' ? rule : (args, context) => rule(args as TArgs, context);
}

function jsonSchemaOf(name: string, schema: StandardSchema<unknown> | undefined): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  if (typeof schema.toJSONSchema !== 'function') {
    throw new ValidationError({
      subject: `tool '${name}'`,
      issues: [{ path: 'parameters', message: 'this schema cannot describe itself as JSON Schema' }],
      hint: 'Pass the JSON Schema the model should see as `jsonSchema`.',
    });
  }
  // Input form: defaulted fields stay optional and plain objects stay open, as the model may omit them.
  const { $schema: _dialect, ...rest } = schema.toJSONSchema({ io: 'input' });
  return rest;
}

function pathOf(path: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined): string {
  if (path === undefined || path.length === 0) return '';
  const keys = path.map((segment) => String(typeof segment === 'object' ? segment.key : segment));
  return `${keys.join('.')}: `;
}
