import type { ValidationIssue } from '../contracts/errors/validation-error.js';
import {
  ADK_SPELLINGS,
  GENERATE_CONFIG_FIELDS,
  LLM_FIELD_SCHEMAS,
  REFERENCE_FIELD_SCHEMAS,
  snakeCase,
  WORKFLOW_FIELD_SCHEMAS,
} from '../engine/config/agent-file-schema.js';
import { isPlainRecord } from '../engine/util/json-reader.js';

// The keys that say a file is written in ADK's spelling (snake_case), as ADK's own files are.
const ADK_KEYS = [
  'sub_agents',
  'agent_class',
  'generate_content_config',
  'output_key',
  'output_schema',
  'include_contents',
];

// agentctx's camelCase names → ADK's spelling, where it is not plain snake_case (generateConfig).
const ADK_NAME: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ADK_SPELLINGS)
    .filter(([spelling]) => spelling.includes('_'))
    .map(([spelling, key]) => [key, spelling]),
);

/** Whether an agent file is written in ADK's spelling. */
export function isAdkSpelled(value: unknown): boolean {
  return isPlainRecord(value) && ADK_KEYS.some((key) => Object.hasOwn(value, key));
}

// The fields agentctx reads under a camelCase name that ADK spells in snake_case; any other name (one the file wrote
// that no field has) is shown as written.
const FIELDS = new Set([
  ...Object.keys(LLM_FIELD_SCHEMAS),
  ...Object.keys(WORKFLOW_FIELD_SCHEMAS),
  ...Object.keys(REFERENCE_FIELD_SCHEMAS),
  ...GENERATE_CONFIG_FIELDS,
  'thinkingBudget',
  'includeThoughts',
  'thinkingLevel',
  'functionCallingConfig',
  'allowedFunctionNames',
]);

function adkName(name: string): string {
  if (Object.hasOwn(ADK_NAME, name)) return ADK_NAME[name] ?? name;
  return FIELDS.has(name) ? snakeCase(name) : name;
}

/**
 * A file's problems in the spelling it is written in: the fields of their paths, the field a misspelling may have
 * meant, and the fields allowed, in snake_case (`generate_content_config.safety_settings[0].category`). A path that
 * starts with another file's name was spelled when that file was read.
 */
export function inAdkSpelling(issue: ValidationIssue): ValidationIssue {
  if (/^.*\.(?:ya?ml|json)(?:: |$)/.test(issue.path)) return issue;
  const path = issue.path.replace(/[A-Za-z_]\w*/g, adkName);
  const message = issue.message
    .replace(/did you mean '([^']+)'/g, (_, name: string) => `did you mean '${adkName(name)}'`)
    .replace(/allowed: ([\w, ]+)/g, (_, names: string) => `allowed: ${names.split(', ').map(adkName).join(', ')}`);
  return { ...issue, path, message };
}
