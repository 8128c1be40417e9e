import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { EvalSet } from '../contracts/evaluation.js';
import { formatEvalSet, parseEvalSet } from '../analysis/eval/eval-set-file.js';
import { evalCaseOfSession } from '../analysis/eval/session-eval-case.js';
import { createAgentTree } from '../engine/agent/agent-tree.js';
import { parseCommandArgs } from './args.js';
import type { CliIo } from './io.js';
import { loadAgent } from './load-agent.js';
import { readInputFile } from './read-input-file.js';
import { DEFAULT_STORE, refuseMissingStore } from './resolve-store.js';
import type { CliRuntime } from './runtime.js';

const SUFFIX = '.evalset.json';

/**
 * `agentctx eval add <evalset-file> <agent-file> --session <id>`: a recorded session becomes an eval case, as ADK's dev
 * UI adds a session to an eval set (dev_server.py `add_session_to_eval_set`): its invocations (user turns, tool calls,
 * final answers) are the expected ones, its session input the app, the user and ADK's empty state (every `{key}` of
 * the agents' instructions as ''). The file is made when missing; an eval id already in the set is refused.
 */
export async function addSessionToEvalSet(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
  const { values, positionals } = parseCommandArgs('eval add', args, {
    session: { type: 'string' },
    user: { type: 'string' },
    id: { type: 'string' },
    store: { type: 'string' },
  });
  const [setFile, agentFile, ...extra] = positionals;
  if (setFile === undefined || agentFile === undefined || extra.length > 0)
    throw new UsageError(
      'eval add takes an eval set file and an agent file.',
      'For example: agentctx eval add tests/cases.evalset.json agent.yaml --session s1',
    );
  if (values.session === undefined) throw new UsageError('eval add needs the session: --session <id>.');
  if (!setFile.endsWith(SUFFIX))
    throw new UsageError(
      `eval add writes ${SUFFIX} files; ${setFile} is not one.`,
      'Name a file ending in .evalset.json.',
    );
  const path = resolve(io.cwd, setFile);
  const set: EvalSet = existsSync(path)
    ? parseEvalSet(await readInputFile(path, io.cwd), setFile)
    : { evalSetId: basename(setFile, SUFFIX), evalCases: [], creationTimestamp: Date.now() / 1000 };
  const agent = await loadAgent(agentFile, io.cwd);
  refuseMissingStore(values.store, io.cwd);
  const store = await runtime.store(values.store);
  const userId = values.user ?? 'user';
  const session = await store.getSession({ appName: agent.name, userId, sessionId: values.session });
  if (session === undefined)
    throw new UsageError(
      `Session ${values.session} of user ${userId} is not in app ${agent.name} (store ${values.store ?? DEFAULT_STORE}).`,
      'Check --session, --user and --store.',
    );
  const evalId = values.id ?? session.id;
  if (set.evalCases.some((evalCase) => evalCase.evalId === evalId))
    throw new UsageError(
      `Eval id \`${evalId}\` already exists in \`${set.evalSetId}\` eval set.`,
      'Give the case another id with --id.',
    );
  const evalCase = evalCaseOfSession({ evalId, session, agents: createAgentTree(agent).nodes });
  await writeFile(path, formatEvalSet({ ...set, evalCases: [...set.evalCases, evalCase] }));
  io.stdout(
    `added session ${session.id} to eval set ${set.evalSetId} as case ${evalId}: ${evalCase.conversation?.length ?? 0} invocations\n`,
  );
  return 0;
}
