import { AgentctxError } from './agentctx-error.js';

export type TemplateErrorCode =
  | 'missing_state_key'
  | 'missing_artifact'
  | 'artifact_store_missing'
  | 'artifact_not_text';

/**
 * A `{placeholder}` that cannot be filled. The messages of the first three codes are
 * ADK's own, byte for byte, so logs and tests written against ADK keep matching.
 */
export class TemplateError extends AgentctxError {
  static override readonly errorName: string = 'TemplateError';

  /** The state key or artifact name the placeholder asked for. */
  readonly key: string;

  constructor(options: { code: TemplateErrorCode; key: string; message: string; hint: string }) {
    super(options);
    this.key = options.key;
  }
}
