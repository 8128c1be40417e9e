// The body of bench:scale's count_turn tool, shared by agentctx's agent (scale-agent.mjs) and ADK's
// (throughput-adk-server.mjs), whose tool contexts read and write state alike: one more turn for the user (a
// read-modify-write of state all of the user's sessions share) and for the session.
export function countTurn({ turn }, context) {
  const user = context.state.get('user:turns') ?? 0;
  const session = context.state.get('turns') ?? 0;
  context.state.set('user:turns', user + 1);
  context.state.set('turns', session + 1);
  return { counted: turn, userTurns: user + 1 };
}

// The same turn counted with state operations: each `add` applies to the stored value when the response is stored,
// so sessions of one user counting at once never conflict (no reload, no second run of the tool). The values read
// after the adds are this view's (the session's state as loaded, plus this turn's adds).
export function countTurnWithOps({ turn }, context) {
  context.state.add('user:turns', 1);
  context.state.add('turns', 1);
  return { counted: turn, userTurns: context.state.get('user:turns'), turns: context.state.get('turns') };
}

// bench:scale's agent, its count_turn tool counting with `count` (countTurn or countTurnWithOps); scale-agent.mjs
// and scale-agent-ops.mjs are its two forms. The first argument is agentctx's entry (dist/index.js), passed in by them.
export function scaleAgent({ functionTool, llmAgent }, count) {
  const countTurnTool = functionTool({
    name: 'count_turn',
    description: 'Counts this turn for the user and for the session.',
    jsonSchema: { type: 'object', properties: { turn: { type: 'string' } }, required: ['turn'] },
    execute: async (args, context) => count(args, context),
  });
  return llmAgent({ name: 'scale', instruction: 'Count every turn, then confirm it.', tools: [countTurnTool] });
}
