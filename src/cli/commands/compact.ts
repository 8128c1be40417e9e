import type { EventsCompactionConfig } from '../../contracts/compaction.js';
import { UsageError } from '../../contracts/errors/usage-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { parseCompactionConfig } from '../../features/compaction/compaction-config.js';
import { caseProfile, parseCaseFile } from '../../presets/case-file.js';
import { mcpStartConsent, nodeAgentFiles } from '../agent-files.js';
import { parseCommandArgs } from '../args.js';
import { previewCaseCompaction } from '../compact-case.js';
import { compactSession } from '../compact-session.js';
import { compactionJson, formatPreview } from '../format-compaction.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle } from '../style.js';

const HELP = `Usage: agentctx compact <case-file> --dry-run [options]
       agentctx compact <agent-file> --session <id> [--dry-run] [options]

Compaction keeps long sessions affordable: a run of older events is replaced,
in every later request, by one summary. The summary is a compaction event
appended to the session; the raw events stay stored. Two triggers decide when
(ADK's EventsCompactionConfig); either may be used alone:

  sliding window   once --interval N invocations (user turns and all they
                   caused) have finished since the last summary, summarize
                   them, reaching --overlap N invocations back so consecutive
                   summaries overlap
  token threshold  once the prompt reaches --threshold N tokens, summarize
                   everything since the last summary except the last
                   --retention N events; a tool call is never split from its
                   response, and (agentctx rules) the user message of the turn
                   still running is never summarized

When both are due, the token trigger wins. The prompt is measured as the runner
measures it. agentctx rules: the larger of the local o200k count of the request
and the latest billed prompt since the last summary (a stored session: the
latest billed prompt, else the local count of its conversation). The adk
profile (--adk, ADK's rules): the latest billed prompt, else characters / 4.

A case file (see 'agentctx inspect --help') carries the configuration:
  eventsCompactionConfig:
    compactionInterval: 3     # or ADK's compaction_interval, and so on
    overlapSize: 1
    tokenThreshold: 4000
    eventRetentionSize: 6
  profile: agentctx           # adk: ADK's rules, here and in 'inspect'
Case files are only planned (--dry-run): the report shows the trigger, every
event the summary would stand for, its time range, and the request's tokens
before and after (after: with the summary the offline extractive summarizer
writes). A session kept by 'agentctx run' is planned the same way with
--dry-run, and compacted without it.

Options:
  --dry-run           show what would be summarized now; write nothing
  --interval <n>      compactionInterval: invocations per window
  --overlap <n>       overlapSize: invocations a window reaches back
  --threshold <n>     tokenThreshold: prompt tokens that set off a summary
  --retention <n>     eventRetentionSize: latest events kept as they are
  --adk               the adk profile (ADK's rules): summaries placed by
                      timestamp, the running turn's message may be summarized,
                      ADK's token measure; a case file keeps its valueFormat
  --agent <name>      case files: the agent being asked (default: currentAgent)
  --start-mcp         case files: start the agent's MCP stdio servers (also
                      AGENTCTX_START_MCP=1); without it, asked at a terminal and
                      refused elsewhere
  --session <id>      a stored session instead of a case file
  --app <name>        its app (default: the agent file's root agent)
  --user <id>         its user (default: user)
  --store <path>      SQLite file of the sessions (default: ${DEFAULT_STORE})
  --summarizer <s>    who writes a real summary: extractive (default; offline,
                      the conversation's lines shortened) or model (the agent
                      file's model, as the runner would ask it)
  --model <name>      with --summarizer model: this model instead
  --json              print { "compactions": [ { "startTimestamp",
                      "endTimestamp", "eventIds", "trigger", … } ] }, an empty
                      list when nothing is due
  -h, --help          show this help

The flags override the case file's settings, field by field.
Exit status: 0 done (also when nothing is due), 1 the summarizer failed or the
session changed while it ran, 2 bad input.

Examples:
  agentctx compact examples/compaction/long-chat.yaml --dry-run
  agentctx compact examples/compaction/long-chat.yaml --dry-run --threshold 800 --retention 4 --json
  agentctx compact agent.yaml --session demo --interval 3 --overlap 1 --dry-run
  agentctx compact agent.yaml --session demo --interval 3 --overlap 1 --summarizer model
`;

const FLAG_HINT =
  '(--interval sets compactionInterval, --overlap overlapSize, --threshold tokenThreshold, --retention eventRetentionSize.)';

export const compactCommand: Command = {
  name: 'compact',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('compact', args, {
      'dry-run': { type: 'boolean' },
      'start-mcp': { type: 'boolean' },
      interval: { type: 'string' },
      overlap: { type: 'string' },
      threshold: { type: 'string' },
      retention: { type: 'string' },
      adk: { type: 'boolean' },
      agent: { type: 'string' },
      session: { type: 'string' },
      app: { type: 'string' },
      user: { type: 'string' },
      store: { type: 'string' },
      summarizer: { type: 'string' },
      model: { type: 'string' },
      json: { type: 'boolean' },
    });
    const [file, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`compact takes one file, got ${positionals.length}.`);
    const dryRun = values['dry-run'] === true;
    if (dryRun && (values.summarizer !== undefined || values.model !== undefined)) {
      throw new UsageError(
        '--summarizer and --model choose who writes a real summary; a dry run always estimates with the extractive summary.',
      );
    }
    const summarizer = values.summarizer ?? 'extractive';
    if (summarizer !== 'extractive' && summarizer !== 'model')
      throw new UsageError(`--summarizer must be extractive or model, got '${summarizer}'.`);
    const flags = flagConfig(values);
    if (values.session !== undefined) {
      if (values.agent !== undefined)
        throw new UsageError("--agent is for case files; a session is compacted for its agent file's root agent.");
      const config = mergeConfig(undefined, flags, 'a stored session takes its settings from the flags');
      return compactSession(
        file,
        { ...values, dryRun, json: values.json === true, adk: values.adk === true, summarizer },
        config,
        io,
        runtime,
      );
    }
    if (file === undefined)
      throw new UsageError(
        'compact needs a case file, or an agent file with --session.',
        "Run 'agentctx compact --help' for both forms.",
      );
    if (values.app !== undefined || values.user !== undefined || values.store !== undefined)
      throw new UsageError('--app, --user and --store go with --session.');
    if (!dryRun)
      throw new UsageError(
        `Case files are only planned: add --dry-run to see what would be summarized (a stored session is compacted with --session).`,
      );

    const { value } = await loadDocumentFile(file, io.cwd);
    const caseFile = await parseCaseFile(value, {
      filename: file,
      load: relativeLoader(io.cwd),
      files: nodeAgentFiles(io.cwd, mcpStartConsent(values['start-mcp'], io)),
    });
    if (values.agent !== undefined) {
      caseFile.tree.getAgent(values.agent);
      caseFile.currentAgent = values.agent;
    }
    if (values.adk === true) caseFile.profile = caseProfile('adk', caseFile.profileChanges);
    const config = mergeConfig(caseFile.eventsCompactionConfig, flags, `${file} has no eventsCompactionConfig`);
    const preview = await previewCaseCompaction(caseFile, config);
    io.stdout(
      values.json === true
        ? compactionJson(preview)
        : formatPreview(
            preview,
            `Compaction dry run · ${file} · agent '${caseFile.currentAgent}'`,
            createStyle(io.isTty),
          ),
    );
    return 0;
  },
};

type FlagValues = {
  interval?: string | undefined;
  overlap?: string | undefined;
  threshold?: string | undefined;
  retention?: string | undefined;
};

function flagConfig(values: FlagValues): Record<string, number> {
  const flags: Record<string, number> = {};
  const entries = [
    ['--interval', 'compactionInterval', values.interval],
    ['--overlap', 'overlapSize', values.overlap],
    ['--threshold', 'tokenThreshold', values.threshold],
    ['--retention', 'eventRetentionSize', values.retention],
  ] as const;
  for (const [flag, field, text] of entries) {
    if (text === undefined) continue;
    if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} must be a whole number, got '${text}'.`);
    flags[field] = Number(text);
  }
  return flags;
}

// The file's settings with the flags over them, checked together (a flag may complete or break a pair).
function mergeConfig(
  base: EventsCompactionConfig | undefined,
  flags: Record<string, number>,
  missing: string,
): EventsCompactionConfig {
  if (base === undefined && Object.keys(flags).length === 0) {
    throw new UsageError(
      `No compaction is configured: ${missing}.`,
      'Pass --interval and --overlap (sliding window), or --threshold and --retention (token threshold).',
    );
  }
  try {
    return parseCompactionConfig({ ...base, ...flags });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError({ subject: error.subject, issues: error.issues, hint: FLAG_HINT });
  }
}
