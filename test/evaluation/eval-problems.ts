import { readEvalSet } from '../../src/analysis/eval/eval-set-file.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';

/** Every problem `readEvalSet` reports for a file, as `path: message` lines; fails when it reports none. */
export function problems(json: unknown, options: Parameters<typeof readEvalSet>[2] = {}): string[] {
  try {
    readEvalSet(json, 'bad.evalset.json', options);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map(({ path, message }) => `${path}: ${message}`);
    throw error;
  }
  throw new Error('expected a ValidationError');
}
