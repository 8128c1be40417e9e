import { AgentctxError } from './agentctx-error.js';

/** A command line or option that cannot be understood. */
export class UsageError extends AgentctxError {
  static override readonly errorName: string = 'UsageError';

  constructor(message: string, hint?: string) {
    super({ code: 'usage', message, hint });
  }
}
