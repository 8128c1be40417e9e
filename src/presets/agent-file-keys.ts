import type { AgentFileField } from '../contracts/agent-file-field.js';
import { ADK_SPELLINGS, snakeCase } from '../engine/config/agent-file-schema.js';

// The keys of an agent file: a feature's own, and ADK's snake_case spellings read as agentctx's camelCase.

/** The keys a feature's field reads: all of them, or only the deprecated ones (`true`) or only the current ones (`false`). */
export function fieldKeys(field: AgentFileField, deprecated?: boolean): string[] {
  return Object.keys(field.schema).filter(
    (key) => deprecated === undefined || (field.schema[key]?.['deprecated'] === true) === deprecated,
  );
}

export function normalizeKeys(
  record: Record<string, unknown>,
  fields: readonly AgentFileField[],
): Record<string, unknown> {
  const aliases = new Map<string, string>(Object.entries(ADK_SPELLINGS));
  for (const key of fields.flatMap((field) => fieldKeys(field)))
    if (!aliases.has(snakeCase(key))) aliases.set(snakeCase(key), key);
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [aliases.get(key) ?? key, value]));
}
