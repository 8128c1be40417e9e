import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../providers/fake-server.js';
import { agentctxWith } from '../support/cli.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import {
  AnthropicCacheRequestError,
  createAnthropicCacheSimulator,
  type AnthropicCacheUsage,
} from '../../src/testing/prompt-cache/index.js';

// A six-turn conversation through `agentctx run` against a local server that speaks Anthropic's Messages API and
// bills input the way Anthropic documents prompt caching (breakpoints, look-back, minimum size, lifetimes). agentctx
// places the breakpoints on its own; `agentctx cost --json` must then report exactly what the server billed.

const INSTRUCTION = Array.from(
  { length: 60 },
  (_, index) =>
    `Rule ${index + 1}: when a customer asks about order ${1000 + index}, check its status, its carrier and its promised date, and answer in two sentences without guessing.`,
).join('\n');
const AGENT = `name: support
model: anthropic:claude-sonnet-4-5
instruction: |
${INSTRUCTION.split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
tools:
  - name: order_status
    description: Looks up an order by its number and returns its status, carrier and promised delivery date.
    parameters: { type: object, properties: { order: { type: string, description: The order number. } }, required: [order] }
  - name: refund
    description: Starts a refund for an order that arrived damaged or never arrived.
    parameters: { type: object, properties: { order: { type: string }, reason: { type: string } }, required: [order, reason] }
`;

let server: FakeServer;
let dir: string;
const billed: AnthropicCacheUsage[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-caching-'));
  await writeFile(join(dir, 'support.yaml'), AGENT);
  const cache = createAnthropicCacheSimulator({ countTokens: (await loadTokenCounter()).count });
  server = await startFakeServer((request) => {
    try {
      const usage = cache.bill(request.body, { outputTokens: 12 });
      billed.push(usage);
      const turn = billed.length;
      return {
        json: {
          id: `msg_${turn}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: `Answer ${turn}: order ${1000 + turn} ships tomorrow.` }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage,
        },
      };
    } catch (error) {
      if (error instanceof AnthropicCacheRequestError) return { status: 400, json: error.body() };
      throw error;
    }
  });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('prompt caching against a server that caches as Anthropic documents', () => {
  // Eight CLI processes one after another: allowed the time a loaded machine needs.
  it('reads at least 70% of every later call from the cache, and agentctx cost reports exactly the billed cache tokens', {
    timeout: 120_000,
  }, async () => {
    const env = { ANTHROPIC_API_KEY: 'sk-ant-local', ANTHROPIC_BASE_URL: server.url };
    const store = join(dir, 'sessions.db');
    for (let turn = 1; turn <= 6; turn++) {
      const result = await agentctxWith(
        env,
        'run',
        join(dir, 'support.yaml'),
        '--store',
        store,
        '--session',
        'c1',
        '--message',
        `Where is order ${1000 + turn}?`,
      );
      expect(result.stderr + result.stdout).toContain(`Answer ${turn}:`);
      expect(result.code).toBe(0);
    }
    expect(billed).toHaveLength(6);
    // Every request marked the tools, the system text and the end of the history; the server read them back.
    for (const [index, usage] of billed.entries()) {
      const prompt = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
      if (index === 0) expect(usage.cache_read_input_tokens).toBe(0);
      else expect(usage.cache_read_input_tokens / prompt, `call ${index + 1}`).toBeGreaterThanOrEqual(0.7);
    }

    const cost = await agentctxWith(
      {},
      'cost',
      join(dir, 'support.yaml'),
      '--store',
      store,
      '--session',
      'c1',
      '--json',
    );
    expect(cost.code).toBe(0);
    const report = JSON.parse(cost.stdout) as {
      calls: {
        tokens: { input: number; cacheRead: number; cacheWrite: number; output: number };
        usd?: { total: number };
      }[];
      total: { usd?: number; cacheHitRatio: number };
    };
    expect(report.calls.map((call) => call.tokens)).toEqual(
      billed.map((usage) =>
        expect.objectContaining({
          input: usage.input_tokens,
          cacheRead: usage.cache_read_input_tokens,
          cacheWrite: usage.cache_creation_input_tokens,
          output: usage.output_tokens,
        }),
      ),
    );
    // Priced from the table (claude-sonnet-4-5: $3 input, $0.30 read, $3.75 5-minute write, $15 output per million).
    const expected = billed.reduce(
      (sum, usage) =>
        sum +
        (usage.input_tokens * 3 +
          usage.cache_read_input_tokens * 0.3 +
          usage.cache_creation_input_tokens * 3.75 +
          usage.output_tokens * 15) /
          1e6,
      0,
    );
    expect(report.total.usd).toBeCloseTo(expected, 10);
    expect(report.total.cacheHitRatio).toBeGreaterThan(0.6);

    const table = await agentctxWith({}, 'cost', join(dir, 'support.yaml'), '--store', store, '--session', 'c1');
    expect(table.stdout).toMatch(
      /^total {2}6 calls · prompt [\d,]+ tokens .* · \$0\.\d{4} · \d+\.\d% of the prompt from the cache$/m,
    );
    expect(table.stdout).toContain('price of anthropic:claude-sonnet-4-5: https://');
  });
});
