// One ADK API server process for bench:throughput: @google/adk-devtools' AdkApiServer with @google/adk's
// DatabaseSessionService on the PostgreSQL URL given, serving the agent of scale-agent.mjs rebuilt from ADK's classes
// (count_turn adds one to `user:turns` and to the session's `turns`, then the model confirms) with a model that
// answers at once. Prints `listening on <url>` when ready. `--init` creates the tables first (ADK's init() races when
// several processes start on an empty database, so the benchmark starts one with --init, then the others).
import { BaseLlm, DatabaseSessionService, FunctionTool, LlmAgent } from '@google/adk';
import { AdkApiServer } from '@google/adk-devtools';
import { z } from 'zod';
import { countTurn } from './count-turn.mjs';

const url = process.argv[2];
if (url === undefined) throw new Error('usage: throughput-adk-server.mjs <postgres-url> [--init]');

// Call count_turn, then say "counted" once its response is in: scale-script.yaml's two answers.
class CountingLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request) {
    const last = request.contents.at(-1);
    const answered = (last?.parts ?? []).some((part) => part.functionResponse?.name === 'count_turn');
    yield answered
      ? { content: { role: 'model', parts: [{ text: 'counted' }] } }
      : { content: { role: 'model', parts: [{ functionCall: { name: 'count_turn', args: { turn: 'this turn' } } }] } };
  }
  async connect() {
    throw new Error('no live mode');
  }
}

const countTurnTool = new FunctionTool({
  name: 'count_turn',
  description: 'Counts this turn for the user and for the session.',
  parameters: z.object({ turn: z.string() }),
  execute: async (args, context) => countTurn(args, context),
});
const agent = new LlmAgent({
  name: 'scale',
  instruction: 'Count every turn, then confirm it.',
  model: new CountingLlm(),
  tools: [countTurnTool],
});

const sessionService = new DatabaseSessionService(url);
if (process.argv.includes('--init')) await sessionService.init();
const dispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');
const server = new AdkApiServer({
  host: '127.0.0.1',
  port: 0,
  sessionService,
  logLevel: 3,
  agentLoader: {
    listAgents: async () => ['scale'],
    getAgentFile: async () => ({ load: async () => agent, [dispose]: async () => undefined }),
  },
});
// ADK prints banners with console.log: keep stdout for the one line the benchmark reads.
const log = console.log;
console.log = () => undefined;
await server.start();
log(`listening on ${server.url}`);
process.once('SIGTERM', async () => {
  await server.stop();
  process.exit(0);
});
