import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import { type AdkModel, snakeCase } from './adk-fields.js';

// JSON Schemas of objects whose keys a file may spell in snake_case or camelCase, as ADK's eval files are read.

export type SpelledObject = {
  readonly description: string;
  /** Each field by its camelCase name. */
  readonly fields: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  /** Fields of which exactly one is given. */
  readonly exactlyOneOf?: readonly string[];
  /**
   * Keys of no field: refused, kept (`allow`), or taken only as null (`null`: genai objects, whose nulls are read as
   * absent, as ADK writes every unset field of them).
   */
  readonly extras: 'forbid' | 'allow' | 'null';
  /** Whether a null is read as absent (genai objects); else a null counts as given (ADK's models). */
  readonly nullIsAbsent?: boolean;
};

/** The spellings of a field: its snake_case one (ADK writes it) first. */
export function spellings(name: string): string[] {
  const snake = snakeCase(name);
  return snake === name ? [name] : [snake, name];
}

/** An object with every field under both spellings; a field given both ways is refused, as the readers refuse it. */
export function spelledObjectSchema(object: SpelledObject): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const dependentSchemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(object.fields)) {
    const [snake, camel] = spellings(name) as [string, string | undefined];
    properties[snake] = schema;
    if (camel === undefined) continue;
    const description = typeof schema['description'] === 'string' ? ` ${schema['description']}` : '';
    properties[camel] = { ...schema, description: `${snake}, in camelCase.${description}` };
    // A null read as absent may stand beside the other spelling.
    dependentSchemas[snake] = object.nullIsAbsent
      ? { anyOf: [isNull(snake), { not: { required: [camel] } }, isNull(camel)] }
      : { not: { required: [camel] } };
  }
  const given = (name: string) => givenSchema(name, object.nullIsAbsent === true);
  const rules = [
    ...(object.required ?? []).map(given),
    ...(object.exactlyOneOf === undefined
      ? []
      : [{ oneOf: object.exactlyOneOf.map((name) => givenSchema(name, true)) }]),
  ];
  return {
    type: 'object',
    description: object.description,
    properties,
    additionalProperties: object.extras === 'forbid' ? false : object.extras === 'allow' ? true : { type: 'null' },
    ...(Object.keys(dependentSchemas).length === 0 ? {} : { dependentSchemas }),
    ...(rules.length === 0 ? {} : { allOf: rules }),
  };
}

/** Definitions of ADK's eval models under their ADK names, from the tables their readers take their fields from. */
export function modelDefinitions(models: readonly AdkModel[]): Record<string, JsonSchema> {
  return Object.fromEntries(models.map((model) => [model.name, spelledObjectSchema(model)]));
}

const isNull = (key: string): JsonSchema => ({ properties: { [key]: { type: 'null' } } });

// A field given in one of its spellings; not null too when `notNull`.
function givenSchema(name: string, notNull: boolean): JsonSchema {
  const options = spellings(name).map((key) => ({
    required: [key],
    ...(notNull ? { properties: { [key]: { not: { type: 'null' } } } } : {}),
  }));
  return options.length === 1 ? (options[0] as JsonSchema) : { anyOf: options };
}
