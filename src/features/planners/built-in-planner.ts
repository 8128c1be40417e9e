import type { Extension } from '../../contracts/agent.js';
import type { ThinkingConfig } from '../../contracts/request.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { PLANNER } from './plan-re-act.js';

/**
 * ADK's `BuiltInPlanner(thinking_config=…)` (planners/built_in_planner.py at 2.5.0): the model's own thinking, set on
 * every request of the agent over what its generate config says (ADK's planner wins too), and sent as each provider
 * takes it (Gemini's `thinkingConfig`, Anthropic's thinking budget, OpenAI's reasoning effort).
 */
export function builtInPlanner(options: { thinking: ThinkingConfig }): Extension {
  const thinking = { ...options.thinking };
  const processor = defineProcessor({
    name: PLANNER,
    process: (draft) => ({ ...draft, config: { ...draft.config, thinking: { ...thinking } } }),
  });
  return Object.freeze({ name: PLANNER, processors: [{ processor, at: 'start' as const }] });
}
