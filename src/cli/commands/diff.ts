import { UsageError } from '../../contracts/errors/usage-error.js';
import { diffRequests, type RequestDiff } from '../../engine/assembly/diff-requests.js';
import { parseCaseFile } from '../../presets/case-file.js';
import { nodeAgentFiles } from '../agent-files.js';
import { parseCommandArgs } from '../args.js';
import { assembleCaseForModel } from '../assemble-case.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { createStyle, type Style } from '../style.js';

const HELP = `Usage: agentctx diff <case-a> <case-b> [--json]

Builds the request of two case files (see 'agentctx inspect --help') and
compares them field by field: whether system, tools, messages and config are
byte-identical, where they first differ, and how many characters the two share
from the start (what a provider's prompt cache could reuse).

Exit status: 0 when the requests are identical, 1 when they differ, 2 for bad input.

Example:
  agentctx diff examples/docs-check/loaded-memory-off.yaml examples/docs-check/loaded-memory-on.yaml
`;

export const diffCommand: Command = {
  name: 'diff',
  summary: 'compare the requests of two case files field by field',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs('diff', args, { json: { type: 'boolean' } });
    if (positionals.length !== 2) throw new UsageError(`diff compares two case files, got ${positionals.length}.`, "Run 'agentctx diff --help'.");
    const [left, right] = await Promise.all(positionals.map((file) => requestOf(file, io)));
    const diff = diffRequests(left ?? never(), right ?? never());
    io.stdout(values.json === true ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(positionals as [string, string], diff, createStyle(io.isTty)));
    return diff.identical ? 0 : 1;
  },
};

async function requestOf(file: string, io: CliIo) {
  const { value } = await loadDocumentFile(file, io.cwd);
  const caseFile = await parseCaseFile(value, { filename: file, load: relativeLoader(io.cwd), files: nodeAgentFiles(io.cwd) });
  return (await assembleCaseForModel(caseFile)).request;
}

function never(): never {
  throw new Error('unreachable');
}

function formatDiff([left, right]: [string, string], diff: RequestDiff, style: Style): string {
  const same = (text: string) => style.green(text);
  const differs = (text: string) => style.yellow(text);
  const lines = [style.bold(`a: ${left}`), style.bold(`b: ${right}`), ''];
  lines.push(`system    ${diff.system.identical ? same(`byte-identical (${diff.system.a} chars)`) : differs(`differs from char ${diff.system.firstDifference} (${diff.system.a} vs ${diff.system.b} chars)`)}`);
  lines.push(`tools     ${diff.tools.identical ? same(`byte-identical (${diff.tools.a} tools)`) : differs(`differ: ${diff.tools.differing.join(', ')} (${diff.tools.a} vs ${diff.tools.b} tools)`)}`);
  lines.push(`messages  ${diff.messages.identical ? same(`byte-identical (${diff.messages.a} messages)`) : differs(`differ from ${diff.messages.firstDifference} (${diff.messages.a} vs ${diff.messages.b} messages)`)}`);
  lines.push(`config    ${diff.config.identical ? same('byte-identical') : differs('differs')}`);
  const share = diff.commonPrefix.of === 0 ? 100 : Math.round((diff.commonPrefix.chars / diff.commonPrefix.of) * 100);
  lines.push('', `common prefix: ${diff.commonPrefix.chars} of ${diff.commonPrefix.of} chars (${share}%), what a prompt cache could reuse`);
  lines.push(diff.identical ? same('the requests are identical') : differs('the requests differ'));
  return `${lines.join('\n')}\n`;
}
