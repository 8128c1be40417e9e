import { assembleCase, parseCaseFile } from '../../core/config/case-file.js';
import { UsageError } from '../../core/errors/usage-error.js';
import { findInRequest } from '../../core/request/find-in-request.js';
import { requestToJson } from '../../core/request/request.js';
import { parseCommandArgs } from '../args.js';
import { formatOccurrences, formatRequest } from '../format-request.js';
import type { CliIo, Command } from '../io.js';
import { loadDocumentFile, relativeLoader } from '../load-document-file.js';
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
  valueFormat:  default | python (ADK's str() for values in the text)

An agent in declarative form has: name, description, model, instruction,
globalInstruction, staticInstruction, subAgents (inline, or {configPath: file}),
disallowTransferToParent, disallowTransferToPeers, includeContents (default|none),
tools ({name, description, parameters}), outputKey, generateConfig,
kind (llm|sequential|parallel|loop). ADK's snake_case spellings work too.

Options:
  --json          print exactly the request as JSON, nothing else
  --provenance    with --json: print { request, provenance, trace }
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
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs('inspect', args, {
      json: { type: 'boolean' },
      provenance: { type: 'boolean' },
      find: { type: 'string' },
      agent: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      io.stdout(HELP);
      return 0;
    }
    const [file, ...extra] = positionals;
    if (file === undefined) throw new UsageError('inspect needs a case file.', "Run 'agentctx inspect --help' for its format.");
    if (extra.length > 0) throw new UsageError(`inspect takes one case file, got ${positionals.length}.`);
    if (values.provenance === true && values.json !== true) throw new UsageError('--provenance goes with --json.');

    const { value } = await loadDocumentFile(file, io.cwd);
    const caseFile = await parseCaseFile(value, { filename: file, load: relativeLoader(io.cwd) });
    if (values.agent !== undefined) {
      caseFile.tree.getAgent(values.agent);
      caseFile.currentAgent = values.agent;
    }
    const { request, provenance, trace } = await assembleCase(caseFile);
    const style = createStyle(io.isTty);
    if (values.find !== undefined) {
      const occurrences = findInRequest(request, values.find, provenance);
      if (values.json === true) io.stdout(`${JSON.stringify(occurrences, null, 2)}\n`);
      else io.stdout(formatOccurrences(values.find, occurrences, style));
      return occurrences.length > 0 ? 0 : 1;
    }
    if (values.json === true) {
      const json = values.provenance === true ? { request: requestToJson(request), provenance, trace } : requestToJson(request);
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
      return 0;
    }
    const model = request.config.model === undefined ? '' : ` (model ${request.config.model})`;
    io.stdout(formatRequest(request, provenance, `Request for agent '${caseFile.currentAgent}'${model} · ${file}`, style));
    return 0;
  },
};
