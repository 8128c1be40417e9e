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

  /**
   * Every problem, where the message shows the first three: their count, then each, grouped by the file it is in (an
   * issue of a file another one names has a path starting with that file's name), and the hint. What the CLI prints.
   */
  describeAll(): string {
    if (this.issues.length <= 3) return this.describe();
    // File → message → the paths with that message, each in the order first met.
    const groups = new Map<string, Map<string, string[]>>();
    for (const { file, path, message } of this.problems()) {
      const messages = groups.get(file) ?? new Map<string, string[]>();
      groups.set(file, messages);
      messages.set(message, [...(messages.get(message) ?? []), path]);
    }
    const listed = [...groups].map(([file, messages]) => {
      const problems = [...messages].map(([message, paths]) => {
        const where = [...new Set(paths.filter((path) => path !== ''))].join(', ');
        return where === '' ? message : `${where}: ${message}`;
      });
      return (file === '' ? '' : `${file}: `) + problems.join('; ');
    });
    const text = `Invalid ${this.subject}: ${this.problems().length} problems: ${listed.join(' | ')}`;
    return this.hint === undefined ? text : `${text}. ${this.hint}`;
  }

  /**
   * Every problem once, with the file it is in apart from its path (an issue of a file another one names has a path
   * starting with that file's name; `file` is empty for the file itself). What `--json` prints.
   */
  problems(): { file: string; path: string; message: string }[] {
    const seen = new Set<string>();
    return this.issues.flatMap((issue) => {
      const key = `${issue.path}\u0000${issue.message}`;
      if (seen.has(key)) return [];
      seen.add(key);
      const inFile = /^(.*\.(?:ya?ml|json)): (.*)$/s.exec(issue.path);
      const file = inFile?.[1] ?? (/\.(?:ya?ml|json)$/.test(issue.path) ? issue.path : '');
      const path = inFile === null ? (file === '' ? issue.path : '') : (inFile[2] ?? '');
      return [{ file, path, message: issue.message }];
    });
  }
}

function formatMessage(subject: string, issues: readonly ValidationIssue[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`));
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `Invalid ${subject}: ${shown.join('; ')}${more}`;
}
