import { AgentctxError } from './agentctx-error.js';

/** A write that would overwrite something: an existing id, or a session that changed in storage since it was loaded. */
export class ConflictError extends AgentctxError {
  constructor(options: { code: 'already_exists' | 'stale_session'; message: string; hint?: string }) {
    super(options);
  }
}
