import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import type { Runner } from '../../src/engine/runner/runner.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';

/**
 * The app both ADK servers are compared on: `weather_agent` calls `get_weather`, which writes `last_city` to state and
 * saves `report.txt`, then answers; asked for the forecast it hands over to `forecaster`, which answers itself.
 */
export function weatherRunner(sessions: SessionStore): Runner {
  const getWeather = functionTool<{ city: string }>({
    name: 'get_weather',
    description: 'Returns the weather in a city.',
    jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: async (args, context) => {
      const city = args.city;
      context.state.set('last_city', city);
      await context.artifacts.save('report.txt', { kind: 'text', mimeType: 'text/plain', text: `Sunny in ${city}.` });
      return { city, weather: 'sunny' };
    },
  });
  const model = createScriptedModel({
    rules: [
      {
        when: { lastUserText: 'forecast' },
        respond: { functionCall: { name: 'transfer_to_agent', args: { agent_name: 'forecaster' } } },
        times: 1,
      },
      { when: (_request, call) => call.agentName === 'forecaster', respond: { text: 'Tomorrow: rain.' } },
      {
        when: (request) => JSON.stringify(request.messages.at(-1)).includes('"functionResponse"'),
        respond: { text: 'It is sunny in Paris.' },
      },
      { respond: { functionCall: { name: 'get_weather', args: { city: 'Paris' } } } },
    ],
  });
  return createRunner({
    agents: llmAgent({
      name: 'weather_agent',
      description: 'Answers questions about the weather.',
      instruction: 'Answer weather questions with get_weather.',
      tools: [getWeather],
      subAgents: [llmAgent({ name: 'forecaster', description: 'Gives forecasts.', instruction: 'Give forecasts.' })],
    }),
    sessions,
    artifacts: createInMemoryArtifactStore(),
    model,
    streaming: true,
  });
}
