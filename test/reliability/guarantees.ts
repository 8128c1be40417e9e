import type { Row } from './rows.js';

/**
 * What a user relies on, each with its limit: `docs/reliability.md` is grouped by these, and every row of the table
 * belongs to exactly one (the table test checks it). Rows are assigned by the prefix of their id, so a new row lands
 * in its guarantee by being named like its neighbours.
 */
export type Guarantee = {
  title: string;
  /** What holds, stated as the rows check it. */
  promise: string;
  /** Where it stops holding, and what it costs to go further. */
  limits: readonly string[];
  /** Id prefixes (a prefix ends at a `.` or the id's end) of the rows that show it. */
  ids: readonly string[];
};

export const GUARANTEES: readonly Guarantee[] = [
  {
    title: 'What was acknowledged is stored, and nothing is half-written',
    promise:
      'An event, a state change or an artifact version is either stored whole or not at all: once `appendEvent` (or a turn event the runner yields) has returned, a process killed at any point keeps it, and a restart finds no partial write — the revision equals the number of events and state equals their deltas. Whatever is stored reads back exactly as written, on every store.',
    limits: [
      "SQLite runs in WAL mode with `synchronous=NORMAL`: that survives the process being killed, but an operating-system crash or a power loss can roll back the last transactions acknowledged before it (the file is never corrupted). `createSqliteSessionStore({ synchronous: 'full' })` adds an fsync per commit and survives power loss too; on this machine it costs 2.65× the time per append (0.71 → 1.89 ms, `npm run bench:durability`). The CLI and `serve` always use `NORMAL`.",
      'PostgreSQL is as durable as its server is configured to be (`synchronous_commit=on`, its default, waits for the WAL flush).',
      'The memory store keeps nothing past the process; the file artifact store writes each version to a new file, so an interrupted save leaves no version rather than a torn one.',
    ],
    ids: ['kill', 'live', 'fuzz.codec'],
  },
  {
    title: 'Writers at the same time lose nothing',
    promise:
      'Many runners, processes and servers may share one SQLite file or one PostgreSQL database: every append checks the revision it read, a stale copy fails instead of overwriting, and the runner reloads and retries, so concurrent turns of one session each land once and concurrent sessions of one user all count in a `user:` key. `npm run bench:concurrency` measures it beside @google/adk 2.0.0: agentctx lost 0 updates and 0 events and duplicated none on SQLite and PostgreSQL, where ADK on the same SQLite workload ended its counter at 19 of 200 and lost 835 of 1,000 appended events.',
    limits: [
      'A turn retries a conflicting write for up to 30 s, the writers of one process taking turns per session or user, and then fails with `ConflictError`: hundreds of writers hammering one key with read-modify-write can still see that error rather than wait forever. Counters and logs written with `state.add()`/`append()` never conflict.',
      "SQLite serializes writers on one file; a writer waits up to `busyTimeoutMs` (5 s) for another process's transaction. Many processes writing hard belong on PostgreSQL.",
    ],
    ids: ['conflict'],
  },
  {
    title: 'A crash, a hang or a failing provider does not stop the session',
    promise:
      "A model or tool that never answers is cut off at `modelTimeoutMs` / `toolTimeoutMs` (the model gets an `{ error }` it can act on, the turn an error event); providers that fail are retried with backoff and then reported; a partial stream is shown but never stored. A tool call left without its response by a crash is answered as interrupted the next time the session is used, so the model never sees an orphan and compaction plans past it. A PostgreSQL server that restarts, has no pooled connection free or cancels a slow statement fails only the requests it cuts off, with `503 store_unavailable` and `Retry-After` (an `event: error` once a turn's stream has started), each cut-off write stored whole or not at all; the server process reconnects by itself and answers the next request.",
    limits: [
      "An interrupted tool may have done its work before the crash: agentctx records that it was interrupted and never runs it again; making a tool safe to repeat is the tool's business.",
      'A call of another process is presumed still running until it is `toolTimeoutMs` + 1 s old (60 s without a tool limit; `interruptedAfterMs` sets it); until then requests show it as interrupted without storing that.',
      'A provider is tried three times (two retries); a turn then ends with `model_error`.',
      'A write whose COMMIT was under way when the connection broke may have been stored although its request failed (PostgreSQL cannot tell the client which): reload the session before sending the turn again.',
      'A request waits up to `connectionTimeoutMillis` (10 s) for a pooled connection; agentctx sets no `statement_timeout` of its own. Both go in the store URL (`?max=…&connectionTimeoutMillis=…&statement_timeout=…`).',
    ],
    ids: ['hang', 'provider', 'crash', 'model', 'mcp', 'store'],
  },
  {
    title: 'Bad input gets a typed error that names the fix, and stores nothing',
    promise:
      'Agent files, case files, templates, state, events, skills, tool arguments and CLI flags are checked where they enter: a typed error (`AgentctxError`, with a `code`, the exact field and a `hint`), one line and exit 2 on the CLI, an `{ error }` response for a tool call, an error event for a turn that cannot go on — never a crash, never a partial write. Identifiers must be well-formed Unicode without NUL; all JSON entering the system has one depth limit of 512; `__proto__` is an ordinary key in values and refused as a state key.',
    limits: [
      'Text values keep NUL and lone surrogates exactly (they round-trip as JSON); a text artifact cannot hold a lone surrogate (UTF-8 cannot) and is refused.',
      'Values deeper than 512 levels are refused, not truncated.',
    ],
    ids: [
      'agent',
      'case',
      'template',
      'state',
      'hostile',
      'events',
      'skill',
      'tool',
      'cli',
      'fuzz.template.total',
      'fuzz.compaction.config',
    ],
  },
  {
    title: 'The servers answer 4xx for anything a client sends, and stop on time',
    promise:
      '`serve` and `web` answer malformed, oversized, bodyless, non-JSON and cut-off requests with a 4xx JSON body naming the problem (never a 500 or a stack trace), cut stalled uploads off, and shut down within their grace period.',
    limits: [
      'Bodies are limited to 1 MiB; headers must arrive within 10 s and a whole request within 30 s (`--headers-timeout`, `--request-timeout`); SIGTERM waits 5 s for requests in flight.',
      '`serve` stops a model call after 10 minutes by default (`--model-timeout`, `--tool-timeout` change it).',
    ],
    ids: ['http', 'fuzz.http'],
  },
  {
    title: 'The same definitions and session give the same bytes; compaction never splits a call from its result',
    promise:
      "Contents are built the same every time from the same session, whatever its history (branches, late and missing responses, rewinds, overlapping summaries), and a reload does not change a request's bytes. Compaction plans only raw events, once each, in order, and never separates a function call from its response.",
    limits: [
      'Instruction providers, hooks and tools are user code: when they read the clock or a random source, the request changes with them (`agentctx check` warns of such values in the cacheable prefix).',
    ],
    ids: ['fuzz.contents', 'fuzz.compaction.plans'],
  },
  {
    title: 'One user, session or app sees only its own',
    promise:
      "State scopes, sessions, artifacts and recorded calls are kept by app, user and session in every store, through the runner, the HTTP API, the web inspector and `agentctx inspect`; `temp:` keys are never stored; artifact names cannot walk into another user's folder.",
    limits: [
      'Isolation is by the user id the caller gives: the HTTP API has one bearer token for all its users and trusts the user id in the path, so per-user authentication belongs in front of it.',
      'Without a token the servers answer only loopback names; with one, anyone holding it can read every user.',
    ],
    ids: ['isolation', 'untrusted.server', 'untrusted.inspector', 'untrusted.api-key'],
  },
  {
    title: 'Text the agent did not write stays text',
    promise:
      'Skills, memory files, tool output and model answers reach the model only where they belong (skill and memory blocks, function responses), are never filled in as templates, and never reach the system text; file tools stay inside their workspace.',
    limits: [
      'agentctx keeps untrusted text out of the instructions; it cannot stop a model from following what such text says.',
    ],
    ids: ['untrusted', 'fuzz.template.values-literal'],
  },
];

function matches(id: string, prefix: string): boolean {
  return id === prefix || id.startsWith(`${prefix}.`) || id.startsWith(`${prefix}-`);
}

/** The guarantee a row shows: the one with the longest matching prefix (so `untrusted.server` beats `untrusted`). */
export function guaranteeOf(row: Pick<Row, 'id'>): Guarantee | undefined {
  let best: { guarantee: Guarantee; length: number } | undefined;
  for (const guarantee of GUARANTEES) {
    for (const prefix of guarantee.ids) {
      if (matches(row.id, prefix) && (best === undefined || prefix.length > best.length))
        best = { guarantee, length: prefix.length };
    }
  }
  return best?.guarantee;
}
