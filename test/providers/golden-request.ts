import type { LlmRequest } from '../../src/contracts/request.js';

/**
 * The request every adapter's golden-body tests send: a system text, a tool with a JSON Schema, and a history
 * with text, a model turn that thinks and calls two tools, the two responses, and a user turn with an image.
 * Each adapter must put every piece in its provider's own fields.
 */
export const GOLDEN_REQUEST: LlmRequest = {
  system: 'You are a weather agent.\n\nYou are an agent. Your internal name is "weather".',
  tools: [
    {
      name: 'get_weather',
      description: 'Gets the weather for a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['c', 'f'] } },
        required: ['city'],
      },
    },
    {
      name: 'get_time',
      description: 'Gets the local time of a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
  messages: [
    { role: 'user', content: [{ text: 'Weather and time in Paris?' }] },
    {
      role: 'model',
      content: [
        { text: 'I should look both up.', thought: true, thoughtSignature: 'c2lnLTE=' },
        { text: 'Let me check.' },
        { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris', unit: 'c' } } },
        { functionCall: { id: 'call_2', name: 'get_time', args: { city: 'Paris' } } },
      ],
    },
    {
      role: 'user',
      content: [
        { functionResponse: { id: 'call_1', name: 'get_weather', response: { temperature: 18, sky: 'clear' } } },
        { functionResponse: { id: 'call_2', name: 'get_time', response: { time: '14:05' } } },
      ],
    },
    { role: 'model', content: [{ text: 'It is 18 °C and clear; the time is 14:05.' }] },
    {
      role: 'user',
      content: [
        { text: 'And what is in this picture?' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
  ],
  config: { model: 'the-model', temperature: 0.2, maxOutputTokens: 512, topP: 0.9, stopSequences: ['END'] },
};

/** A request whose history has calls without ids (a Gemini history with ids hidden): adapters that pair by id must invent stable ones. */
export const REQUEST_WITHOUT_CALL_IDS: LlmRequest = {
  system: 'S',
  tools: [GOLDEN_REQUEST.tools[0] as LlmRequest['tools'][number]],
  messages: [
    { role: 'user', content: [{ text: 'Weather in Oslo?' }] },
    { role: 'model', content: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
    { role: 'user', content: [{ functionResponse: { name: 'get_weather', response: { temperature: 3 } } }] },
  ],
  config: {},
};
