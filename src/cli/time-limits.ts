import { milliseconds } from './listen-options.js';

/** The runner's time limits as `run` and `serve` take them: `--model-timeout`, `--tool-timeout` (0: no limit). */
export type TimeLimits = { modelTimeoutMs: number | undefined; toolTimeoutMs: number | undefined };

/** The help text of both flags; `defaults` names what applies when a flag is absent. */
export function timeLimitHelp(defaults: { model: string; tool: string }): string {
  return `  --model-timeout <ms>
                     time one model call may take, a streamed one until its
                     last chunk (default: ${defaults.model}; 0: no limit); past it the
                     turn ends with a model_timeout error event
  --tool-timeout <ms>
                     time one tool call may take (default: ${defaults.tool}; 0: no
                     limit); past it the tool is stopped and the model told`;
}

/** `--model-timeout` and `--tool-timeout` in whole milliseconds, `defaults` when absent; 0 means no limit. */
export function timeLimitOptions(
  values: { 'model-timeout'?: string | undefined; 'tool-timeout'?: string | undefined },
  defaults: Partial<TimeLimits> = {},
): TimeLimits {
  const model = milliseconds('--model-timeout', values['model-timeout'], 0) ?? defaults.modelTimeoutMs;
  const tool = milliseconds('--tool-timeout', values['tool-timeout'], 0) ?? defaults.toolTimeoutMs;
  return { modelTimeoutMs: model === 0 ? undefined : model, toolTimeoutMs: tool === 0 ? undefined : tool };
}
