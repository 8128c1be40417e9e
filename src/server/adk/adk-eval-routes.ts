import type { RouteTable } from '../routes.js';
import type { AdkHandler } from './adk-context.js';
import {
  getEvalResult,
  listEvalResultIds,
  listEvalResults,
  listMetricsInfo,
  runEvalLegacy,
  runEvalSetRoute,
} from './adk-eval-runs.js';
import {
  addSessionToEvalSet,
  createEvalSet,
  createEvalSetById,
  deleteEvalCase,
  deleteEvalSet,
  getEvalCase,
  getEvalSet,
  listEvalCaseIds,
  listEvalSetIds,
  listEvalSets,
  updateEvalCase,
} from './adk-eval-sets.js';

/** The eval routes under one prefix: ADK's current names (hyphens) and its older ones (underscores), one handler each. */
function evalRoutes(prefix: string): RouteTable<AdkHandler> {
  const cases = { GET: getEvalCase, PUT: updateEvalCase, DELETE: deleteEvalCase };
  const set = { GET: getEvalSet, DELETE: deleteEvalSet };
  return [
    { path: `${prefix}/eval-sets`, methods: { GET: listEvalSets, POST: createEvalSet } },
    { path: `${prefix}/eval_sets`, methods: { GET: listEvalSetIds, POST: createEvalSet } },
    { path: `${prefix}/eval-sets/:set`, methods: set },
    { path: `${prefix}/eval_sets/:set`, methods: { ...set, POST: createEvalSetById } },
    { path: `${prefix}/eval-sets/:set/add-session`, methods: { POST: addSessionToEvalSet } },
    { path: `${prefix}/eval_sets/:set/add_session`, methods: { POST: addSessionToEvalSet } },
    { path: `${prefix}/eval_sets/:set/evals`, methods: { GET: listEvalCaseIds } },
    { path: `${prefix}/eval_sets/:set/evals/:case`, methods: cases },
    { path: `${prefix}/eval-sets/:set/eval-cases/:case`, methods: cases },
    { path: `${prefix}/eval-sets/:set/run`, methods: { POST: runEvalSetRoute } },
    { path: `${prefix}/eval_sets/:set/run_eval`, methods: { POST: runEvalLegacy } },
    { path: `${prefix}/eval-results`, methods: { GET: listEvalResults } },
    { path: `${prefix}/eval_results`, methods: { GET: listEvalResultIds } },
    { path: `${prefix}/eval-results/:result`, methods: { GET: getEvalResult } },
    { path: `${prefix}/eval_results/:result`, methods: { GET: getEvalResult } },
    { path: `${prefix}/metrics-info`, methods: { GET: listMetricsInfo } },
  ];
}

/**
 * ADK's eval routes: ADK Python 2.x serves them under `/dev/apps/{app}/…` (dev_server.py), where the dev UI calls them,
 * and 1.x under `/apps/{app}/…` (adk_web_server.py of v1.35.0); both are served, by the same handlers.
 */
export const ADK_EVAL_ROUTES: RouteTable<AdkHandler> = [...evalRoutes('/dev/apps/:app'), ...evalRoutes('/apps/:app')];
