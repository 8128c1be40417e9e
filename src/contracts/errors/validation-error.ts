import { AgentctxError } from './agentctx-error.js';

/** One problem found in a value, located by a path such as `events[3].content.parts[0]`. */
export type ValidationIssue = {
  path: string;
  message: string;
};

export type ValidationErrorOptions = {
  /** What was being read: `event`, `session`, a file name. */
  subject: string;
  issues: readonly ValidationIssue[];
  code?: 'invalid_input' | 'unsupported_version';
  hint?: string;
  cause?: unknown;
};

/** Input that does not have the shape agentctx needs; lists every problem found, not just the first. */
export class ValidationError extends AgentctxError {
  static override readonly errorName: string = 'ValidationError';

  readonly subject: string;
  readonly issues: readonly ValidationIssue[];

  constructor(options: ValidationErrorOptions) {
    super({
      code: options.code ?? 'invalid_input',
      message: formatMessage(options.subject, options.issues),
      hint: options.hint,
      cause: options.cause,
    });
    this.subject = options.subject;
    this.issues = options.issues;
  }
}

function formatMessage(subject: string, issues: readonly ValidationIssue[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`));
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `Invalid ${subject}: ${shown.join('; ')}${more}`;
}
