import type { EvalSet } from '../../contracts/evaluation.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { evalCaseOfSession } from '../../analysis/eval/session-eval-case.js';
import type { Runner } from '../../engine/runner/runner.js';
import { HttpError } from '../http-error.js';
import { appRunner, sessionNotFound, type AdkContext, type AdkHandler } from './adk-context.js';
import { readAddSessionBody, readCreateEvalSetBody, readEvalCaseBody } from './adk-eval-input.js';
import { evalCaseJson, evalSetJson } from './adk-eval-json.js';
import type { EvalFiles } from './eval-files.js';

// ADK's eval set and eval case routes (dev_server.py L748–1000, commit bb56aa56), over the files of `EvalFiles`. ADK's
// status codes and messages where it answers 4xx; where ADK fails with a 500 (an add_session naming a missing
// session or eval set, an update of a missing case) the answer is 404.

/** The app's runner and the eval files; 404 naming `evalDir` when the server keeps none (the dev UI then hides its tab). */
export function evalPlace(context: AdkContext): { runner: Runner; files: EvalFiles; appName: string } {
  const runner = appRunner(context);
  if (context.evals === undefined)
    throw new HttpError(404, 'eval_not_configured', 'This server keeps no eval sets.', {
      hint: 'Give it a folder for them: createAdkServer({ evalDir }), or agentctx serve --protocol adk --eval-dir <dir>.',
    });
  return { runner, files: context.evals, appName: runner.appName };
}

/** The path's eval set; `status` and ADK's message `Eval set \`<id>\` not found.` when it is not there. */
export async function pathEvalSet(context: AdkContext, status: 400 | 404 = 404): Promise<EvalSet> {
  const { files, appName } = evalPlace(context);
  const id = context.params['set'] ?? '';
  const set = await files.getEvalSet(appName, id);
  if (set === undefined) throw evalSetNotFound(id, status);
  return set;
}

/** `GET …/eval_sets` → the ids of the app's eval sets, sorted. */
export const listEvalSetIds: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  return { status: 200, body: await files.listEvalSets(appName) };
};

/** `GET …/eval-sets` → `{ evalSetIds }`. */
export const listEvalSets: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  return { status: 200, body: { evalSetIds: await files.listEvalSets(appName) } };
};

/** `POST …/eval-sets` with `{ evalSet: { evalSetId } }` → the new, empty eval set; 400 for a bad or taken id. */
export const createEvalSet: AdkHandler = async (context) => {
  const { evalSetId } = readCreateEvalSetBody(await context.body());
  const { files, appName } = evalPlace(context);
  return { status: 200, body: evalSetJson(await files.createEvalSet(appName, evalSetId)) };
};

/** `POST …/eval_sets/{id}` (ADK's older form) → 200 `null`. */
export const createEvalSetById: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  await files.createEvalSet(appName, context.params['set'] ?? '');
  return { status: 200, body: null };
};

/** `GET …/eval_sets/{id}` → the eval set with its cases (the dev UI asks; ADK Python has no such route). */
export const getEvalSet: AdkHandler = async (context) => ({
  status: 200,
  body: evalSetJson(await pathEvalSet(context)),
});

/** `DELETE …/eval_sets/{id}` → 200 `null`, its results kept (the dev UI asks; ADK Python has no such route). */
export const deleteEvalSet: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  const id = context.params['set'] ?? '';
  if (!(await files.deleteEvalSet(appName, id))) throw evalSetNotFound(id, 404);
  return { status: 200, body: null };
};

/**
 * `POST …/eval_sets/{id}/add_session` with `{ evalId, sessionId, userId }` → 200 `null`: the session becomes a case
 * of the set, its invocations the expected ones (`evalCaseOfSession`). 400 for an eval id already in the set.
 */
export const addSessionToEvalSet: AdkHandler = async (context) => {
  const body = readAddSessionBody(await context.body());
  const { runner, files, appName } = evalPlace(context);
  const session = await runner.sessions.getSession({ appName, userId: body.userId, sessionId: body.sessionId });
  if (session === undefined) throw sessionNotFound(body.sessionId);
  const evalCase = evalCaseOfSession({ evalId: body.evalId, session, agents: runner.tree.nodes });
  const id = context.params['set'] ?? '';
  const changed = await files.changeEvalSet(appName, id, (set) => {
    if (set.evalCases.some((item) => item.evalId === body.evalId))
      throw new HttpError(
        400,
        'eval_case_exists',
        `Eval id \`${body.evalId}\` already exists in \`${set.evalSetId}\` eval set.`,
      );
    return { ...set, evalCases: [...set.evalCases, evalCase] };
  });
  if (changed === undefined) throw evalSetNotFound(id, 404);
  return { status: 200, body: null };
};

/** `GET …/eval_sets/{id}/evals` → the set's case ids, sorted; 400 for a set not there, as ADK answers. */
export const listEvalCaseIds: AdkHandler = async (context) => {
  const set = await pathEvalSet(context, 400);
  return { status: 200, body: set.evalCases.map((item) => item.evalId).sort() };
};

/** `GET …/eval_sets/{id}/evals/{case}` → the case; 404 when the set or the case is not there. */
export const getEvalCase: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  const setId = context.params['set'] ?? '';
  const caseId = context.params['case'] ?? '';
  const found = (await files.getEvalSet(appName, setId))?.evalCases.find((item) => item.evalId === caseId);
  if (found === undefined)
    throw new NotFoundError({
      resource: 'eval case',
      id: caseId,
      message: `Eval set \`${setId}\` or Eval \`${caseId}\` not found.`,
    });
  return { status: 200, body: evalCaseJson(found) };
};

/**
 * `PUT …/eval_sets/{id}/evals/{case}` with an `EvalCase` → 200 `null`: the case replaced (and moved last, as ADK does).
 * 400 when the body names another eval id; 404 when the set or the case is not there.
 */
export const updateEvalCase: AdkHandler = async (context) => {
  const caseId = context.params['case'] ?? '';
  const updated = readEvalCaseBody(await context.body());
  if (updated.evalId !== '' && updated.evalId !== caseId)
    throw new HttpError(400, 'eval_id_mismatch', 'Eval id in EvalCase should match the eval id in the API route.');
  await changeCase(context, caseId, (cases) => [...cases, { ...updated, evalId: caseId }]);
  return { status: 200, body: null };
};

/** `DELETE …/eval_sets/{id}/evals/{case}` → 200 `null`; 404 when the set or the case is not there. */
export const deleteEvalCase: AdkHandler = async (context) => {
  await changeCase(context, context.params['case'] ?? '', (cases) => cases);
  return { status: 200, body: null };
};

// The set without the case, then `rest` of what is left; ADK's messages for a set or case not there.
async function changeCase(
  context: AdkContext,
  caseId: string,
  rest: (others: EvalSet['evalCases']) => EvalSet['evalCases'],
): Promise<void> {
  const { files, appName } = evalPlace(context);
  const setId = context.params['set'] ?? '';
  const changed = await files.changeEvalSet(appName, setId, (set) => {
    if (!set.evalCases.some((item) => item.evalId === caseId))
      throw new NotFoundError({
        resource: 'eval case',
        id: caseId,
        message: `Eval case \`${caseId}\` not found in eval set \`${set.evalSetId}\`.`,
      });
    return { ...set, evalCases: rest(set.evalCases.filter((item) => item.evalId !== caseId)) };
  });
  if (changed === undefined) throw evalSetNotFound(setId, 404);
}

function evalSetNotFound(id: string, status: 400 | 404): Error {
  const message = `Eval set \`${id}\` not found.`;
  const hint = 'GET …/eval_sets lists the app’s eval sets.';
  return status === 404
    ? new NotFoundError({ resource: 'eval set', id, message, hint })
    : new HttpError(400, 'eval_set_not_found', message, { hint });
}
