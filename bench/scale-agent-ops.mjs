// bench:scale's agent with its counts written as state operations: count_turn adds one to `user:turns` and to the
// session's `turns` with state.add(), applied to the stored values, so the sessions of one user never conflict.
import * as agentctx from '../dist/index.js';
import { countTurnWithOps, scaleAgent } from './count-turn.mjs';

export default scaleAgent(agentctx, countTurnWithOps);
