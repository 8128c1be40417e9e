import { AgentctxError } from './agentctx-error.js';

/** A request processor failed; names the processor and the agent, and keeps the original error as `cause`. */
export class ProcessorError extends AgentctxError {
  static override readonly errorName: string = 'ProcessorError';

  readonly processor: string;
  readonly agent: string;

  constructor(options: { processor: string; agent: string; cause: unknown }) {
    const inner = options.cause instanceof Error ? options.cause : new Error(String(options.cause));
    const hint = AgentctxError.isInstance(inner) ? inner.hint : undefined;
    super({
      code: AgentctxError.isInstance(inner) ? inner.code : 'processor_failed',
      message: `Processor '${options.processor}' failed for agent '${options.agent}': ${inner.message}`,
      hint,
      cause: options.cause,
    });
    this.processor = options.processor;
    this.agent = options.agent;
  }
}
