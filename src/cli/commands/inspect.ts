import { UsageError } from '../../contracts/errors/usage-error.js';
import type { ModelCallRecord } from '../../contracts/model-call.js';
import { explainSessionCache } from '../../analysis/cache/explain-cache.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { parseCaseFile } from '../../presets/case-file.js';
import { mcpStartConsent, nodeAgentFiles } from '../agent-files.js';
import { BINDINGS_HELP, loadBindings } from '../bindings-option.js';
import { readStateFile } from './check-input.js';
import { parseCommandArgs } from '../args.js';
import { assembleCaseForModel } from '../assemble-case.js';
import { cacheReportJson, formatCacheCall, formatCacheReport } from '../format-cache.js';
import { inspectRecorded } from '../inspect-recorded.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { openRecordedSession, recordedCall, type RecordedSessionOptions } from '../recorded-session.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { show } from '../show-request.js';
import { createStyle } from '../style.js';

const HELP = `Usage: agentctx inspect <case-file | agent-file> [options]

Builds the exact request a model call would receive, without calling a model,
and shows where every part of it came from: each block of the system text,
each tool, each message part, with the agent, the field, the state keys and
artifacts filled in, and the events behind each message.

An agent file (the one 'agentctx run' takes) is inspected as the case of its
agent in an empty session. A case file (YAML or JSON) describes a situation:
  agent:        the agent tree, in declarative form, or the path of an agent file
  currentAgent: the agent being asked (default: the root)
  state:        session state; app:, user: and temp: keys included
  artifacts:    artifact name → text, for {artifact.name}
  events:       the session's history (id and timestamp may be left out)
  profile:      agentctx (default) | adk: ADK's conventions byte for byte
                (Python's str() for values, summaries shown as ADK does);
                adkCompatibility: true is the older spelling of adk
  valueFormat:  default | python, over the profile's (ADK's str() for values)
  escapes:      true: \{ and \} are literal braces
  plugins:      - globalInstruction: <text>   (ADK's GlobalInstructionPlugin)
  eventsCompactionConfig: when to compact the history (compactionInterval,
                overlapSize, tokenThreshold, eventRetentionSize); see
                'agentctx compact --help'

An agent in declarative form has: name, description, model, instruction,
globalInstruction, staticInstruction, subAgents (inline, or {configPath: file}),
disallowTransferToParent, disallowTransferToPeers, includeContents (default|none),
tools ({name, description, parameters}, or a built-in: Read, Edit), outputKey,
generateConfig, mode (chat|task|single_turn), kind (llm|sequential|parallel|loop,
or agentClass: LlmAgent, …), maxIterations (loop); and agentctx's own:
preset (adk|harness), sections (the harness preset's), skills ({dir, default}),
memory ([{file, mode}]), workspace (a folder for Read and Edit), planner
(PlanReActPlanner, or {name: BuiltInPlanner, thinking_config}).
ADK's snake_case spellings work too.

Recorded calls: every model call 'agentctx run' makes is kept in the store.
  agentctx inspect <agent-file> --session <id>            list the session's calls
  agentctx inspect <agent-file> --session <id> --call 2   show call 2, as above,
                                                          with its answer, time and usage
  agentctx inspect <agent-file> --session <id> --call 2 --wire
                                  the exact HTTP body the adapter sent for it
The list shows each call's status (pending, answered, failed, aborted,
timed_out), latency and usage; calls an agent tool made sit under the call
that asked for the tool. The agent file names the app (its root agent); or
give --app instead.

Prompt cache: providers cache the start of a request, in the order tools,
system text, messages. A call keeps the cache when the stable prefix of its
agent's previous call (the same parent tool call, for nested calls) still
leads its request; from the first difference on, that prefix is billed again
at the full price.
  agentctx inspect --app report_analyst --session s1 --cache
        one line per call: prefix kept, or where it changed, what changed it
        (named from provenance) and the tokens billed again, e.g.
          #5  analysis_agent  prefix changed at system (instruction:
              {current_time} changed)  310 kept · 1,240 tokens re-billed
        a {current_time} in the instruction changed: set a staticInstruction
        so the instruction goes after the prefix ('agentctx check' warns)
  agentctx inspect --app report_analyst --session s1 --call 5 --cache
        call 5 against its agent's previous call: the source on both sides and
        both sides' text at the first difference

Options:
  --session <id>  read a recorded call of this session instead of a case file
  --call <n>      which call (1 is the first, 'last' the latest; default: list
                  them)
  --wire          with --call: the body sent to the provider, exactly (with
                  --json: only the body), credentials removed
  --app <name>    the app of the session (default: the agent file's root agent)
  --user <id>     the user of the session (default: user)
  --store <path>  SQLite file of the sessions (default: ${DEFAULT_STORE})
  --json          print exactly the request as JSON, nothing else
  --provenance    with --json: print { request, provenance, warnings, trace }
                  (for a recorded call: { request, provenance, warnings, call })
  --tokens        count tokens per block, tool and message (local o200k tokenizer)
  --cache         with --session: what each call kept of its agent's previous
                  cacheable prefix, and why it changed (tokens: local o200k);
                  with --json: the structured report
  --find <text>   list every place <text> occurs, with its path and source
                  (exit status 1 when it occurs nowhere)
  --agent <name>  ask this agent instead of currentAgent
  --state <file>  a JSON or YAML file of state keys, over the case file's state
                  (an agent file has none of its own)
  --start-mcp     start the agent's MCP stdio servers to list their tools (also
                  AGENTCTX_START_MCP=1); without it, asked at a terminal and
                  refused elsewhere
${BINDINGS_HELP}
  -h, --help      show this help

Examples:
  agentctx inspect examples/coordinator.yaml
  agentctx inspect examples/coordinator.yaml --json
  agentctx inspect examples/coordinator.yaml --find math_agent
  agentctx inspect --app report_analyst --user analyst \\
    --session report-analyst-paged --cache      (after 'npm start')
`;

export const inspectCommand: Command = {
  name: 'inspect',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('inspect', args, {
      json: { type: 'boolean' },
      provenance: { type: 'boolean' },
      find: { type: 'string' },
      tokens: { type: 'boolean' },
      agent: { type: 'string' },
      session: { type: 'string' },
      call: { type: 'string' },
      app: { type: 'string' },
      user: { type: 'string' },
      store: { type: 'string' },
      wire: { type: 'boolean' },
      cache: { type: 'boolean' },
      'start-mcp': { type: 'boolean' },
      bindings: { type: 'string' },
      state: { type: 'string' },
    });
    const [file, ...extra] = positionals;
    if (values.cache === true) return inspectCache(file, extra, values, io, runtime);
    if (values.session !== undefined && values.state !== undefined)
      throw new UsageError('--state goes with a case or agent file: a recorded call has the state it was sent with.');
    if (values.session !== undefined) return inspectRecorded(file, values, io, runtime);
    if (values.wire === true || values.call !== undefined)
      throw new UsageError(`${values.wire === true ? '--wire' : '--call'} reads a recorded call: add --session <id>.`);
    if (file === undefined)
      throw new UsageError('inspect needs a case file.', "Run 'agentctx inspect --help' for its format.");
    if (extra.length > 0) throw new UsageError(`inspect takes one case file, got ${positionals.length}.`);
    if (values.provenance === true && values.json !== true) throw new UsageError('--provenance goes with --json.');

    const { value } = await loadDocumentFile(file, io.cwd);
    const caseFile = await parseCaseFile(value, {
      filename: file,
      load: relativeLoader(io.cwd),
      files: nodeAgentFiles(
        io.cwd,
        mcpStartConsent(values['start-mcp'], io),
        io.env,
        (message) => io.stderr(`warning: ${message}\n`),
        await loadBindings(values.bindings, io.cwd),
      ),
    });
    if (values.agent !== undefined) {
      caseFile.tree.getAgent(values.agent);
      caseFile.currentAgent = values.agent;
    }
    if (values.state !== undefined) {
      const python = caseFile.profile.valueFormat === 'python';
      caseFile.state = { ...caseFile.state, ...(await readStateFile(values.state, io.cwd, python)) };
    }
    const { request, provenance, trace, warnings } = await assembleCaseForModel(caseFile);
    const model = request.config.model === undefined ? '' : ` (model ${request.config.model})`;
    return show(
      request,
      provenance,
      trace,
      `Request for agent '${caseFile.currentAgent}'${model} · ${file}`,
      values,
      io,
      warnings,
    );
  },
};

type CacheOptions = RecordedSessionOptions & {
  call?: string | undefined;
  json?: boolean | undefined;
  [option: string]: unknown;
};

/**
 * `inspect --session <id> --cache`: every recorded call against its agent's previous call (`explainSessionCache`),
 * counted with the local tokenizer; with `--call <n>`, that call in detail.
 */
async function inspectCache(
  file: string | undefined,
  extra: readonly string[],
  values: CacheOptions,
  io: CliIo,
  runtime: CliRuntime,
): Promise<number> {
  if (values.session === undefined) throw new UsageError('--cache reads a recorded session: add --session <id>.');
  if (extra.length > 0) throw new UsageError(`inspect takes one agent file, got ${extra.length + 1}.`);
  const other = ['wire', 'tokens', 'find', 'provenance', 'agent'].find((option) => values[option] !== undefined);
  if (other !== undefined) throw new UsageError(`--cache does not go with --${other}.`);
  const { store, key } = await openRecordedSession(file, values, io.cwd, runtime);
  const wanted = values.call === undefined ? undefined : await recordedCall(store, key, values.call);
  const listed = await store.listModelCalls(key);
  const records = await Promise.all(listed.map((call) => store.getModelCall({ ...key, index: call.index })));
  const counter = await loadTokenCounter();
  const report = explainSessionCache(
    records.filter((record): record is ModelCallRecord => record !== undefined),
    (text) => counter.count(text),
  );
  const style = createStyle(io.isTty);
  if (wanted === undefined) {
    io.stdout(
      values.json === true
        ? `${JSON.stringify(cacheReportJson(report, key, counter.encoding), null, 2)}\n`
        : formatCacheReport(report, key.sessionId, style),
    );
    return 0;
  }
  const entry = report.calls.find((candidate) => candidate.index === wanted.index);
  if (entry === undefined) throw new UsageError(`Call ${wanted.index} is not among the session's listed calls.`);
  io.stdout(
    values.json === true ? `${JSON.stringify(entry, null, 2)}\n` : formatCacheCall(entry, key.sessionId, style),
  );
  return 0;
}
