import { UsageError } from '../../contracts/errors/usage-error.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { SessionKey } from '../../contracts/session.js';
import { diffRequests, type RequestDiff } from '../../engine/assembly/diff-requests.js';
import { parseCaseFile } from '../../presets/case-file.js';
import { mcpStartConsent, nodeAgentFiles } from '../agent-files.js';
import { parseCommandArgs } from '../args.js';
import { assembleCaseForModel } from '../assemble-case.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { openRecordedSession, recordedCall, requireSession, type RecordedSessionOptions } from '../recorded-session.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle, type Style } from '../style.js';

const HELP = `Usage: agentctx diff <case-a> <case-b> [--json]
       agentctx diff [<agent-file>] --session <id> --call <a> --call <b> [options]
       agentctx diff [<agent-file>] --session <id> --session <id2> --call <n> [--call <m>]

Compares two requests field by field: whether system, tools, messages and
config are byte-identical, where they first differ, and how many characters the
two share from the start (what a provider's prompt cache could reuse).

The two requests are either built from two case files (see 'agentctx inspect
--help'), or read from recorded calls: two calls of one session, or calls of
two sessions (with one --call, the same call of each).

Options:
  --session <id>  a recorded session (give it twice to compare two sessions)
  --call <n>      a recorded call (1 is the first; give two for one session)
  --app <name>    the app of the sessions (default: the agent file's root agent)
  --user <id>     the user of the sessions (default: user)
  --store <path>  SQLite file or postgres:// URL of the sessions
                  (default: .agentctx/agentctx.db)
  --json          print the comparison as JSON
  --start-mcp     case files: start their agents' MCP stdio servers (also
                  AGENTCTX_START_MCP=1); without it, asked at a terminal and
                  refused elsewhere

Exit status: 0 when the requests are identical, 1 when they differ, 2 for bad input.

Examples:
  agentctx diff examples/docs-check/loaded-memory-off.yaml examples/docs-check/loaded-memory-on.yaml
  agentctx diff examples/draft-and-review/pipeline.yaml --session demo --call 1 --call 2
`;

export const diffCommand: Command = {
  name: 'diff',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('diff', args, {
      json: { type: 'boolean' },
      'start-mcp': { type: 'boolean' },
      session: { type: 'string', multiple: true },
      call: { type: 'string', multiple: true },
      app: { type: 'string' },
      user: { type: 'string' },
      store: { type: 'string' },
    });
    const [left, right] =
      values.session === undefined && values.call === undefined
        ? await caseRequests(positionals, values, io)
        : await recordedRequests(positionals, values, io, runtime);
    const diff = diffRequests(left.request, right.request);
    io.stdout(
      values.json === true
        ? `${JSON.stringify(diff, null, 2)}\n`
        : formatDiff([left.label, right.label], diff, createStyle(io.isTty)),
    );
    return diff.identical ? 0 : 1;
  },
};

type Side = { label: string; request: LlmRequest };

async function caseRequests(
  files: string[],
  values: {
    app?: string | undefined;
    user?: string | undefined;
    store?: string | undefined;
    'start-mcp'?: boolean | undefined;
  },
  io: CliIo,
): Promise<[Side, Side]> {
  if (files.length !== 2)
    throw new UsageError(
      `diff compares two case files, got ${files.length}.`,
      "Or compare recorded calls with --session and --call; run 'agentctx diff --help'.",
    );
  for (const flag of ['app', 'user', 'store'] as const) {
    if (values[flag] !== undefined)
      throw new UsageError(`--${flag} goes with --session: case files carry their own situation.`);
  }
  const [left, right] = await Promise.all(
    files.map(
      async (file): Promise<Side> => ({ label: file, request: await caseRequest(file, io, values['start-mcp']) }),
    ),
  );
  return [left as Side, right as Side];
}

async function caseRequest(file: string, io: CliIo, startMcp: boolean | undefined): Promise<LlmRequest> {
  const { value } = await loadDocumentFile(file, io.cwd);
  const caseFile = await parseCaseFile(value, {
    filename: file,
    load: relativeLoader(io.cwd),
    files: nodeAgentFiles(io.cwd, mcpStartConsent(startMcp, io)),
  });
  return (await assembleCaseForModel(caseFile)).request;
}

/** Two recorded calls: two of one session, or one of each of two sessions (the same index when one is given). */
async function recordedRequests(
  files: string[],
  values: Omit<RecordedSessionOptions, 'session'> & { session?: string[] | undefined; call?: string[] | undefined },
  io: CliIo,
  runtime: CliRuntime,
): Promise<[Side, Side]> {
  if (files.length > 1)
    throw new UsageError(
      `diff of recorded calls takes at most one agent file (for the app), got ${files.length}.`,
      "Run 'agentctx diff --help'.",
    );
  const sessions = values.session ?? [];
  const calls = values.call ?? [];
  if (sessions.length === 0 || sessions.length > 2)
    throw new UsageError(
      `Name one session (two calls of it) or two sessions with --session, got ${sessions.length}.`,
      "Run 'agentctx diff --help'.",
    );
  const callCount = sessions.length === 1 ? [2] : [1, 2];
  if (!callCount.includes(calls.length)) {
    throw new UsageError(
      sessions.length === 1
        ? `Comparing calls of one session takes two --call options, got ${calls.length}.`
        : `Comparing two sessions takes one --call (the same call of each) or two, got ${calls.length}.`,
      "For example: --session demo --call 1 --call 2; run 'agentctx diff --help'.",
    );
  }
  const { store, key } = await openRecordedSession(files[0], { ...values, session: sessions[0] }, io.cwd, runtime);
  const otherKey = { ...key, sessionId: sessions[1] ?? key.sessionId };
  if (sessions[1] !== undefined) await requireSession(store, otherKey);
  const [first = '', second = first] = calls;
  const side = async (sessionKey: SessionKey, call: string): Promise<Side> => ({
    label: `session ${sessionKey.sessionId}, call ${call}`,
    request: (await recordedCall(store, sessionKey, call)).request,
  });
  return [await side(key, first), await side(otherKey, second)];
}

function formatDiff([left, right]: [string, string], diff: RequestDiff, style: Style): string {
  const same = (text: string) => style.green(text);
  const differs = (text: string) => style.yellow(text);
  const lines = [style.bold(`a: ${left}`), style.bold(`b: ${right}`), ''];
  lines.push(
    `system    ${diff.system.identical ? same(`byte-identical (${diff.system.a} chars)`) : differs(`differs from char ${diff.system.firstDifference} (${diff.system.a} vs ${diff.system.b} chars)`)}`,
  );
  lines.push(
    `tools     ${diff.tools.identical ? same(`byte-identical (${diff.tools.a} tool${diff.tools.a === 1 ? '' : 's'})`) : differs(`differ: ${diff.tools.differing.join(', ')} (${diff.tools.a} vs ${diff.tools.b} tools)`)}`,
  );
  lines.push(
    `messages  ${diff.messages.identical ? same(`byte-identical (${diff.messages.a} messages)`) : differs(`differ from ${diff.messages.firstDifference} (${diff.messages.a} vs ${diff.messages.b} messages)`)}`,
  );
  lines.push(`config    ${diff.config.identical ? same('byte-identical') : differs('differs')}`);
  const share = diff.commonPrefix.of === 0 ? 100 : Math.round((diff.commonPrefix.chars / diff.commonPrefix.of) * 100);
  lines.push(
    '',
    `common prefix: ${diff.commonPrefix.chars} of ${diff.commonPrefix.of} chars (${share}%), what a prompt cache could reuse`,
  );
  lines.push(diff.identical ? same('the requests are identical') : differs('the requests differ'));
  return `${lines.join('\n')}\n`;
}
