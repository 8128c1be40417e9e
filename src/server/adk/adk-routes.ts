import { compileRoutes, findRoute, type RouteTable } from '../routes.js';
import { adkBuildGraph, adkBuildGraphImage, adkVersion, listAdkApps } from './adk-apps.js';
import { deleteAdkArtifact, getAdkArtifact, listAdkArtifacts, listAdkArtifactVersions } from './adk-artifacts.js';
import type { AdkHandler } from './adk-context.js';
import { ADK_EVAL_ROUTES } from './adk-eval-routes.js';
import { patchAdkMemory } from './adk-memory.js';
import { runAdk, runAdkSse } from './adk-run.js';
import { createAdkSession, deleteAdkSession, getAdkSession, listAdkSessions, patchAdkSession } from './adk-sessions.js';
import { adkEventTrace, adkSessionTrace } from './adk-trace.js';

const SESSIONS = '/apps/:app/users/:user/sessions';
const ARTIFACTS = `${SESSIONS}/:session/artifacts`;

/** The routes of ADK's API server that agentctx serves (docs/adk-compatibility.md); `:name` segments are parameters. */
export const ADK_ROUTES: RouteTable<AdkHandler> = [
  { path: '/list-apps', methods: { GET: listAdkApps } },
  { path: '/version', methods: { GET: adkVersion } },
  { path: '/run', methods: { POST: runAdk } },
  { path: '/run_sse', methods: { POST: runAdkSse } },
  { path: SESSIONS, methods: { GET: listAdkSessions, POST: createAdkSession } },
  { path: '/apps/:app/users/:user/memory', methods: { PATCH: patchAdkMemory } },
  {
    path: `${SESSIONS}/:session`,
    methods: { GET: getAdkSession, POST: createAdkSession, PATCH: patchAdkSession, DELETE: deleteAdkSession },
  },
  { path: ARTIFACTS, methods: { GET: listAdkArtifacts } },
  { path: `${ARTIFACTS}/:artifact`, methods: { GET: getAdkArtifact, DELETE: deleteAdkArtifact } },
  { path: `${ARTIFACTS}/:artifact/versions`, methods: { GET: listAdkArtifactVersions } },
  { path: `${ARTIFACTS}/:artifact/versions/:version`, methods: { GET: getAdkArtifact } },
  { path: '/debug/trace/session/:session', methods: { GET: adkSessionTrace } },
  { path: '/debug/trace/:event', methods: { GET: adkEventTrace } },
  { path: '/dev/apps/:app/debug/trace/session/:session', methods: { GET: adkSessionTrace } },
  { path: '/dev/apps/:app/debug/trace/:event', methods: { GET: adkEventTrace } },
  { path: '/dev/apps/:app/build_graph', methods: { GET: adkBuildGraph } },
  { path: '/dev/apps/:app/build_graph_image', methods: { GET: adkBuildGraphImage } },
  ...ADK_EVAL_ROUTES,
];

const COMPILED = compileRoutes(ADK_ROUTES);

/** The handler for a method and path, with the path's decoded parameters; 404 or 405 (in ADK's error shape) when there is none. */
export function matchAdkRoute(
  method: string,
  pathname: string,
): { handler: AdkHandler; params: Record<string, string> } {
  return findRoute(COMPILED, method, pathname, 'docs/adk-compatibility.md lists the ADK routes agentctx serves.');
}
