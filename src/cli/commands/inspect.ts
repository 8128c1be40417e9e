import { UsageError } from '../../contracts/errors/usage-error.js';
import { parseCaseFile } from '../../presets/case-file.js';
import { nodeAgentFiles } from '../agent-files.js';
import { parseCommandArgs } from '../args.js';
import { assembleCaseForModel } from '../assemble-case.js';
import { inspectRecorded } from '../inspect-recorded.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { show } from '../show-request.js';

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
memory ([{file, mode}]), workspace (a folder for Read and Edit).
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

Options:
  --session <id>  read a recorded call of this session instead of a case file
  --call <n>      which call (1 is the first; default: list them)
  --wire          with --call: the body sent to the provider, exactly (with
                  --json: only the body), credentials removed
  --app <name>    the app of the session (default: the agent file's root agent)
  --user <id>     the user of the session (default: user)
  --store <path>  SQLite file of the sessions (default: ${DEFAULT_STORE})
  --json          print exactly the request as JSON, nothing else
  --provenance    with --json: print { request, provenance, warnings, trace }
                  (for a recorded call: { request, provenance, warnings, call })
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
      wire: { type: 'boolean' },
    });
    const [file, ...extra] = positionals;
    if (values.session !== undefined) return inspectRecorded(file, values, io, runtime);
    if (values.wire === true || values.call !== undefined) throw new UsageError(`${values.wire === true ? '--wire' : '--call'} reads a recorded call: add --session <id>.`);
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
