import { AgentctxError } from './agentctx-error.js';

/** A command line or option that cannot be understood. */
export class UsageError extends AgentctxError {
  constructor(message: string, hint?: string) {
    super({ code: 'usage', message, hint });
  }
}
