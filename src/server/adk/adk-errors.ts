import type { ErrorReply } from '../http-error.js';

/**
 * ADK's servers answer an error with `{ "error": message }` (JS) or `{ "detail": message }` (Python); ADK's clients read
 * `error`. The message here carries what agentctx's own errors say besides: each problem at its path, and the hint.
 */
export function adkErrorMessage(reply: ErrorReply): string {
  const { message, hint, issues } = reply.body.error;
  const problems = issues === undefined || issues.length === 0 ? '' : `: ${issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)).join('; ')}`;
  return `${message}${problems}${hint === undefined ? '' : ` ${hint}`}`;
}

export function adkErrorBody(reply: ErrorReply): { error: string } {
  return { error: adkErrorMessage(reply) };
}
