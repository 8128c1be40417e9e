import { UsageError } from '../../contracts/errors/usage-error.js';
import { recordTextReader } from '../../engine/session/artifact-rules.js';
import {
  checkTemplate,
  type TemplatePlaceholder,
  type TemplateReport,
} from '../../features/templating/check-template.js';
import { injectState } from '../../features/templating/inject-state.js';
import { lintAgentTree, type ContextWarning } from '../../features/lint/context-lint.js';
import { parseCommandArgs } from '../args.js';
import { plural } from '../format-request.js';
import type { CliIo, Command } from '../io.js';
import { createStyle, type Style } from '../style.js';
import { lineColumn } from '../text-position.js';
import { readCheckInput, readStateFile, type CheckInput } from './check-input.js';
import { BINDINGS_HELP, loadBindings } from '../bindings-option.js';

const HELP = `Usage: agentctx check <file> [options]

Shows what the {placeholders} of instruction templates will do before a model
ever sees them: each placeholder with its scope and whether it resolves, every
piece of brace text that will reach the model exactly as written, and the text
each template renders to.

<file> is one of
  an agent file or a case file: every agent's instruction and globalInstruction
    (with a case's state and artifacts), and a context lint of the tree (below)
  a template file (.txt, .md, anything but YAML/JSON): the whole file is one template
  a check file (.yaml, .yml, .json) with these fields:
    template:    one template text            templates:  name → template text
    state:       the state the templates read, app:/user:/temp: keys included
    artifacts:   artifact name → text, for {artifact.name}
    valueFormat: default | python              escapes:    true to read \\{ and \\} as literal braces

Placeholders (ADK's rules):
  {key}  {key?}  {app:key}  {user:key}  {temp:key}  {state.key}  {artifact.name}
  A name that is not an identifier ({not a key}, {"json": 1}) is left as written.
  Doubled braces are not an escape: {{key}} is replaced like {key}.

Context lint (agent and case files); each warning names
the agent, the field, the text and the fix, and none changes the exit status:
  self-introduction   the instruction introduces the agent by its name, which
                      the identity text already says
  transfer-list       the instruction lists transfer targets by hand, or
                      explains transfer_to_agent: the transfer text does both
  literal-braces      a required {placeholder} nothing in the file writes (no
                      state given, no outputKey): braces meant literally belong
                      in staticInstruction, or behind escapes
  description-missing / description-instruction-like
                      a description other agents read (transfer list, agent
                      tool) that is empty, or reads like an instruction
  volatile-in-prefix  a value that changes per call in the system text, the
                      start of the prefix providers cache: a {placeholder}
                      whose key name says so (current_time, today, now,
                      timestamp, uuid, nonce, counter, request_id, any temp:
                      key) or an instruction provider; set a staticInstruction
                      so the instruction is sent after the cached prefix

Options:
  --state <file>         YAML/JSON mapping of state values, merged over the file's own state
  --value-format <name>  default (JavaScript: JSON for objects) or python (ADK's str())
  --escapes              read \\{ and \\} as literal braces
  --json                 print the report as JSON
${BINDINGS_HELP}
  -h, --help             show this help

Exit status: 0 when every required placeholder resolves (or no state was given),
1 when one would fail at run time, 2 when the input cannot be read.

Examples:
  agentctx check examples/check/welcome.yaml
  agentctx check examples/draft-and-review/pipeline.yaml --json
  agentctx check prompts/reviewer.md --state state.json
`;

type TemplateResult = { name: string; text: string; report: TemplateReport; rendered?: string };

export const checkCommand: Command = {
  name: 'check',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs('check', args, {
      state: { type: 'string' },
      'value-format': { type: 'string' },
      escapes: { type: 'boolean' },
      json: { type: 'boolean' },
      bindings: { type: 'string' },
    });
    const [file, ...extra] = positionals;
    if (file === undefined)
      throw new UsageError('check needs a file to check.', "Run 'agentctx check --help' for the file format.");
    if (extra.length > 0)
      throw new UsageError(`check takes one file, got ${positionals.length}.`, 'Check them one at a time.');
    const format = values['value-format'];
    if (format !== undefined && format !== 'default' && format !== 'python') {
      throw new UsageError(`--value-format must be 'default' or 'python', got '${format}'.`);
    }

    const input = await readCheckInput(file, io.cwd, {
      warn: (message) => io.stderr(`warning: ${message}\n`),
      bindings: await loadBindings(values.bindings, io.cwd),
    });
    if (format !== undefined) input.valueFormat = format;
    if (values.escapes === true) input.escapes = true;
    if (values.state !== undefined) {
      const extraState = await readStateFile(values.state, io.cwd, input.valueFormat === 'python');
      input.state = { ...input.state, ...extraState };
    }
    const results = await checkAll(input);
    const ok = results.every((result) => result.report.ok);
    const warnings =
      input.tree === undefined ? [] : lintAgentTree(input.tree, { state: input.state, escapes: input.escapes });
    if (values.json === true) {
      io.stdout(
        `${JSON.stringify({ file, ok, templates: results, ...(input.tree === undefined ? {} : { warnings }), ...(input.adkRefusals === undefined ? {} : { adkRefusals: input.adkRefusals }) }, null, 2)}\n`,
      );
    } else {
      const style = createStyle(io.isTty);
      io.stdout(formatResults(file, input, results, style));
      if (input.tree !== undefined) io.stdout(formatWarnings(warnings, style));
      for (const refusal of input.adkRefusals ?? [])
        io.stdout(`${style.yellow('⚠')} ADK would refuse this file: ${refusal}\n`);
    }
    return ok ? 0 : 1;
  },
};

async function checkAll(input: CheckInput): Promise<TemplateResult[]> {
  const artifactNames = input.artifacts === undefined ? undefined : Object.keys(input.artifacts);
  const results: TemplateResult[] = [];
  for (const template of input.templates) {
    const report = checkTemplate(template.text, { state: input.state, artifactNames, escapes: input.escapes });
    const result: TemplateResult = { ...template, report };
    if (report.ok && input.state !== undefined) {
      result.rendered = await injectState(template.text, {
        state: input.state,
        artifacts: input.artifacts === undefined ? undefined : recordTextReader(input.artifacts),
        valueFormat: input.valueFormat,
        escapes: input.escapes,
      });
    }
    results.push(result);
  }
  return results;
}

function formatResults(file: string, input: CheckInput, results: TemplateResult[], style: Style): string {
  const placeholderCount = results.reduce((sum, result) => sum + result.report.placeholders.length, 0);
  const lines = [
    style.bold(`${file}: ${plural(results.length, 'template')}, ${plural(placeholderCount, 'placeholder')}`),
  ];
  for (const result of results) {
    lines.push('', style.bold(style.cyan(result.name)));
    const rows = result.report.placeholders.map((placeholder) => [
      position(result.text, placeholder.start),
      placeholder.text,
      placeholder.scope,
      describeStatus(placeholder, style),
    ]);
    if (rows.length === 0) lines.push(style.dim('  no placeholders'));
    lines.push(...table(rows).map((row) => `  ${row}`));
    if (result.report.literals.length > 0) {
      lines.push(style.dim('  left as written:'));
      const literalRows = result.report.literals.map((literal) => [
        position(result.text, literal.start),
        literal.text,
        literal.reason === 'not-a-name' ? 'not a state name or artifact' : 'brace without a partner',
      ]);
      lines.push(...table(literalRows).map((row) => `  ${row}`));
    }
    for (const note of result.report.notes)
      lines.push(`  ${style.yellow('note')} ${position(result.text, note.start)}: ${note.message}`);
    if (result.rendered !== undefined) {
      lines.push(style.dim('  renders as:'));
      for (const line of result.rendered.replace(/\n$/, '').split('\n')) lines.push(`  ${style.dim('│')} ${line}`);
    }
  }
  const missing = results.flatMap((result) =>
    result.report.placeholders
      .filter((p) => p.status === 'missing' || p.status === 'no-artifact-store')
      .map((p) => `${p.text} in ${result.name}`),
  );
  lines.push('');
  if (missing.length > 0)
    lines.push(
      style.red(`✗ ${plural(missing.length, 'required placeholder')} would fail at run time: ${missing.join(', ')}`),
    );
  else if (input.state === undefined)
    lines.push(style.dim('no state given: placeholders were listed, not resolved (use --state or a check file)'));
  else lines.push(style.green('✓ every required placeholder resolves'));
  return `${lines.join('\n')}\n`;
}

// The context lint's warnings: each names the agent, the field, the text and the fix. They do not change the exit status.
function formatWarnings(warnings: readonly ContextWarning[], style: Style): string {
  if (warnings.length === 0)
    return `${style.green('✓ context lint: nothing restates what agentctx writes itself, and every description is written for its readers')}\n`;
  const lines = ['', style.bold(`context lint: ${plural(warnings.length, 'warning')}`)];
  for (const warning of warnings) {
    const quoted =
      warning.text === ''
        ? ''
        : ` ${JSON.stringify(warning.text.length > 80 ? `${warning.text.slice(0, 77)}…` : warning.text)}`;
    lines.push(
      `${style.yellow('⚠')} ${warning.agent}.${warning.field}${quoted} ${style.dim(`[${warning.rule}]`)}`,
      `  ${warning.message}.`,
      `  ${style.dim('fix:')} ${warning.fix}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function describeStatus(placeholder: TemplatePlaceholder, style: Style): string {
  const alias = placeholder.alias ? ' (written as state.key)' : '';
  switch (placeholder.status) {
    case 'resolves':
      return style.green(`resolves${alias}`);
    case 'optional-missing':
      return style.dim(`optional, not set → empty${alias}`);
    case 'missing':
      return style.red(`missing: not in state${alias}`);
    case 'no-artifact-store':
      return style.red('no artifacts given: would fail');
    case 'unchecked':
      return style.dim(`${placeholder.optional ? 'optional' : 'required'}${alias}`);
  }
}

function position(text: string, offset: number): string {
  const { line, column } = lineColumn(text, offset);
  return `${line}:${column}`;
}

// Left-aligned columns; widths measured before styling so escape codes do not skew them.
function table(rows: string[][]): string[] {
  const widths: number[] = [];
  const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');
  for (const row of rows)
    row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, plain(cell).length)));
  return rows.map((row) =>
    row
      .map((cell, index) =>
        index === row.length - 1 ? cell : cell + ' '.repeat((widths[index] ?? 0) - plain(cell).length),
      )
      .join('  '),
  );
}
