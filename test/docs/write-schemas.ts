// Writes assets/schema/ (agent files, case files, scripts, price tables, ADK eval files) and docs/agent-file.md from
// the field tables.
// Run: npm run schema:write
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { priceTableSchema } from '../../src/analysis/cost/price-table-schema.js';
import {
  evalConfigFileSchema,
  evalSetFileSchema,
  legacyEvalFileSchema,
} from '../../src/analysis/eval/eval-file-schemas.js';
import { scriptFileSchema } from '../../src/models/scripted/script-schema.js';
import { agentFileSchema, caseFileSchema } from '../../src/presets/file-schemas.js';
import { renderAgentFileDoc } from './agent-file-doc.js';

const root = new URL('../..', import.meta.url).pathname;
mkdirSync(join(root, 'assets', 'schema'), { recursive: true });
writeFileSync(
  join(root, 'assets', 'schema', 'agent-file.schema.json'),
  `${JSON.stringify(agentFileSchema(), null, 2)}\n`,
);
writeFileSync(
  join(root, 'assets', 'schema', 'case-file.schema.json'),
  `${JSON.stringify(caseFileSchema(), null, 2)}\n`,
);
writeFileSync(join(root, 'assets', 'schema', 'script.schema.json'), `${JSON.stringify(scriptFileSchema(), null, 2)}\n`);
writeFileSync(join(root, 'assets', 'schema', 'prices.schema.json'), `${JSON.stringify(priceTableSchema(), null, 2)}\n`);
for (const [name, schema] of [
  ['eval-set', evalSetFileSchema()],
  ['eval-test', legacyEvalFileSchema()],
  ['eval-config', evalConfigFileSchema()],
] as const)
  writeFileSync(join(root, 'assets', 'schema', `${name}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
writeFileSync(join(root, 'docs', 'agent-file.md'), renderAgentFileDoc(agentFileSchema(), caseFileSchema()));
console.log(
  'wrote assets/schema/agent-file.schema.json, case-file.schema.json, script.schema.json, prices.schema.json, eval-set.schema.json, eval-test.schema.json, eval-config.schema.json, docs/agent-file.md',
);
