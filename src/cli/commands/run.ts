import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../contracts/errors/usage-error.js';
import type { SessionStoreWithCallLog } from '../../contracts/session-store.js';
import type { SessionKey } from '../../contracts/session.js';
import type { Runner, RunInput } from '../../engine/runner/runner.js';
import { parseCommandArgs } from '../args.js';
import { EMBED_HELP, PROFILE_HELP, profileChoice, REMEMBER_HELP, rememberChoice } from '../profile-option.js';
import { BINDINGS_HELP } from '../bindings-option.js';
import { formatEvent } from '../format-event.js';
import type { CliIo, Command } from '../io.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { answerMessage, askConfirmations, pausedLines } from '../answers.js';
import type { Content } from '../../contracts/content.js';
import { readSessionSeed, saveSeedArtifacts } from '../session-seed.js';
import { createStyle } from '../style.js';
import { unboundToolsWarning } from '../unbound-tools.js';
import { timeLimitHelp, timeLimitOptions } from '../time-limits.js';

const HELP = `Usage: agentctx run <agent-file-or-module> [options]

Runs an agent: sends a message, runs the tools and transfers the model asks
for, and prints every event as it happens. Sessions, events and the exact
request of every model call are kept in the store, so a conversation can go on
later (--session) and any call can be inspected:
  agentctx inspect <agent-file> --session <id> --call <n>

<agent-file-or-module>
  a YAML/JSON agent file (the declarative form: see 'agentctx inspect --help'),
  or a JavaScript or TypeScript module (.js, .mjs, .ts, .mts) exporting an
  agent definition (default or 'agent'); TypeScript loads as it is

Options:
  --message <text>   send one message and exit; without it, read messages from
                     the terminal (or one per line from standard input)
  --answer <call-id>=<json>
                     answer a call the session waits on (a long-running tool's
                     result, or true/false for a tool call waiting for
                     confirmation), with --session; repeatable, sent as one
                     message (with --message's text after it) and exit. A turn
                     that pauses prints each waiting call and the command that
                     answers it; at a terminal a confirmation is asked at once
  --model <name>     the model for every agent (default: each agent's own):
                     gemini-2.5-flash or google:<model>   (GEMINI_API_KEY)
                     openai:<model>                       (OPENAI_API_KEY; o-series and
                                                          gpt-5 via the Responses API)
                     openai-chat:<model>                  Chat Completions, by choice
                     openai-responses:<model>             the Responses API, by choice
                     anthropic:<model>                    (ANTHROPIC_API_KEY)
                     openai-compatible:<model>@<baseURL>  (Ollama, llama.cpp, vLLM)
                     mistral:<model>                      (MISTRAL_API_KEY)
                     groq:<model>                         (GROQ_API_KEY)
                     deepseek:<model>                     (DEEPSEEK_API_KEY)
                                                          each through its AI SDK
                                                          package (@ai-sdk/mistral…)
                     scripted:<file>                      answers from a script, offline
                                                          (docs/scripted-model.md)
  --session <id>     continue this session, or start it with this id
                     (default: a new session)
  --user <id>        the user the session belongs to (default: user)
  --state <file>     YAML/JSON mapping of state values for the session:
                     {"app:company": "Acme", "user:name": "Ann", "topic": "x"};
                     a new session starts with it, an existing one gets it
                     with the first message (as a state delta)
  --artifact <name=path>
                     save a file as an artifact of the session, for
                     {artifact.name} and tools (repeatable; a 'user:' name is
                     shared by the user's sessions); saved again only when
                     the file changed
  --store <path>     SQLite file for sessions and artifacts (default:
                     ${DEFAULT_STORE}); a postgres:// URL; 'memory' keeps nothing
  --stream           show the model's text as it arrives
${PROFILE_HELP}
${REMEMBER_HELP}
${EMBED_HELP}
${BINDINGS_HELP}
${timeLimitHelp({ model: 'none', tool: 'none' })}
  --json             print events as JSON lines (and what assembly warned of,
                     such as a tool left out, as {"warning": "…"} lines)
  -h, --help         show this help

Ctrl-C cancels the turn: the model call under way is recorded as aborted (its
request stays inspectable) and the run ends with exit status 130.

Exit status: 0 when every turn ended normally, 1 when one ended with an error
event (a model that failed, among others) or running failed (a conflicting
write, an extension), 2 for bad input (options, files, model names, API keys),
130 when interrupted.

Examples:
  agentctx run examples/draft-and-review/pipeline.yaml --model scripted:examples/draft-and-review/script.yaml --message "Write about X"
  agentctx run agent.yaml --session demo --message "and then?"
`;

export const runCommand: Command = {
  name: 'run',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('run', args, {
      message: { type: 'string' },
      answer: { type: 'string', multiple: true },
      model: { type: 'string' },
      session: { type: 'string' },
      user: { type: 'string' },
      state: { type: 'string' },
      artifact: { type: 'string', multiple: true },
      store: { type: 'string' },
      stream: { type: 'boolean' },
      json: { type: 'boolean' },
      'model-timeout': { type: 'string' },
      profile: { type: 'string' },
      remember: { type: 'string' },
      embed: { type: 'string' },
      bindings: { type: 'string' },
      'tool-timeout': { type: 'string' },
    });
    const [file, ...extra] = positionals;
    if (file === undefined)
      throw new UsageError('run needs an agent file or module.', "Run 'agentctx run --help' for the forms it takes.");
    if (extra.length > 0)
      throw new UsageError(`run takes one agent file, got ${positionals.length}; pass the message with --message.`);

    const limits = {
      ...timeLimitOptions(values),
      ...profileChoice(values.profile),
      ...rememberChoice(values.remember),
      ...(values.embed === undefined ? {} : { embed: values.embed }),
      bindings: values.bindings,
    };
    const seed = await readSessionSeed(values, io.cwd);
    const { runner, sessions, artifacts } = await runtime.runner(file, {
      store: values.store,
      model: values.model,
      streaming: values.stream === true,
      ...limits,
    });
    const userId = values.user ?? 'user';
    const { sessionId, created } = await openSession(runner, sessions, userId, values.session, seed.state);
    await saveSeedArtifacts(artifacts, { appName: runner.appName, userId, sessionId }, seed);
    const key = { appName: runner.appName, userId, sessionId };
    const answers = values.answer ?? [];
    const firstMessage =
      answers.length === 0
        ? values.message
        : answerMessage((await sessions.getSession(key))?.events ?? [], answers, values.message);
    const again = resumeCommand(file, values, sessionId);
    if (values.json !== true) io.stderr(`session ${sessionId} (app ${runner.appName}, user ${userId})\n`);
    const unbound = unboundToolsWarning(runner.tree);
    if (unbound !== undefined) io.stderr(`${createStyle(io.isTty).yellow('warning:')} ${unbound}\n`);
    const interrupt = onInterrupt();
    // A session that existed already gets --state with the first message, as a state delta.
    let stateDelta = created ? undefined : seed.state;
    try {
      const say = (message: string | Content) => {
        const input = {
          userId,
          sessionId,
          message,
          signal: interrupt.signal,
          ...(stateDelta === undefined ? {} : { stateDelta }),
        };
        stateDelta = undefined;
        return turn(runner, input, io, values.json === true, again);
      };
      // On a terminal a confirmation the turn paused on is asked about at once, and the answer sent as the next turn.
      const sayAndConfirm = async (message: string | Content): Promise<boolean> => {
        let ok = await say(message);
        for (let next = await confirmationsToAsk(); ok && next !== undefined; next = await confirmationsToAsk())
          ok = await say(next);
        return ok;
      };
      const confirmationsToAsk = async () =>
        io.ask === undefined || values.json === true
          ? undefined
          : askConfirmations((await sessions.getSession(key))?.events ?? [], io.ask);
      let failed = false;
      if (firstMessage !== undefined) failed = !(await sayAndConfirm(firstMessage));
      else {
        for await (const message of readMessages(io)) {
          failed = !(await sayAndConfirm(message)) || failed;
          if (interrupt.signal.aborted) break;
        }
      }
      if (interrupt.signal.aborted) {
        io.stderr(`${await interruptedLine(sessions, { appName: runner.appName, userId, sessionId }, file)}\n`);
        return INTERRUPTED;
      }
      return failed ? 1 : 0;
    } finally {
      interrupt.dispose();
    }
  },
};

// The exit status of a process ended by Ctrl-C, as shells report it (128 + SIGINT).
const INTERRUPTED = 130;

/**
 * Ctrl-C cancels the turn: the model call under way is abandoned and recorded as aborted, and the run ends. A second
 * Ctrl-C (a tool that does not stop) ends the process at once.
 */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(INTERRUPTED);
    controller.abort(new Error('interrupted (Ctrl-C)'));
  };
  process.on('SIGINT', onSignal);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSignal) };
}

// One line saying what the interruption left behind, and how to look at it.
async function interruptedLine(sessions: SessionStoreWithCallLog, key: SessionKey, file: string): Promise<string> {
  const calls = await sessions.listModelCalls(key);
  const call = calls.findLast((summary) => summary.status === 'aborted' || summary.status === 'pending');
  if (call === undefined)
    return `Interrupted: session ${key.sessionId} is stored as it was; no model call was under way.`;
  return `Interrupted: call ${call.index} of session ${key.sessionId} was recorded as ${call.status}; see it with agentctx inspect ${file} --session ${key.sessionId} --call ${call.index}`;
}

async function openSession(
  runner: Runner,
  sessions: SessionStoreWithCallLog,
  userId: string,
  sessionId: string | undefined,
  state: Record<string, unknown> | undefined,
): Promise<{ sessionId: string; created: boolean }> {
  if (sessionId !== undefined) {
    const existing = await sessions.getSession({ appName: runner.appName, userId, sessionId, numRecentEvents: 0 });
    if (existing !== undefined) return { sessionId: existing.id, created: false };
  }
  const session = await runner.createSession({
    userId,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(state === undefined ? {} : { state }),
  });
  return { sessionId: session.id, created: true };
}

// Prints the events of one turn, then what assembly warned of in its model calls (each warning once); false when it
// ended with an error event.
async function turn(
  runner: Runner<SessionStoreWithCallLog>,
  input: RunInput,
  io: CliIo,
  json: boolean,
  again: string,
): Promise<boolean> {
  const style = createStyle(io.isTty);
  const key = { appName: runner.appName, userId: input.userId, sessionId: input.sessionId };
  const callsBefore = (await runner.sessions.listModelCalls(key)).length;
  let ok = true;
  for await (const event of runner.run(input)) {
    if (event.errorCode !== undefined) ok = false;
    if (json) io.stdout(`${JSON.stringify(event)}\n`);
    else if (event.author !== 'user' && event.partial !== true) io.stdout(formatEvent(event, style));
    else if (event.partial === true)
      io.stdout(
        style.dim(
          `[${event.author}] …${(event.content?.parts ?? []).map((part) => ('text' in part ? part.text : '')).join('')}\n`,
        ),
      );
  }
  const calls = (await runner.sessions.listModelCalls(key)).filter((call) => call.index > callsBefore);
  for (const warning of new Set(calls.flatMap((call) => call.warnings ?? []))) {
    if (json) io.stdout(`${JSON.stringify({ warning })}\n`);
    else io.stderr(`${style.yellow('warning:')} ${warning}\n`);
  }
  // A turn that paused says what it waits for and how to answer; the run ends cleanly (never waits on stdin).
  const events = (await runner.sessions.getSession(key))?.events ?? [];
  for (const line of pausedLines(events, again)) {
    if (json) io.stdout(`${JSON.stringify({ paused: line })}\n`);
    else io.stderr(`${style.yellow('⏸')} ${line}\n`);
  }
  return ok;
}

// The command that continues this session, as the user ran this one.
function resumeCommand(
  file: string,
  values: { store?: string | undefined; user?: string | undefined; model?: string | undefined },
  sessionId: string,
): string {
  const quote = (text: string) => (/^[\w./:@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);
  const options = [
    ['--session', sessionId],
    ['--store', values.store],
    ['--user', values.user],
    ['--model', values.model],
  ].flatMap(([flag, value]) => (value === undefined ? [] : [`${flag} ${quote(value)}`]));
  return `agentctx run ${quote(file)} ${options.join(' ')}`;
}

async function* readMessages(io: CliIo): AsyncGenerator<string> {
  const lines = createInterface({
    input: process.stdin,
    output: io.isTty ? process.stdout : undefined,
    terminal: io.isTty,
  });
  try {
    if (!io.isTty) {
      // Piped input: one message per line; the iterator buffers lines that arrive while a turn runs.
      for await (const line of lines) if (line.trim() !== '') yield line;
      return;
    }
    io.stdout('Type a message and press Enter; an empty line or Ctrl-D ends.\n');
    for (;;) {
      const line = await lines.question('you> ').catch(() => undefined);
      if (line === undefined || line.trim() === '') return;
      yield line;
    }
  } finally {
    lines.close();
  }
}
