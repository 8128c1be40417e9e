import type { JsonSchema } from '../../contracts/request.js';

const TYPE_NAMES: Record<string, string> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

/**
 * A JSON Schema in the form Gemini's function declarations take (the OpenAPI subset with upper-case type names),
 * as ADK sends them: `{ type: 'OBJECT', properties: { x: { type: 'STRING', enum: [...] } }, required: [...] }`.
 */
export function toGeminiSchema(schema: JsonSchema): JsonSchema {
  const converted: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') converted[key] = TYPE_NAMES[value] ?? value.toUpperCase();
    else if (key === 'properties' && isRecord(value)) {
      converted[key] = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [
          name,
          isRecord(property) ? toGeminiSchema(property) : property,
        ]),
      );
    } else if ((key === 'items' || key === 'additionalProperties') && isRecord(value))
      converted[key] = toGeminiSchema(value);
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      converted[key] = value.map((item: unknown) => (isRecord(item) ? toGeminiSchema(item) : item));
    } else converted[key] = value;
  }
  return converted;
}

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
