import { UsageError } from '../../contracts/errors/usage-error.js';
import { priceTableSchema } from '../../analysis/cost/price-table-schema.js';
import {
  evalConfigFileSchema,
  evalSetFileSchema,
  legacyEvalFileSchema,
} from '../../analysis/eval/eval-file-schemas.js';
import { scriptFileSchema } from '../../models/scripted/script-schema.js';
import { agentFileSchema, caseFileSchema } from '../../presets/file-schemas.js';
import { parseCommandArgs } from '../args.js';
import type { CliIo, Command } from '../io.js';

const HELP = `Usage: agentctx schema agent|case|script|prices|evalset|eval-test|eval-config

Prints the JSON Schema (draft 2020-12) of agent files, case files, the
scripted model's scripts (docs/scripted-model.md), price tables (the
--prices file of 'agentctx cost'; assets/prices.json is one) or the ADK eval
files 'agentctx eval' reads: eval sets (.evalset.json), legacy .test.json
lists and test_config.json (docs/evaluation.md). Each gives every
field, its type and what it does, ADK's snake_case spellings included. It is
built from the same tables the readers check files against, so a file the
schema accepts has no unknown field, and the package ships every schema in
assets/schema/ for editors.

Editors that read YAML through yaml-language-server (VS Code's YAML extension,
among others) complete and check a file that starts with a line naming it:
  # yaml-language-server: $schema=node_modules/agentctx/assets/schema/agent-file.schema.json

docs/agent-file.md documents every field with an example. A JSON file names its
schema with a "$schema" key: eval sets and test_config.json take one too.

Examples:
  agentctx schema agent > agent-file.schema.json
  agentctx schema case
  agentctx schema evalset > eval-set.schema.json
`;

const SCHEMAS = {
  agent: agentFileSchema,
  case: caseFileSchema,
  script: scriptFileSchema,
  prices: priceTableSchema,
  evalset: evalSetFileSchema,
  'eval-test': legacyEvalFileSchema,
  'eval-config': evalConfigFileSchema,
} as const;

export const schemaCommand: Command = {
  name: 'schema',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const { positionals } = parseCommandArgs('schema', args, {});
    const [which, ...extra] = positionals;
    if (which === undefined || extra.length > 0 || !(which in SCHEMAS)) {
      throw new UsageError(
        `schema takes agent, case, script, prices, evalset, eval-test or eval-config, got ${positionals.length === 0 ? 'nothing' : `'${positionals.join(' ')}'`}.`,
        "For example: agentctx schema agent; see 'agentctx schema --help'.",
      );
    }
    io.stdout(`${JSON.stringify(SCHEMAS[which as keyof typeof SCHEMAS](), null, 2)}\n`);
    return 0;
  },
};
