import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { UsageError } from '../../contracts/errors/usage-error.js';
import type { ModelCallSummary } from '../../contracts/model-call.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import { findInRequest } from '../../engine/assembly/find-in-request.js';
import { requestToJson } from '../../engine/assembly/request-json.js';
import { countRequestTokens } from '../../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { parseCaseFile } from '../../presets/case-file.js';
import { nodeAgentFiles } from '../agent-files.js';
import { parseCommandArgs } from '../args.js';
import { assembleCaseForModel } from '../assemble-case.js';
import { formatOccurrences, formatRequest, plural } from '../format-request.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { openRecordedSession, type RecordedSessionOptions } from '../recorded-session.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle } from '../style.js';

const HELP = `Usage: agentctx inspect <case-file> [options]

Builds the exact request a model call would receive, without calling a model,
and shows where every part of it came from: each block of the system text,
each tool, each message part, with the agent, the field, the state keys and
artifacts filled in, and the events behind each message.

<case-file> (YAML or JSON) describes the situation:
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
tools ({name, description, parameters}), outputKey, generateConfig,
kind (llm|sequential|parallel|loop). ADK's snake_case spellings work too.

Recorded calls: every model call 'agentctx run' makes is kept in the store.
  agentctx inspect <agent-file> --session <id>            list the session's calls
  agentctx inspect <agent-file> --session <id> --call 2   show call 2, as above
The agent file names the app (its root agent); or give --app instead.

Options:
  --session <id>  read a recorded call of this session instead of a case file
  --call <n>      which call (1 is the first; default: list them)
  --app <name>    the app of the session (default: the agent file's root agent)
  --user <id>     the user of the session (default: user)
  --store <path>  SQLite file of the sessions (default: ${DEFAULT_STORE})
  --json          print exactly the request as JSON, nothing else
  --provenance    with --json: print { request, provenance, trace }
  --tokens        count tokens per block, tool and message (local o200k tokenizer)
  --find <text>   list every place <text> occurs, with its path and source
                  (exit status 1 when it occurs nowhere)
  --agent <name>  ask this agent instead of currentAgent
  -h, --help      show this help

Examples:
  agentctx inspect examples/coordinator.yaml
  agentctx inspect examples/coordinator.yaml --json
  agentctx inspect examples/coordinator.yaml --find math_agent
`;

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'show the exact request a model call receives, and where each part came from',
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
    });
    const [file, ...extra] = positionals;
    if (values.session !== undefined) return inspectRecorded(file, values, io, runtime);
    if (file === undefined) throw new UsageError('inspect needs a case file.', "Run 'agentctx inspect --help' for its format.");
    if (extra.length > 0) throw new UsageError(`inspect takes one case file, got ${positionals.length}.`);
    if (values.provenance === true && values.json !== true) throw new UsageError('--provenance goes with --json.');

    const { value } = await loadDocumentFile(file, io.cwd);
    const caseFile = await parseCaseFile(value, { filename: file, load: relativeLoader(io.cwd), files: nodeAgentFiles(io.cwd) });
    if (values.agent !== undefined) {
      caseFile.tree.getAgent(values.agent);
      caseFile.currentAgent = values.agent;
    }
    const { request, provenance, trace, warnings } = await assembleCaseForModel(caseFile);
    const model = request.config.model === undefined ? '' : ` (model ${request.config.model})`;
    return show(request, provenance, trace, `Request for agent '${caseFile.currentAgent}'${model} · ${file}`, values, io, warnings);
  },
};

type ShowOptions = { json?: boolean | undefined; provenance?: boolean | undefined; find?: string | undefined; tokens?: boolean | undefined };

async function show(request: LlmRequest, provenance: Provenance, trace: unknown, header: string, values: ShowOptions, io: CliIo, warnings: readonly string[] = []): Promise<number> {
  const style = createStyle(io.isTty);
  if (values.find !== undefined) {
    const occurrences = findInRequest(request, values.find, provenance);
    if (values.json === true) io.stdout(`${JSON.stringify(occurrences, null, 2)}\n`);
    else io.stdout(formatOccurrences(values.find, occurrences, style));
    return occurrences.length > 0 ? 0 : 1;
  }
  const tokens = values.tokens === true ? countRequestTokens(request, await loadTokenCounter(), provenance) : undefined;
  if (values.json === true) {
    const json =
      values.provenance === true || tokens !== undefined
        ? {
            request: requestToJson(request),
            ...(values.provenance === true ? { provenance, warnings } : {}),
            ...(trace === undefined || values.provenance !== true ? {} : { trace }),
            ...(tokens === undefined ? {} : { tokens }),
          }
        : requestToJson(request);
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  io.stdout(formatRequest(request, provenance, header, style, tokens));
  for (const warning of warnings) io.stdout(`${style.yellow('warning:')} ${warning}\n`);
  return 0;
}

async function inspectRecorded(file: string | undefined, values: ShowOptions & RecordedSessionOptions & { call?: string | undefined }, io: CliIo, runtime: CliRuntime): Promise<number> {
  const { store, key } = await openRecordedSession(file, values, io.cwd, runtime);
  const calls = await store.listModelCalls(key);
  if (values.call === undefined) {
    if (values.json === true) io.stdout(`${JSON.stringify(calls, null, 2)}\n`);
    else io.stdout(formatCallList(calls, key.sessionId));
    return 0;
  }
  const index = Number(values.call);
  if (!Number.isInteger(index) || index < 1) throw new UsageError(`--call must be a whole number from 1, got '${values.call}'.`);
  const record = await store.getModelCall({ ...key, index });
  if (record === undefined) {
    throw new NotFoundError({ resource: 'model call', id: String(index), message: `Session ${key.sessionId} has no call ${index}; it has ${calls.length}.`, hint: 'List them with --session alone.' });
  }
  const edited = record.editedByCallback ? ' · edited by a beforeModel callback' : '';
  return show(record.request, record.provenance, undefined, `Call ${index} of session ${key.sessionId}: agent '${record.agent}', invocation ${record.invocationId}${edited}`, values, io);
}

function formatCallList(calls: readonly ModelCallSummary[], sessionId: string): string {
  if (calls.length === 0) return `Session ${sessionId} has no recorded model calls.\n`;
  const rows = calls.map((call) => {
    const tokens = call.usage?.promptTokens === undefined ? '' : ` · ${call.usage.promptTokens} prompt tokens`;
    return `  ${String(call.index).padStart(3)}  ${call.agent.padEnd(20)} ${call.invocationId}  ${call.requestChars} chars${tokens}`;
  });
  return `Session ${sessionId}: ${plural(calls.length, 'model call')}\n${rows.join('\n')}\nShow one with --call <n>.\n`;
}
