import { AgentctxError } from './agentctx-error.js';

/** A session, artifact or file that the caller named does not exist. */
export class NotFoundError extends AgentctxError {
  static override readonly errorName: string = 'NotFoundError';

  readonly resource: string;
  readonly id: string;

  constructor(options: { resource: string; id: string; message: string; hint?: string }) {
    super({ code: 'not_found', message: options.message, hint: options.hint });
    this.resource = options.resource;
    this.id = options.id;
  }
}
