import type { ValidationError } from '../../src/contracts/errors/validation-error.js';

/** What `run` throws; fails the test when it throws nothing. */
export function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** The paths of a ValidationError's issues, in order. */
export const issuePaths = (error: unknown): string[] => (error as ValidationError).issues.map((issue) => issue.path);
