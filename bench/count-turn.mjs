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
