import { UsageError } from '../../contracts/errors/usage-error.js';
import type { MemoryEntry, MemoryService } from '../../contracts/memory-service.js';
import { findMemoryCopies, type MemoryCopy } from '../../engine/memory/memory-copies.js';
import { eraseMemoryCopies, type MemoryErasure } from '../../engine/memory/memory-erasure.js';
import { parseCommandArgs } from '../args.js';
import { EMBED_HELP } from '../profile-option.js';
import type { CliIo, Command } from '../io.js';
import { loadAgent } from '../load-agent.js';
import { DEFAULT_STORE, refuseMissingStore } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle, type Style } from '../style.js';

const ACTIONS = ['add', 'list', 'search', 'delete'] as const;

const HELP = `Usage: agentctx memory <add|list|search|delete> [agent-file] [options]

What an app remembers of its users' sessions (docs/memory.md), in the store
agentctx run and serve write: agents find it with load_memory and
preload_memory. Memories are kept per app and user; nothing crosses them.

Actions:
  add      remember a session (--session), as serve's PATCH .../memory does;
           adding it again replaces what was remembered of it
  list     every memory of the user (of one session with --session)
  search   the memories a query finds (--query), best first
  delete   delete one memory (--id), a session's (--session), or every
           memory of the user (--all), for good; it lists the copies made
           of them before (load_memory results in other sessions, recorded
           requests and wire bodies that carried them), which stay unless
           --redact erases them; --dry-run only lists

Options:
  --app <name>     the app (default: the agent file's root agent)
  --user <id>      the user (default: user)
  --session <id>   the session to add, list or delete
  --query <text>   what to search for
  --id <id>        the memory to delete
  --all            with delete: every memory of the user
  --dry-run        with delete: say what would be deleted, and the copies
  --redact         with delete: also erase the copies in place, each text
                   replaced by a tombstone saying what was erased and when
  --store <path>   SQLite file or postgres:// URL (default: ${DEFAULT_STORE})
${EMBED_HELP}
  --json           print memories (and counts) as JSON
  -h, --help       show this help

Examples:
  agentctx memory add agent.yaml --session s1
  agentctx memory search agent.yaml --query "favourite city"
  agentctx memory delete agent.yaml --session s1
  agentctx memory delete agent.yaml --all --redact --dry-run
`;

export const memoryCommand: Command = {
  name: 'memory',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('memory', args, {
      app: { type: 'string' },
      user: { type: 'string' },
      session: { type: 'string' },
      query: { type: 'string' },
      id: { type: 'string' },
      all: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      redact: { type: 'boolean' },
      store: { type: 'string' },
      embed: { type: 'string' },
      json: { type: 'boolean' },
    });
    const [action, file, ...extra] = positionals;
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number]))
      throw new UsageError(
        action === undefined ? 'memory needs an action.' : `memory has no action '${action}'.`,
        `Use one of ${ACTIONS.join(', ')}: agentctx memory search agent.yaml --query "…".`,
      );
    if (extra.length > 0) throw new UsageError(`memory takes one agent file, got ${positionals.length - 1}.`);
    // What the action needs, checked before anything is opened.
    if (action === 'add' && values.session === undefined)
      throw new UsageError('memory add needs the session: --session <id>.');
    if (action === 'search' && values.query === undefined) throw new UsageError('memory search needs --query <text>.');
    const chosen = [values.id !== undefined, values.session !== undefined, values.all === true].filter(Boolean).length;
    if (action === 'delete' && chosen !== 1)
      throw new UsageError('memory delete needs exactly one of --id <id>, --session <id> or --all.');
    if (action !== 'delete' && (values.redact === true || values['dry-run'] === true))
      throw new UsageError(`--${values.redact === true ? 'redact' : 'dry-run'} goes with memory delete.`);
    const appName = values.app ?? (file === undefined ? undefined : (await loadAgent(file, io.cwd)).name);
    if (appName === undefined) throw new UsageError('memory needs the app: name the agent file, or pass --app.');
    refuseMissingStore(values.store, io.cwd);
    const embed = values.embed === undefined ? undefined : await runtime.model(values.embed);
    const store = await runtime.store(values.store, embed === undefined ? undefined : { embed });
    const memory = store as unknown as Partial<MemoryService>;
    if (typeof memory.searchMemory !== 'function')
      throw new UsageError(
        'This store keeps no memories.',
        'Name the SQLite file or postgres:// URL that agentctx run or serve wrote.',
      );
    const service = memory as MemoryService;
    const scope = { appName, userId: values.user ?? 'user' };
    const json = values.json === true;
    const style = createStyle(io.isTty);
    switch (action) {
      case 'add': {
        const session = await store.getSession({ ...scope, sessionId: values.session as string });
        if (session === undefined)
          throw new UsageError(
            `Session ${values.session} of user ${scope.userId} is not in app ${appName}.`,
            'Check --session, --user and --app.',
          );
        await service.addSessionToMemory(session);
        const remembered = await service.listMemories({ ...scope, sessionId: session.id });
        io.stdout(
          json
            ? `${JSON.stringify({ remembered: remembered.length })}\n`
            : `remembered ${remembered.length} events of session ${values.session}\n`,
        );
        return 0;
      }
      case 'list':
      case 'search': {
        if (action === 'search' && values.query === undefined)
          throw new UsageError('memory search needs --query <text>.');
        const found =
          action === 'search'
            ? (await service.searchMemory({ ...scope, query: values.query as string })).memories
            : await service.listMemories({
                ...scope,
                ...(values.session === undefined ? {} : { sessionId: values.session }),
              });
        io.stdout(json ? `${JSON.stringify(found, null, 2)}\n` : formatMemories(found, style));
        return 0;
      }
      default: {
        const targets = (
          await service.listMemories({
            ...scope,
            ...(values.session === undefined ? {} : { sessionId: values.session }),
          })
        ).filter((entry) => values.id === undefined || entry.id === values.id);
        const copies = await findMemoryCopies(store, scope, targets);
        const redact = values.redact === true;
        if (redact && copies.length > 0 && store.rewriteText === undefined)
          throw new UsageError('This store cannot erase copies in place.', 'Use a SQLite file or a postgres:// URL.');
        if (values['dry-run'] === true) {
          io.stdout(
            json
              ? `${JSON.stringify({ wouldDelete: targets.length, copies, ...(redact ? { wouldErase: copies.length } : {}) }, null, 2)}\n`
              : `would delete ${count(targets.length)}\n${formatCopies(copies, redact ? 'would be erased' : 'which stay')}`,
          );
          return 0;
        }
        const deleted =
          values.id !== undefined
            ? Number(await service.deleteMemory({ ...scope, id: values.id }))
            : values.session !== undefined
              ? await service.deleteSessionMemories({ ...scope, sessionId: values.session })
              : await service.deleteUserMemories(scope);
        const erased = redact ? await eraseMemoryCopies(store, scope, targets, copies, new Date()) : [];
        io.stdout(
          json
            ? `${JSON.stringify({ deleted, copies, ...(redact ? { erased } : {}) }, null, 2)}\n`
            : `deleted ${count(deleted)}\n${redact ? formatErased(copies, erased) : formatCopies(copies, 'which stay')}`,
        );
        return 0;
      }
    }
  },
};

function count(n: number): string {
  return `${n} ${n === 1 ? 'memory' : 'memories'}`;
}

// The copies a delete leaves, or erases with --redact, one line each.
function formatCopies(copies: readonly MemoryCopy[], fate: string): string {
  if (copies.length === 0) return 'no copies of them were made in other sessions\n';
  const lines = copies.map((copy) =>
    copy.kind === 'event'
      ? `  session ${copy.sessionId}, event ${copy.eventId} (${copy.author}) holds memory ${copy.memoryId}`
      : `  session ${copy.sessionId}, recorded call ${copy.call} sent memory ${copy.memoryId}`,
  );
  return `copies made of them before, ${fate}:\n${lines.join('\n')}\n`;
}

function formatErased(copies: readonly MemoryCopy[], erased: readonly MemoryErasure[]): string {
  if (copies.length === 0) return 'no copies of them were made in other sessions\n';
  const lines = erased.map(
    (session) =>
      `  session ${session.sessionId}: ${session.events} ${session.events === 1 ? 'event' : 'events'} and ${session.calls} recorded ${session.calls === 1 ? 'call' : 'calls'} rewritten`,
  );
  return `copies erased, each replaced by a tombstone:\n${lines.join('\n')}\n`;
}

function formatMemories(memories: readonly MemoryEntry[], style: Style): string {
  if (memories.length === 0) return 'no memories\n';
  return `${memories
    .map((memory) => {
      const text = memory.content.parts.flatMap((part) => ('text' in part ? [part.text] : [])).join(' ');
      const where = memory.source?.sessionId === undefined ? 'written directly' : `session ${memory.source.sessionId}`;
      return `${style.cyan(memory.id)} ${style.dim(`${memory.author ?? '?'} · ${memory.timestamp ?? '?'} · ${where}`)}\n  ${text}`;
    })
    .join('\n')}\n`;
}
