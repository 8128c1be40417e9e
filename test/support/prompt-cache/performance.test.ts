import { describe, expect, it } from 'vitest';
import { AnthropicCacheSimulator, GeminiImplicitCacheSimulator, OpenAICacheSimulator } from './index.js';

// A long session with the default tokenizer: 200 calls whose prompts grow past 90k tokens, in fresh objects each call.
// Each block is counted once and hashed once per call, so each simulator takes a few hundred milliseconds here;
// re-tokenizing every prompt would take over ten seconds. The bound leaves room for slow CI.

const VOCABULARY = ['report', 'revenue', 'quarter', 'margin', 'costs', 'north', 'south', 'tool', 'result', 'the', 'of', 'and', 'total', 'batch'];

function prose(seed: number, wordCount: number): string {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(VOCABULARY[state % VOCABULARY.length] as string);
  }
  return out.join(' ');
}

const CALLS = 200;
const documents = Array.from({ length: 45 }, (_, i) => prose(i + 1, 1500));
const turns = Array.from({ length: CALLS }, (_, i) => prose(1000 + i, 120));

function history(call: number): { role: string; content: string }[] {
  const messages = turns.slice(0, call).map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: text }));
  if (messages.length % 2 === 0) messages.push({ role: 'user', content: 'continue' });
  return messages;
}

/** The milliseconds `bill` takes over the session, building each call's body outside the clock. */
function timed<T>(build: (call: number) => T, bill: (body: T) => void): number {
  let elapsed = 0;
  for (let call = 1; call <= CALLS; call++) {
    const body = build(call);
    const started = performance.now();
    bill(body);
    elapsed += performance.now() - started;
  }
  return elapsed;
}

describe('prompt-cache simulators, speed', () => {
  it('bills a 200-call session of ~100k-token prompts in a second or so per provider', () => {
    const clock = { t: 0 };
    const tick = () => (clock.t += 20_000);

    const anthropic = new AnthropicCacheSimulator({ now: () => clock.t });
    const anthropicBody = (call: number) => ({ model: 'claude-sonnet-4-5', max_tokens: 1000, cache_control: { type: 'ephemeral' }, system: documents.map((text) => ({ type: 'text', text })), messages: history(call) });
    let read = 0;
    let last = 0;
    const anthropicMs = timed(anthropicBody, (body) => {
      tick();
      const usage = anthropic.bill(body);
      read += usage.cache_read_input_tokens;
      last = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
    });

    const openai = new OpenAICacheSimulator({ now: () => clock.t });
    const system = documents.join('\n');
    const openaiBody = (call: number) => ({ model: 'gpt-4.1', messages: [{ role: 'system', content: system }, ...history(call)] });
    let cached = 0;
    const openaiMs = timed(openaiBody, (body) => {
      tick();
      cached += openai.bill(body).prompt_tokens_details.cached_tokens;
    });

    const gemini = new GeminiImplicitCacheSimulator({ now: () => clock.t });
    const geminiBody = (call: number) => ({
      systemInstruction: { parts: documents.map((text) => ({ text })) },
      contents: history(call).map((message) => ({ role: message.role === 'user' ? 'user' : 'model', parts: [{ text: message.content }] })),
    });
    let implicit = 0;
    const geminiMs = timed(geminiBody, (body) => {
      tick();
      implicit += gemini.bill('gemini-2.5-flash', body).cachedContentTokenCount ?? 0;
    });

    expect(last).toBeGreaterThan(90_000);
    expect(read).toBeGreaterThan(0);
    expect(cached).toBeGreaterThan(0);
    expect(implicit).toBeGreaterThan(0);
    expect(Math.max(anthropicMs, openaiMs, geminiMs)).toBeLessThan(3_000);
  });
});
