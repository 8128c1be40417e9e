// bench:scale's agent with its counts written as state operations: count_turn adds one to `user:turns` and to the
// session's `turns` with state.add(), applied to the stored values, so the sessions of one user never conflict.
import { functionTool, llmAgent } from '../dist/index.js';
import { countTurnWithOps } from './count-turn.mjs';

const countTurnTool = functionTool({
  name: 'count_turn',
  description: 'Counts this turn for the user and for the session.',
  jsonSchema: { type: 'object', properties: { turn: { type: 'string' } }, required: ['turn'] },
  execute: async (args, context) => countTurnWithOps(args, context),
});

export default llmAgent({ name: 'scale', instruction: 'Count every turn, then confirm it.', tools: [countTurnTool] });
