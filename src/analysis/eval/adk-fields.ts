import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import { setOwn } from '../../engine/util/copy-value.js';
import { type JsonReader, closest, describeValue, joinPath } from '../../engine/util/json-reader.js';

/** The snake_case name of a camelCase one (pydantic's `to_camel` backwards): `evalSetId` → `eval_set_id`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * One of ADK's eval models as a table: the reader takes its fields from it and the published schema is built from it
 * (eval-file-schemas.ts), so the two name the same fields.
 */
export type AdkModel = {
  /** ADK's class, for messages and the schema's definitions. */
  readonly name: string;
  readonly description: string;
  /** Each field by its camelCase name: its JSON Schema, described; null is in its type where ADK's field is Optional. */
  readonly fields: Readonly<Record<string, JsonSchema>>;
  /** The fields without a default. */
  readonly required?: readonly string[];
  /** `extra="allow"` models keep other keys; the others refuse them. */
  readonly extras: 'forbid' | 'allow';
  /** Fields of which exactly one must be given, not null (a model validator's rule). */
  readonly exactlyOneOf?: readonly string[];
};

/** A model known only by its field names (a request body, a result file): no schema is published from it. */
export function namedFields(name: string, names: readonly string[], extras: AdkModel['extras']): AdkModel {
  return { name, description: name, extras, fields: Object.fromEntries(names.map((field) => [field, {}])) };
}

export type AdkFields = {
  /** By camelCase name; a null given is kept (each field says whether it takes one). */
  values: Record<string, unknown>;
  /** Keys of no field, as written, when the model allows extras. */
  extra: Record<string, unknown>;
  /** The path of a field, in the spelling it was given in (snake_case when absent), for messages. */
  at: (name: string) => string;
};

/**
 * The fields of a record read as ADK's pydantic models read them (common.py `EvalBaseModel`: `alias_generator=to_camel,
 * populate_by_name=True`): each by its camelCase alias or its snake_case name, exactly. A field given both ways is
 * refused (pydantic would silently take one). Other keys go to `extra` where the model allows them
 * (`extra="allow"`) and are refused, with the nearest field name, where it forbids them.
 */
export function adkFields(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  model: AdkModel,
): AdkFields {
  const names = Object.keys(model.fields);
  const values: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  const spellings = names.map(snakeCase);
  for (const [key, value] of Object.entries(record)) {
    const name = names.includes(key) ? key : names[spellings.indexOf(key)];
    if (name === undefined) {
      if (model.extras === 'allow') {
        setOwn(extra, key, value);
        continue;
      }
      const guess = closest(key, [...spellings, ...names]);
      reader.issue(
        joinPath(path, key),
        `unknown field${guess === undefined ? '' : ` (did you mean '${guess}'?)`}; ADK's ${model.name} has ${spellings.join(', ')} (or their camelCase forms)`,
      );
      continue;
    }
    const first = givenAs.get(name);
    if (first !== undefined) {
      reader.issue(joinPath(path, key), `given twice, as '${first}' and as '${key}'`);
      continue;
    }
    givenAs.set(name, key);
    setOwn(values, name, value);
  }
  return { values, extra, at: (name) => joinPath(path, givenAs.get(name) ?? snakeCase(name)) };
}

/**
 * A file's top level without its `$schema` key: a string naming the file's JSON Schema for editors, which ADK's
 * `EvalSet` and `EvalConfig` ignore as they ignore every unknown key.
 */
export function withoutSchemaKey(reader: JsonReader, record: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(record, '$schema')) return record;
  const { $schema, ...rest } = record;
  readString(reader, $schema, '$schema');
  return rest;
}

/** A string field; `nullable` fields take null as absent. */
export function readString(
  reader: JsonReader,
  value: unknown,
  at: string,
  options: { required?: boolean; nullable?: boolean } = {},
): string | undefined {
  if (value === undefined || (value === null && options.nullable === true))
    return options.required === true ? reader.issue(at, 'is required (a string)') : undefined;
  if (typeof value !== 'string') return reader.issue(at, `expected a string, got ${describeValue(value)}`);
  return value;
}

/** A float field such as `creation_timestamp` (pydantic takes an integer too). */
export function readNumber(
  reader: JsonReader,
  value: unknown,
  at: string,
  options: { required?: boolean; nullable?: boolean } = {},
): number | undefined {
  if (value === undefined || (value === null && options.nullable === true))
    return options.required === true ? reader.issue(at, 'is required (a number)') : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    return reader.issue(at, `expected a number, got ${describeValue(value)}`);
  return value;
}

/** A list field; `nullable` fields take null as absent. */
export function readList(
  reader: JsonReader,
  value: unknown,
  at: string,
  options: { required?: boolean; nullable?: boolean } = {},
): unknown[] | undefined {
  if (value === undefined || (value === null && options.nullable === true))
    return options.required === true ? reader.issue(at, 'is required (a list)') : undefined;
  return reader.array(value, at);
}

/** An object of any JSON (a state, tool arguments); `nullable` fields take null as absent. */
export function readRecord(
  reader: JsonReader,
  value: unknown,
  at: string,
  options: { required?: boolean; nullable?: boolean } = {},
): Record<string, unknown> | undefined {
  if (value === undefined || (value === null && options.nullable === true))
    return options.required === true ? reader.issue(at, 'is required (an object)') : undefined;
  return reader.object(value, at);
}
