import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EvalSet, EvalSetResult } from '../../contracts/evaluation.js';
import { formatEvalSet, parseEvalSet } from '../../analysis/eval/eval-set-file.js';
import {
  EVAL_HISTORY_DIR,
  EVAL_SET_RESULT_FILE_EXTENSION,
  checkPathSegment,
  evalSetResultFileName,
  formatEvalSetResult,
} from '../../analysis/eval/eval-set-result-file.js';
import { parseEvalSetResult } from '../../analysis/eval/eval-set-result-reader.js';
import { HttpError } from '../http-error.js';

const EVAL_SET_FILE_EXTENSION = '.evalset.json';
/** How ADK names the sessions an evaluation runs in (cli_eval.py `EVAL_SESSION_ID_PREFIX`); its session list hides them. */
export const EVAL_SESSION_ID_PREFIX = '___eval___session___';
// ADK's `_validate_id` of a new eval set (local_eval_sets_manager.py): letters, digits and underscores.
const NEW_EVAL_SET_ID = /^[a-zA-Z0-9_]+$/;

/**
 * Eval sets and their results in files, where ADK 2.5.0's `LocalEvalSetsManager` and `LocalEvalSetResultsManager`
 * keep them (commit bb56aa56): `<dir>/<app>/<eval set id>.evalset.json`, and `<dir>/<app>/.adk/eval_history/
 * <result name>.evalset_result.json`, so `adk web` and `adk eval` read what this server writes, and the other way.
 * Every name is checked as ADK's `validate_path_segment` checks it before it becomes part of a path. A file is written
 * to a temporary name beside it and renamed, so a reader never sees half of one.
 */
export class EvalFiles {
  // The change of each eval set file under way: changes to one file wait for each other, so none is lost.
  private readonly changing = new Map<string, Promise<unknown>>();

  constructor(readonly dir: string) {}

  /** The ids of the app's eval sets, sorted; none when the app has no folder (ADK logs that and answers `[]`). */
  async listEvalSets(appName: string): Promise<string[]> {
    const names = await listFolder(this.appDir(appName));
    return names
      .filter((name) => name.endsWith(EVAL_SET_FILE_EXTENSION))
      .map((name) => name.slice(0, -EVAL_SET_FILE_EXTENSION.length))
      .sort();
  }

  /** The eval set, or undefined when its file is not there; a file that is not an eval set is a `ValidationError`. */
  async getEvalSet(appName: string, evalSetId: string): Promise<EvalSet | undefined> {
    const path = this.evalSetPath(appName, evalSetId);
    const text = await readIfThere(path);
    return text === undefined
      ? undefined
      : parseEvalSet(text, `${appName}/${evalSetId}${EVAL_SET_FILE_EXTENSION}`, { evalSetId });
  }

  /** A new, empty eval set; 400 with ADK's messages for an id it refuses or one already there. */
  async createEvalSet(appName: string, evalSetId: string, now: number = Date.now() / 1000): Promise<EvalSet> {
    if (!NEW_EVAL_SET_ID.test(evalSetId))
      throw new HttpError(
        400,
        'invalid_eval_set_id',
        `Invalid Eval Set ID. Eval Set ID should have the \`${NEW_EVAL_SET_ID.source}\` format`,
      );
    const path = this.evalSetPath(appName, evalSetId);
    if ((await readIfThere(path)) !== undefined)
      throw new HttpError(400, 'eval_set_exists', `EvalSet ${evalSetId} already exists for app ${appName}.`);
    const set: EvalSet = { evalSetId, name: evalSetId, evalCases: [], creationTimestamp: now };
    await writeAtomically(path, formatEvalSet(set));
    return set;
  }

  /**
   * Reads the eval set, changes it and writes it back, one change of a file at a time; undefined, with nothing
   * written, when the set is not there.
   */
  async changeEvalSet(
    appName: string,
    evalSetId: string,
    change: (set: EvalSet) => EvalSet,
  ): Promise<EvalSet | undefined> {
    const path = this.evalSetPath(appName, evalSetId);
    const before = this.changing.get(path) ?? Promise.resolve();
    const next = before.then(async () => {
      const set = await this.getEvalSet(appName, evalSetId);
      if (set === undefined) return undefined;
      const changed = change(set);
      await writeAtomically(path, formatEvalSet(changed));
      return changed;
    });
    const settled = next.catch(() => undefined);
    this.changing.set(path, settled);
    void settled.then(() => {
      if (this.changing.get(path) === settled) this.changing.delete(path);
    });
    return next;
  }

  /** Removes the eval set's file; false when it was not there. Its results stay, as history. */
  async deleteEvalSet(appName: string, evalSetId: string): Promise<boolean> {
    const path = this.evalSetPath(appName, evalSetId);
    if ((await readIfThere(path)) === undefined) return false;
    await rm(path, { force: true });
    return true;
  }

  /** The ids of the app's results (their file names without the extension), oldest first. */
  async listResults(appName: string): Promise<string[]> {
    const names = await listFolder(this.historyDir(appName));
    return names
      .filter((name) => name.endsWith(EVAL_SET_RESULT_FILE_EXTENSION))
      .map((name) => name.slice(0, -EVAL_SET_RESULT_FILE_EXTENSION.length))
      .sort();
  }

  /** A result by id, or undefined when there is no such file. */
  async getResult(appName: string, resultId: string): Promise<EvalSetResult | undefined> {
    checkPathSegment(resultId, 'eval_set_result_id');
    const text = await readIfThere(join(this.historyDir(appName), resultId + EVAL_SET_RESULT_FILE_EXTENSION));
    return text === undefined ? undefined : parseEvalSetResult(text, resultId);
  }

  /** Writes a result as ADK's results manager does (`evalSetResultOf` makes it, with ADK's id). */
  async saveResult(appName: string, result: EvalSetResult): Promise<void> {
    checkPathSegment(result.evalSetId, 'eval_set_id');
    const path = join(this.historyDir(appName), evalSetResultFileName(result));
    await writeAtomically(path, formatEvalSetResult(result));
  }

  private appDir(appName: string): string {
    checkPathSegment(appName, 'app_name');
    return join(this.dir, appName);
  }

  private historyDir(appName: string): string {
    return join(this.appDir(appName), ...EVAL_HISTORY_DIR.split('/'));
  }

  private evalSetPath(appName: string, evalSetId: string): string {
    checkPathSegment(evalSetId, 'eval_set_id');
    return join(this.appDir(appName), evalSetId + EVAL_SET_FILE_EXTENSION);
  }
}

async function listFolder(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

// A temporary file beside the target, then a rename: the file is either the old one or the whole new one.
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
