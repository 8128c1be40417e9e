// The agent every server of bench:scale runs: each turn it calls count_turn once, which adds one to `user:turns`
// (a read-modify-write of state shared by all of the user's sessions) and to the session's own `turns`, then answers.
import * as agentctx from '../dist/index.js';
import { countTurn, scaleAgent } from './count-turn.mjs';

export default scaleAgent(agentctx, countTurn);
