import { createContext, Script } from 'node:vm';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';

/** How long one `lastUserMatches` expression may run on one message, in milliseconds. */
export const MATCH_LIMIT_MS = 100;

// A script's expression comes from a file and the text from a client (`serve --model scripted:`), and a backtracking
// expression such as `(a+)+$` can run for hours on 41 characters, blocking the event loop, which no model timeout
// can interrupt. A vm script's `timeout` can: V8 stops even a regular expression in the middle of its run.
const TEST = new Script('pattern.test(text)');
let sandbox: { pattern: RegExp | undefined; text: string } | undefined;

/** Whether `pattern` matches `text`; throws a typed error when it has not decided within `limitMs`. */
export function matchesWithin(pattern: RegExp, text: string, limitMs: number = MATCH_LIMIT_MS): boolean {
  sandbox ??= createContext({ pattern: undefined, text: '' }) as { pattern: RegExp | undefined; text: string };
  sandbox.pattern = pattern;
  sandbox.text = text;
  try {
    return TEST.runInContext(sandbox, { timeout: limitMs }) === true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    throw new AgentctxError({
      code: 'invalid_input',
      message: `The script's lastUserMatches ${JSON.stringify(pattern.source)} did not finish within ${limitMs} ms on a user message of ${text.length} characters: it backtracks without end on such text.`,
      hint: 'Rewrite it without a repetition inside a repetition, such as (a+)+ or (a|a)*, or match with lastUserText.',
    });
  } finally {
    sandbox.pattern = undefined;
    sandbox.text = '';
  }
}
