import type { OutputSchema } from '../contracts/output-schema.js';
import type { JsonSchema } from '../contracts/request.js';
import { fromJsonSchema, toOutputSchema } from '../engine/agent/output-schema.js';
import { isPlainRecord, type JsonReader } from '../engine/util/json-reader.js';
import type { AdkBinding } from './adk-bindings.js';
import { isPythonPath, type ReadPythonSchemas } from './python-tool.js';

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * An agent file's `output_schema`: ADK's dotted name of a pydantic class (`pkg.module.PersonInfo`), read from the
 * module's source as ADK would build it, or bound to a TypeScript schema (zod, JSON Schema) with `--bindings`; or, as
 * agentctx's extension, a JSON Schema written in the file.
 */
export async function readOutputSchema(
  reader: JsonReader,
  value: unknown,
  path: string,
  source: {
    readonly readPythonSchemas?: ReadPythonSchemas | undefined;
    readonly bindings?: Readonly<Record<string, AdkBinding>> | undefined;
    readonly file: string;
  },
): Promise<OutputSchema | undefined> {
  if (value === undefined || value === null) return undefined;
  if (isPlainRecord(value)) return inlineSchema(reader, value, path);
  if (typeof value !== 'string' || !isPythonPath(value))
    return reader.issue(
      path,
      `expected the dotted name of a pydantic class (pkg.module.MySchema) or a JSON Schema (a mapping), got ${JSON.stringify(value)}`,
    );
  const bound =
    source.bindings === undefined
      ? undefined
      : Object.hasOwn(source.bindings, value)
        ? source.bindings[value]
        : undefined;
  if (bound !== undefined) {
    try {
      return toOutputSchema(bound as never);
    } catch (error) {
      return reader.issue(
        path,
        `'${value}' is bound to something that is not a schema: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (source.readPythonSchemas === undefined)
    return reader.issue(
      path,
      `'${value}' names a Python class, which is read only where agent files are loaded with their Python (the agentctx command); write the schema here as JSON Schema instead`,
    );
  const found = (await source.readPythonSchemas([value], source.file))[value];
  if (found === undefined || 'error' in found)
    return reader.issue(path, `'${value}' cannot be read: ${found?.error ?? 'nothing came back'}`);
  return fromJsonSchema(found.schema, 'pydantic', { toolParameters: found.parameters });
}

function inlineSchema(reader: JsonReader, value: Record<string, unknown>, path: string): OutputSchema | undefined {
  const type = value['type'];
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  const bad = types.filter((name) => typeof name !== 'string' || !JSON_TYPES.has(name));
  if (bad.length > 0)
    return reader.issue(
      `${path}.type`,
      `expected a JSON Schema type (${[...JSON_TYPES].join(', ')}), got ${bad.map((name) => JSON.stringify(name)).join(', ')}`,
    );
  if (
    type === undefined &&
    !['properties', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'items'].some((key) => key in value)
  )
    return reader.issue(path, 'is not a JSON Schema: it has no type, properties, anyOf, enum or $ref');
  return fromJsonSchema(value as JsonSchema, 'json-schema');
}
