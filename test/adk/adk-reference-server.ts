import { BaseLlm, FunctionTool, LlmAgent, type LlmRequest, type LlmResponse } from '@google/adk';
import { AdkApiServer } from '@google/adk-devtools';
import { z } from 'zod';

/**
 * ADK's own API server (@google/adk-devtools 2.0.0) serving the weather app of weather-app.ts, built from ADK's
 * classes with a model that answers as the scripted one does, so both servers can be sent the same requests.
 */
export async function startAdkReferenceServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Returns the weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }, context) => {
      context?.state.set('last_city', city);
      await context?.saveArtifact('report.txt', { text: `Sunny in ${city}.` });
      return { city, weather: 'sunny' };
    },
  });
  const agent = new LlmAgent({
    name: 'weather_agent',
    description: 'Answers questions about the weather.',
    instruction: 'Answer weather questions with get_weather.',
    model: new ScriptedLlm('weather'),
    tools: [getWeather],
    subAgents: [
      new LlmAgent({
        name: 'forecaster',
        description: 'Gives forecasts.',
        instruction: 'Give forecasts.',
        model: new ScriptedLlm('forecaster'),
      }),
    ],
  });
  const dispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');
  const agentLoader = {
    listAgents: async () => ['weather_agent'],
    getAgentFile: async (name: string) => {
      if (name !== 'weather_agent') throw new Error(`Agent '${name}' not found`);
      return { load: async () => agent, [dispose]: async () => undefined };
    },
  };
  // The loader's class is not exported; ADK's server only calls these two methods (and disposes what it loads).
  const server = new AdkApiServer({
    host: '127.0.0.1',
    port: 0,
    agentLoader: agentLoader as never,
    logLevel: 3,
  } as never);
  await server.start();
  return { url: server.url, stop: () => server.stop() };
}

// Answers as weather-app.ts's script: the forecast goes to the forecaster, a tool's result is summed up, else the tool.
class ScriptedLlm extends BaseLlm {
  constructor(private readonly role: 'weather' | 'forecaster') {
    super({ model: 'scripted' });
  }

  async *generateContentAsync(request: LlmRequest, stream?: boolean): AsyncGenerator<LlmResponse, void> {
    const last = request.contents.at(-1);
    const text = (last?.parts ?? []).map((part) => part.text ?? '').join('');
    const answered = (last?.parts ?? []).some((part) => part.functionResponse !== undefined);
    const reply = (parts: Record<string, unknown>[]): LlmResponse =>
      ({ content: { role: 'model', parts } }) as LlmResponse;
    if (this.role === 'forecaster') {
      // Streamed word by word, as agentctx's scripted model streams.
      if (stream === true)
        for (const word of ['Tomorrow: ', 'rain.']) yield { ...reply([{ text: word }]), partial: true } as LlmResponse;
      yield reply([{ text: 'Tomorrow: rain.' }]);
    } else if (text.includes('forecast'))
      yield reply([{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'forecaster' } } }]);
    else if (answered) yield reply([{ text: 'It is sunny in Paris.' }]);
    else yield reply([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]);
  }

  async connect(): Promise<never> {
    throw new Error('This test model has no live mode.');
  }
}
