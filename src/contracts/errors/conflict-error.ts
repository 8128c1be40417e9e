import { AgentctxError } from './agentctx-error.js';

/**
 * A write that would overwrite something: an existing id (`already_exists`), a session that changed in storage
 * since it was loaded (`stale_session`), or a shared `app:`/`user:` state key that another session changed since
 * this copy read it (`stale_shared_state`, naming the key). Reload the session and try again for the last two.
 */
export class ConflictError extends AgentctxError {
  static override readonly errorName: string = 'ConflictError';

  /** For `stale_shared_state`: the prefixed key (`user:count`) whose stored version moved on. */
  readonly key: string | undefined;

  constructor(options: {
    code: 'already_exists' | 'stale_session' | 'stale_shared_state';
    message: string;
    hint?: string;
    key?: string;
  }) {
    super(options);
    this.key = options.key;
  }
}
