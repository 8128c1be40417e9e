import type { JsonSchema } from '../../contracts/request.js';

// The keywords OpenAI's strict structured outputs accept (platform.openai.com/docs/guides/structured-outputs,
// "Supported schemas"); a schema using any other one is sent without `strict`.
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'default',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/**
 * Whether OpenAI can hold the answer to the schema exactly (`strict: true`): an object at the root, every object
 * closed (`additionalProperties: false`) with every property required, and only the keywords strict mode supports.
 * zod objects without optional fields are; pydantic models with defaults are not, and go without `strict`.
 */
export function isStrictCompatible(schema: JsonSchema): boolean {
  return schema['type'] === 'object' && strictNode(schema);
}

function strictNode(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(strictNode);
  if (typeof node !== 'object' || node === null) return true;
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!STRICT_KEYWORDS.has(key)) return false;
  const properties = record['properties'];
  if (record['type'] === 'object' || properties !== undefined) {
    if (record['additionalProperties'] !== false) return false;
    const names = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
    const required = Array.isArray(record['required']) ? record['required'] : [];
    if (names.some((name) => !required.includes(name))) return false;
    if (!Object.values((properties ?? {}) as Record<string, unknown>).every(strictNode)) return false;
  }
  for (const key of ['items', 'anyOf', '$defs', 'definitions'] as const) {
    const inner = record[key];
    if (inner === undefined) continue;
    const values = key === '$defs' || key === 'definitions' ? Object.values(inner as object) : [inner];
    if (!values.every(strictNode)) return false;
  }
  return true;
}
