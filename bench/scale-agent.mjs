// The agent every server of bench:scale runs: each turn it calls count_turn once, which adds one to `user:turns`
// (a read-modify-write of state shared by all of the user's sessions) and to the session's own `turns`, then answers.
import { functionTool, llmAgent } from '../dist/index.js';
import { countTurn } from './count-turn.mjs';

const countTurnTool = functionTool({
  name: 'count_turn',
  description: 'Counts this turn for the user and for the session.',
  jsonSchema: { type: 'object', properties: { turn: { type: 'string' } }, required: ['turn'] },
  execute: async (args, context) => countTurn(args, context),
});

export default llmAgent({ name: 'scale', instruction: 'Count every turn, then confirm it.', tools: [countTurnTool] });
