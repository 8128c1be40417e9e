import { setOwn } from '../../engine/util/copy-value.js';
import { type JsonReader, closest, describeValue, joinPath } from '../../engine/util/json-reader.js';

/** The snake_case name of a camelCase one (pydantic's `to_camel` backwards): `evalSetId` → `eval_set_id`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
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
  model: string,
  names: readonly string[],
  extras: 'forbid' | 'allow',
): AdkFields {
  const values: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  const spellings = names.map(snakeCase);
  for (const [key, value] of Object.entries(record)) {
    const name = names.includes(key) ? key : names[spellings.indexOf(key)];
    if (name === undefined) {
      if (extras === 'allow') {
        setOwn(extra, key, value);
        continue;
      }
      const guess = closest(key, [...spellings, ...names]);
      reader.issue(
        joinPath(path, key),
        `unknown field${guess === undefined ? '' : ` (did you mean '${guess}'?)`}; ADK's ${model} has ${spellings.join(', ')} (or their camelCase forms)`,
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
