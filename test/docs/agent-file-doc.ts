import type { JsonSchema } from '../../src/engine/config/agent-file-schema.js';
import { stringifyYaml } from './yaml.js';

// docs/agent-file.md, rendered from the published schemas: every field of an agent file and a case file, its type,
// what it does and an example. `npm run schema:write` writes it; test/docs/schemas.test.ts fails when it is stale.

type Schema = JsonSchema & {
  properties?: Record<string, Schema>;
  description?: string;
  examples?: unknown[];
  enum?: unknown[];
  type?: string;
  anyOf?: Schema[];
  items?: Schema;
  $ref?: string;
};

export function renderAgentFileDoc(agentSchema: JsonSchema, caseSchema: JsonSchema): string {
  const agent = ((agentSchema as { $defs: Record<string, Schema> }).$defs['agent'] ?? {}) as Schema;
  const caseFields = ((caseSchema as Schema).properties ?? {}) as Record<string, Schema>;
  const example = ((agentSchema as Schema).examples ?? [])[0];
  const lines = [
    '# Agent files and case files',
    '',
    '<!-- Generated from the schemas by `npm run schema:write`: edit the field tables in src/, not this file. -->',
    '',
    'An **agent file** (YAML or JSON) defines an agent tree: what `agentctx run` and `serve` run, and what `inspect`,',
    '`diff`, `check` and `compact` read (as the case of its agent in an empty session). A **case file** wraps an agent',
    '(inline, or the path of an agent file) in a situation: state, artifacts, events, who is asked. Each command takes',
    'either, and unknown fields are errors with the nearest known one suggested.',
    '',
    '`agentctx schema agent` and `agentctx schema case` print the JSON Schemas; the package ships them in',
    '`assets/schema/`. A YAML file whose first line names one is completed and checked by editors that use',
    'yaml-language-server:',
    '',
    '```yaml',
    '# yaml-language-server: $schema=node_modules/agentctx/assets/schema/agent-file.schema.json',
    stringifyYaml(example).trimEnd(),
    '```',
    '',
    '## Agent fields',
    '',
    'ADK\u2019s snake_case spellings (`sub_agents`, `agent_class`, `static_instruction`, …) are read as the fields they name.',
    '',
    '| field | type | what it does |',
    '|---|---|---|',
    ...fieldRows(agent.properties ?? {}),
    '',
    'A sub-agent may also be `{ configPath: other-file.yaml }` (ADK\u2019s `config_path`), relative to the file naming it.',
    'It must name a `.yaml`, `.yml` or `.json` file; anything else is refused unread.',
    '',
    ...examplesOf(agent.properties ?? {}),
    '## Case fields',
    '',
    '| field | type | what it does |',
    '|---|---|---|',
    ...fieldRows(caseFields),
    '',
    ...examplesOf(caseFields),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

// The camelCase fields only: a snake_case spelling is described as the field it stands for.
function fieldRows(fields: Record<string, Schema>): string[] {
  return Object.entries(fields)
    .filter(([, schema]) => !String(schema.description ?? '').startsWith("ADK's spelling of"))
    .map(([name, schema]) => `| \`${name}\` | ${typeOf(schema)} | ${cell(schema.description ?? '')} |`);
}

function examplesOf(fields: Record<string, Schema>): string[] {
  const lines: string[] = [];
  for (const [name, schema] of Object.entries(fields)) {
    // A field without an example of its own shows a value it takes: an enum's last, or true for a flag.
    const example = schema.examples?.[0] ?? schema.enum?.at(-1) ?? (schema.type === 'boolean' ? true : undefined);
    if (example === undefined || String(schema.description ?? '').startsWith("ADK's spelling of")) continue;
    lines.push(`\`${name}\`:`, '', '```yaml', stringifyYaml({ [name]: example }).trimEnd(), '```', '');
  }
  return lines;
}

function typeOf(schema: Schema): string {
  if (schema.enum !== undefined) return schema.enum.map((value) => `\`${String(value)}\``).join(' \\| ');
  if (schema.$ref !== undefined) return schema.$ref.replace('#/$defs/', '');
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array') return `list of ${schema.items === undefined ? 'values' : typeOf(schema.items)}`;
  if (schema.type === 'object' && schema.properties !== undefined)
    return `mapping: ${Object.keys(schema.properties)
      .filter((key) => !key.includes('_'))
      .join(', ')}`;
  return schema.type ?? 'any';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
