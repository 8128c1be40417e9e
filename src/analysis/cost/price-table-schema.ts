import type { JsonSchema } from '../../engine/config/agent-file-schema.js';

const price = (what: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  description: `USD per perTokens tokens of ${what}.`,
});

const TOKEN_PRICES: Record<string, JsonSchema> = {
  input: price('input neither read from nor written to a cache'),
  output: price('output (reasoning included)'),
  cacheRead: price('input read from the prompt cache'),
  cacheWrite5m: price(
    'input written to a cache entry that lives 5 minutes (or written at all, for OpenAI models that bill writes); without it, writes bill as input',
  ),
  cacheWrite1h: price('input written to a cache entry that lives an hour'),
  cacheStoragePerHour: {
    type: 'number',
    minimum: 0,
    description: 'USD per perTokens tokens of explicit cache storage per hour (Gemini cachedContents).',
  },
};

/** The JSON Schema of a price table (`assets/prices.json`, or a user's own given with `--prices`). */
export function priceTableSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://agentctx.dev/schema/prices.schema.json',
    title: 'agentctx price table',
    description:
      "Model prices agentctx puts on recorded calls. A user's table replaces the built-in entries of the same provider and model and adds the rest.",
    type: 'object',
    required: ['currency', 'perTokens', 'models'],
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      currency: { const: 'USD' },
      perTokens: { type: 'integer', minimum: 1, description: 'How many tokens each price is for: 1000000.' },
      models: {
        type: 'array',
        items: {
          type: 'object',
          required: ['provider', 'model', 'source', 'date'],
          additionalProperties: false,
          properties: {
            provider: {
              type: 'string',
              minLength: 1,
              description: 'The provider as agentctx names it: anthropic, openai, google.',
            },
            model: { type: 'string', minLength: 1, description: 'The API model id.' },
            match: {
              type: 'array',
              items: { type: 'string', pattern: '^[^*]+\\*?$' },
              description: 'Other model ids it covers; a trailing * matches any ending.',
            },
            ...TOKEN_PRICES,
            above: {
              type: 'object',
              required: ['inputTokens'],
              additionalProperties: false,
              description:
                'A long-context tier: prices for prompts longer than inputTokens; fields left out keep the base price.',
              properties: { inputTokens: { type: 'integer', minimum: 1 }, ...TOKEN_PRICES },
            },
            source: { type: 'string', minLength: 1, description: 'Where the prices come from (a URL).' },
            date: {
              type: 'string',
              pattern: '^\\d{4}-\\d{2}-\\d{2}$',
              description: 'The date the source gives for the prices.',
            },
            note: { type: 'string' },
          },
        },
      },
    },
  };
}
