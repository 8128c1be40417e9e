import type { Content } from '../contracts/content.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { MemoryInput, MemoryService } from '../contracts/memory-service.js';
import { findMemoryCopies } from '../engine/memory/memory-copies.js';
import { eraseMemoryCopies } from '../engine/memory/memory-erasure.js';
import { readContent } from '../engine/session/decode-content.js';
import { JsonReader, joinPath } from '../engine/util/json-reader.js';
import { HttpError } from './http-error.js';
import { checkIdLength, readQuery } from './request-input.js';
import type { Handler, RouteContext } from './route-context.js';

// The memory of a user (docs/memory.md, docs/server.md): remembered sessions and memories written directly, searched,
// listed and deleted for good. Every route is scoped by the app served and the path's user.

/** `GET …/memory[?query=Q | ?session=S]` → `{ memories }`: a search (best first), or a list (oldest first). */
export const getMemory: Handler = async (context) => {
  const { query, session } = readQuery(context.url.searchParams, { query: 'text', session: 'text' });
  if (query !== undefined && session !== undefined)
    throw queryIssue('query', 'search the whole memory or list a session, not both: leave out query or session');
  const memory = memoryOf(context);
  const scope = scopeOf(context);
  const memories =
    query === undefined
      ? await memory.listMemories({ ...scope, ...(session === undefined ? {} : { sessionId: session }) })
      : (await memory.searchMemory({ ...scope, query })).memories;
  return { status: 200, body: { memories } };
};

/**
 * `POST …/memory` with `{ sessionId }` → 200 `{ remembered }` (the session added, again replacing what it gave
 * before), or with `{ memories: [{ text | content, author?, timestamp?, customMetadata?, id? }] }` → 201
 * `{ memories }` as stored. `PATCH` takes `{ sessionId }` too, as ADK's route does.
 */
export const postMemory: Handler = async (context) => {
  const body = readMemoryBody(await context.body(), context.req.method === 'PATCH');
  const memory = memoryOf(context);
  const scope = scopeOf(context);
  if ('memories' in body) return { status: 201, body: { memories: await memory.addMemory({ ...scope, ...body }) } };
  const session = await context.runner.sessions.getSession({ ...scope, sessionId: body.sessionId });
  if (session === undefined)
    throw new HttpError(404, 'not_found', `Session ${body.sessionId} of user ${scope.userId} is not here.`, {
      hint: `List the user's sessions: GET /apps/${scope.appName}/users/${scope.userId}/sessions.`,
    });
  await memory.addSessionToMemory(session);
  const remembered = await memory.listMemories({ ...scope, sessionId: session.id });
  return { status: 200, body: { remembered: remembered.length } };
};

/**
 * `DELETE …/memory/{id}`, `DELETE …/memory?session=S` or `DELETE …/memory?all=true` → `{ deleted, copies }`: gone
 * for good, with the copies made of them before (load_memory results in other sessions, recorded requests), which
 * stay unless `redact=true` erases them in place (`erased`: per session, the events and calls rewritten). `dryRun=true`
 * deletes nothing and answers `{ wouldDelete, copies }`.
 */
export const deleteMemory: Handler = async (context) => {
  const { session, all, dryRun, redact } = readQuery(context.url.searchParams, {
    session: 'text',
    all: 'text',
    dryRun: 'text',
    redact: 'text',
  });
  const id = context.params['memory'];
  for (const [name, value] of [
    ['all', all],
    ['dryRun', dryRun],
    ['redact', redact],
  ] as const)
    if (value !== undefined && value !== 'true') throw queryIssue(name, `expected true, got ${JSON.stringify(value)}`);
  if ([id, session, all].filter((chosen) => chosen !== undefined).length !== 1)
    throw queryIssue(
      id === undefined ? 'session' : 'all',
      'name what to delete, once: DELETE …/memory/{id}, …/memory?session={id} or …/memory?all=true',
    );
  const memory = memoryOf(context);
  const scope = scopeOf(context);
  const targets = (
    await memory.listMemories({ ...scope, ...(session === undefined ? {} : { sessionId: session }) })
  ).filter((entry) => id === undefined || entry.id === id);
  if (id !== undefined && targets.length === 0)
    throw new HttpError(404, 'not_found', `Memory ${id} of user ${scope.userId} is not here.`, {
      hint: `List the user's memories: GET /apps/${scope.appName}/users/${scope.userId}/memory.`,
    });
  const { sessions, calls } = context.runner;
  const copies = await findMemoryCopies(
    {
      listSessions: (input) => sessions.listSessions(input),
      getSession: (input) => sessions.getSession(input),
      ...(calls === undefined
        ? {}
        : {
            listModelCalls: (input) => calls.listModelCalls(input),
            getModelCall: (input) => calls.getModelCall(input),
          }),
    },
    scope,
    targets,
  );
  if (redact === 'true' && copies.length > 0 && sessions.rewriteText === undefined)
    throw new HttpError(400, 'invalid_input', 'This server’s session store cannot erase copies in place.', {
      hint: 'Serve a SQL store (SQLite or PostgreSQL), or delete without redact=true.',
    });
  if (dryRun === 'true') return { status: 200, body: { wouldDelete: targets.length, copies } };
  const deleted =
    id !== undefined
      ? Number(await memory.deleteMemory({ ...scope, id }))
      : session !== undefined
        ? await memory.deleteSessionMemories({ ...scope, sessionId: session })
        : await memory.deleteUserMemories(scope);
  if (redact !== 'true') return { status: 200, body: { deleted, copies } };
  const erased = await eraseMemoryCopies(sessions, scope, targets, copies, new Date());
  return { status: 200, body: { deleted, copies, erased } };
};

type MemoryBody = { sessionId: string } | { memories: MemoryInput[] };

function readMemoryBody(value: unknown, sessionOnly: boolean): MemoryBody {
  const reader = new JsonReader();
  const what = sessionOnly ? 'a JSON object ({ sessionId })' : 'a JSON object ({ sessionId } or { memories })';
  const record = reader.object(value, '', what);
  if (record !== undefined) {
    reader.keys(record, '', sessionOnly ? ['sessionId', 'session_id'] : ['sessionId', 'memories']);
    if (record['sessionId'] === undefined && record['session_id'] !== undefined)
      record['sessionId'] = record['session_id'];
    const sessionId = reader.string(record, 'sessionId', '', { optional: true, nonEmpty: true });
    checkIdLength(reader, sessionId, 'sessionId');
    const memories = record['memories'] === undefined ? undefined : readMemories(reader, record['memories']);
    if ((sessionId === undefined) === (memories === undefined) && reader.issues.length === 0)
      reader.issue(
        'sessionId',
        sessionOnly ? 'is required: the session to remember' : 'give the session to remember, or memories, not both',
      );
    if (reader.issues.length === 0) return sessionId === undefined ? { memories: memories ?? [] } : { sessionId };
  }
  throw new ValidationError({ subject: 'request body', issues: reader.issues, hint: 'Send {"sessionId": "s1"}.' });
}

function readMemories(reader: JsonReader, value: unknown): MemoryInput[] | undefined {
  const list = reader.array(value, 'memories');
  if (list === undefined) return undefined;
  if (list.length === 0) reader.issue('memories', 'is empty: give at least one memory, such as { "text": "…" }');
  return list.flatMap((item, index) => {
    const path = joinPath('memories', index);
    const record = reader.object(item, path, 'a memory ({ text | content, author?, timestamp? })');
    if (record === undefined) return [];
    reader.keys(record, path, ['id', 'text', 'content', 'author', 'timestamp', 'customMetadata']);
    const text = reader.string(record, 'text', path, { optional: true, nonEmpty: true });
    const content: Content | undefined =
      record['content'] === undefined
        ? text === undefined
          ? undefined
          : { role: 'user', parts: [{ text }] }
        : readContent(reader, record['content'], joinPath(path, 'content'));
    if ((text === undefined) === (record['content'] === undefined))
      reader.issue(path, 'give the memory as text or as content ({ role, parts }), one of them');
    const id = reader.string(record, 'id', path, { optional: true, nonEmpty: true });
    checkIdLength(reader, id, joinPath(path, 'id'));
    const author = reader.string(record, 'author', path, { optional: true });
    const timestamp = reader.string(record, 'timestamp', path, { optional: true });
    const metadata =
      record['customMetadata'] === undefined
        ? undefined
        : reader.object(record['customMetadata'], joinPath(path, 'customMetadata'));
    if (content === undefined) return [];
    return [
      {
        content,
        ...(id === undefined ? {} : { id }),
        ...(author === undefined ? {} : { author }),
        ...(timestamp === undefined ? {} : { timestamp }),
        ...(metadata === undefined ? {} : { customMetadata: metadata }),
      },
    ];
  });
}

function memoryOf(context: RouteContext): MemoryService {
  const memory = context.runner.memory;
  if (memory === undefined)
    throw new HttpError(400, 'memory_not_configured', 'This server keeps no memory.', {
      hint: 'Give the runner a memory service (createRunner({ memory })); agentctx serve gives every app its store’s.',
    });
  return memory;
}

function scopeOf(context: RouteContext) {
  return { appName: context.runner.appName, userId: context.params['user'] ?? '' };
}

function queryIssue(path: string, message: string): ValidationError {
  return new ValidationError({ subject: 'query', issues: [{ path, message }] });
}
