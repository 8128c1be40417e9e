import { HttpError } from './http-error.js';
import { MAX_ID_LENGTH } from './request-input.js';
import { deleteArtifact, getArtifact, listArtifacts, putArtifact } from './artifact-handlers.js';
import { deleteMemory, getMemory, postMemory } from './memory-handlers.js';
import type { Handler } from './route-context.js';
import { runTurn } from './run-handler.js';
import {
  createSession,
  deleteSession,
  getCall,
  getSession,
  listCalls,
  listEvents,
  listSessions,
} from './session-handlers.js';

// With the runner's live counts, so a load balancer or a load test can watch a process.
const healthz: Handler = async (context) => ({
  status: 200,
  body: {
    ok: true,
    invocations: context.runner.stats.invocations,
    conflictsRetried: context.runner.stats.conflictsRetried,
    mostAttempts: context.runner.stats.mostAttempts,
  },
});

const SESSIONS = '/apps/:app/users/:user/sessions';
const MEMORY = '/apps/:app/users/:user/memory';

/** Every route of the API; `:name` segments are parameters. */
export const ROUTES: RouteTable<Handler> = [
  { path: '/healthz', methods: { GET: healthz } },
  { path: SESSIONS, methods: { POST: createSession, GET: listSessions } },
  { path: `${SESSIONS}/:session`, methods: { GET: getSession, DELETE: deleteSession } },
  { path: `${SESSIONS}/:session/run`, methods: { POST: runTurn } },
  { path: `${SESSIONS}/:session/events`, methods: { GET: listEvents } },
  { path: `${SESSIONS}/:session/calls`, methods: { GET: listCalls } },
  { path: `${SESSIONS}/:session/calls/:call`, methods: { GET: getCall } },
  { path: `${SESSIONS}/:session/artifacts`, methods: { GET: listArtifacts } },
  {
    path: `${SESSIONS}/:session/artifacts/:artifact`,
    methods: { GET: getArtifact, PUT: putArtifact, DELETE: deleteArtifact },
  },
  { path: MEMORY, methods: { GET: getMemory, POST: postMemory, PATCH: postMemory, DELETE: deleteMemory } },
  { path: `${MEMORY}/:memory`, methods: { DELETE: deleteMemory } },
];

const COMPILED = compileRoutes(ROUTES);

/** The handler for a method and path, with the path's decoded parameters; 404 or 405 when there is none. */
export function matchRoute(method: string, pathname: string): { handler: Handler; params: Record<string, string> } {
  return findRoute(
    COMPILED,
    method,
    pathname,
    'Routes: GET /healthz, /apps/{app}/users/{user}/sessions[/{id}[/run|/events|/calls[/{n}]|/artifacts[/{name}]]] and /apps/{app}/users/{user}/memory[/{id}]; see docs/server.md.',
  );
}

/** A route table: paths with `:name` parameters, each with a handler per method. */
export type RouteTable<H> = readonly { path: string; methods: Readonly<Record<string, H>> }[];
type CompiledRoute<H> = { path: string; methods: Readonly<Record<string, H>>; segments: string[] };

export function compileRoutes<H>(routes: RouteTable<H>): CompiledRoute<H>[] {
  return routes.map((route) => ({ ...route, segments: route.path.split('/').slice(1) }));
}

/** The first route whose path matches, and its handler for the method; 404 (with `hint`) or 405 otherwise. */
export function findRoute<H>(
  routes: readonly CompiledRoute<H>[],
  method: string,
  pathname: string,
  hint: string,
): { handler: H; params: Record<string, string> } {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  for (const route of routes) {
    const params = matchSegments(route.segments, segments);
    if (params === undefined) continue;
    const handler = route.methods[method];
    if (handler === undefined) {
      const allowed = Object.keys(route.methods).join(', ');
      throw new HttpError(
        405,
        'method_not_allowed',
        `${method} is not allowed on ${route.path}; it takes ${allowed}.`,
        { headers: { allow: allowed } },
      );
    }
    return { handler, params };
  }
  throw new HttpError(404, 'route_not_found', `No route matches ${method} ${pathname}.`, { hint });
}

/**
 * The request target as a URL: paths stay paths even when they start with `//`; absolute URLs (from proxies) are read
 * whole. A path that WHATWG URL parsing would change is refused rather than rewritten: a `.` or `..` segment (also
 * percent-encoded: `%2e%2e`) would be resolved, so `DELETE …/sessions/s1/artifacts/..` would address the session
 * itself, and a `\` would become a `/`. Routes are then matched on the path exactly as the client sent it.
 */
export function requestUrl(target: string): URL {
  let url: URL;
  try {
    url = new URL(target.startsWith('/') ? `http://localhost${target}` : target);
  } catch {
    throw new HttpError(400, 'bad_path', `The request target ${JSON.stringify(target)} is not a path.`);
  }
  const path = rawPath(target);
  if (path.includes('\\')) {
    throw new HttpError(
      400,
      'bad_path',
      `The path ${JSON.stringify(cut(path))} holds a backslash, which URL parsing turns into '/'.`,
      { hint: 'Percent-encode it (%5C) in an id or a name.' },
    );
  }
  for (const segment of path.split('/')) {
    if (/^(?:\.|%2e){1,2}$/i.test(segment)) {
      throw new HttpError(
        400,
        'bad_path',
        `The path ${JSON.stringify(cut(path))} has a '${segment}' segment, which would be resolved as a step up the path instead of naming anything.`,
        {
          hint: "Ids and artifact names cannot be '.' or '..'; anything else, percent-encoded with encodeURIComponent, can be.",
        },
      );
    }
  }
  return url;
}

/** The path of a request target as sent: from the first `/` of an origin-form target, or after an absolute URL's authority. */
function rawPath(target: string): string {
  const start = target.startsWith('/') ? 0 : (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target)?.[0].length ?? 0);
  const rest = target.slice(start);
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

const cut = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = decodeSegment(segment, part.slice(1));
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string, name: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'bad_path', `The ${name} in the path (${cut(segment)}) is not valid percent-encoding.`, {
      hint: 'Encode ids with encodeURIComponent.',
    });
  }
  if (decoded.length > MAX_ID_LENGTH) {
    throw new HttpError(
      400,
      'id_too_long',
      `The ${name} in the path is ${decoded.length.toLocaleString('en')} characters long; ids are at most ${MAX_ID_LENGTH.toLocaleString('en')}.`,
      { hint: 'Use a shorter id.' },
    );
  }
  return decoded;
}
