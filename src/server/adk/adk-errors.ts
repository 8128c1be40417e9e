import type { ErrorReply } from '../http-error.js';

/**
 * ADK's servers answer an error with `{ "error": message }` (JS) or `{ "detail": message }` (Python); ADK's clients read
 * `error`. The message here carries what agentctx's own errors say besides: each problem at its path, and the hint.
 */
export function adkErrorMessage(reply: ErrorReply): string {
  const { message, hint, issues } = reply.body.error;
  // A validation error's message already names its first problems; only those it leaves out (its "and N more") are added.
  const problems = (issues ?? []).map((issue) =>
    issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`,
  );
  const missing = problems.filter((problem) => !message.includes(problem));
  const listed =
    missing.length === 0
      ? message
      : missing.length < problems.length
        ? `${message.replace(/ \(and \d+ more\)$/, '')}; ${missing.join('; ')}`
        : `${message}: ${missing.join('; ')}`;
  return `${listed}${hint === undefined ? '' : ` ${hint}`}`;
}

export function adkErrorBody(reply: ErrorReply): { error: string } {
  return { error: adkErrorMessage(reply) };
}
