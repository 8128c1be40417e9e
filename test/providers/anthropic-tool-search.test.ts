import { afterEach, describe, expect, it } from 'vitest';
import type { LlmRequest, ToolDeclaration } from '../../src/contracts/request.js';
import type { Tool, Toolset } from '../../src/contracts/tool.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { withDeferredToolsLoaded } from '../../src/engine/tools/deferred-tools.js';
import { SEARCH_TOOLS, toolSearch } from '../../src/features/tool-search/tool-search.js';
import { createAnthropicModel } from '../../src/models/anthropic/anthropic-model.js';
import { toAnthropicCountTokensBody, toAnthropicRequest } from '../../src/models/anthropic/to-anthropic-request.js';
import { toGeminiRequest } from '../../src/models/gemini/to-gemini-request.js';
import { toOpenAIRequest } from '../../src/models/openai/to-openai-request.js';
import { createRunner } from '../../src/presets/create-runner.js';
import {
  AnthropicCacheRequestError,
  createAnthropicCacheSimulator,
  type AnthropicCacheUsage,
} from '../../src/testing/prompt-cache/index.js';
import { fakeServers } from './fake-server.js';

// Anthropic's own form of tool search: deferred definitions go with `defer_loading: true`, and the response of
// agentctx's `search_tools` becomes `tool_reference` blocks that the API expands in place. Checked on the exact body,
// and end to end against a local server that bills as Anthropic documents (deferred definitions outside the prompt,
// each reference expanded where it stands).

const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
const declaration = (name: string): ToolDeclaration => ({ name, description: `Does ${name}.`, parameters: schema });

const REQUEST: LlmRequest = {
  system: 'Help.',
  tools: [declaration('clock'), declaration(SEARCH_TOOLS)],
  deferredTools: {
    loader: SEARCH_TOOLS,
    declarations: [declaration('merge'), declaration('close'), declaration('label')],
  },
  messages: [
    { role: 'user', content: [{ text: 'merge 4, then close it' }] },
    { role: 'model', content: [{ functionCall: { id: 'toolu_s1', name: SEARCH_TOOLS, args: { query: 'merge' } } }] },
    {
      role: 'user',
      content: [
        {
          functionResponse: {
            id: 'toolu_s1',
            name: SEARCH_TOOLS,
            response: { query: 'merge', loaded: ['merge', 'unknown'], result: 'Loaded 1 tool.' },
          },
        },
      ],
    },
    { role: 'model', content: [{ functionCall: { id: 'toolu_s2', name: SEARCH_TOOLS, args: { query: 'close' } } }] },
    {
      role: 'user',
      content: [
        {
          functionResponse: {
            id: 'toolu_s2',
            name: SEARCH_TOOLS,
            response: { query: 'close', loaded: ['merge', 'close'], result: 'Loaded 2 tools.' },
          },
        },
      ],
    },
    {
      role: 'model',
      content: [{ functionCall: { id: 'toolu_s3', name: SEARCH_TOOLS, args: { query: 'merge again' } } }],
    },
    {
      role: 'user',
      content: [
        {
          functionResponse: {
            id: 'toolu_s3',
            name: SEARCH_TOOLS,
            response: { query: 'merge again', loaded: ['merge'], result: 'Loaded 1 tool.' },
          },
        },
      ],
    },
  ],
  config: {},
};

const wireTool = (name: string) => ({ name, description: `Does ${name}.`, input_schema: schema });

describe('the Messages API body of a request with deferred tools', () => {
  it('sends the deferred definitions after the tools with defer_loading, and each search response as references to what it loaded first', () => {
    const body = toAnthropicRequest(REQUEST, {
      model: 'claude-sonnet-4-5',
      cache: {},
      stablePrefix: { systemChars: 5, messages: 7 },
    });
    expect(body.tools).toEqual([
      wireTool('clock'),
      // The breakpoint closes the tools that are in the prompt; deferred ones are not.
      { ...wireTool(SEARCH_TOOLS), cache_control: { type: 'ephemeral' } },
      { ...wireTool('merge'), defer_loading: true },
      { ...wireTool('close'), defer_loading: true },
      { ...wireTool('label'), defer_loading: true },
    ]);
    const results = body.messages
      .filter((message) => message.role === 'user')
      .slice(1)
      .map((message) => message.content[0]);
    expect(results[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_s1',
      content: [{ type: 'tool_reference', tool_name: 'merge' }],
    });
    expect(results[1]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_s2',
      content: [{ type: 'tool_reference', tool_name: 'close' }],
    });
    // Nothing new to load: the response goes as JSON text, like any other.
    expect(results[2]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_s3',
      content: JSON.stringify({ query: 'merge again', loaded: ['merge'], result: 'Loaded 1 tool.' }),
    });
  });

  it('counts tokens over the same tools and references', () => {
    const count = toAnthropicCountTokensBody(REQUEST, 'claude-sonnet-4-5');
    const body = toAnthropicRequest(REQUEST, { model: 'claude-sonnet-4-5' });
    expect(count.tools).toEqual(body.tools);
    expect(count.messages).toEqual(body.messages);
  });

  it('offers the loaded definitions in full when no tool would be loaded up front (the API refuses every tool deferred)', () => {
    const body = toAnthropicRequest({ ...REQUEST, tools: [] }, { model: 'claude-sonnet-4-5' });
    expect(body.tools).toEqual([wireTool('merge'), wireTool('close')]);
    expect(JSON.stringify(body.messages)).not.toContain('tool_reference');
  });

  it('never sends a name twice: a deferred definition a tool already has stays out', () => {
    const body = toAnthropicRequest(
      { ...REQUEST, tools: [...REQUEST.tools, declaration('label')] },
      { model: 'claude-sonnet-4-5' },
    );
    expect(body.tools?.map((tool) => `${tool.name}${tool.defer_loading === true ? '*' : ''}`)).toEqual([
      'clock',
      SEARCH_TOOLS,
      'label',
      'merge*',
      'close*',
    ]);
  });

  it('gives Gemini and OpenAI the loaded definitions as ordinary tools', () => {
    const portable = withDeferredToolsLoaded(REQUEST).tools.map((tool) => tool.name);
    expect(portable).toEqual(['clock', SEARCH_TOOLS, 'merge', 'close']);
    expect(
      toOpenAIRequest(REQUEST, { model: 'gpt-5', maxTokensField: 'max_completion_tokens' }).tools?.map(
        (tool) => tool.function.name,
      ),
    ).toEqual(portable);
    expect(
      toGeminiRequest(REQUEST, 'gemini-2.5-flash').config.tools?.[0]?.functionDeclarations?.map((tool) => tool.name),
    ).toEqual(portable);
  });
});

// Forty tools of an MCP server's published size (≈ 26k tokens for GitHub's 35), all deferred.
const words = (seed: number, count: number) =>
  Array.from({ length: count }, (_, index) => `w${(seed * 31 + index * 7) % 997}`).join(' ');
const bigTool = (index: number): Tool => ({
  name: index === 0 ? 'merge_pull_request' : `github_tool_${index}`,
  description:
    index === 0
      ? `Merges a pull request into its base branch. ${words(index, 300)}`
      : `Does repository task ${index}. ${words(index, 300)}`,
  parameters: {
    type: 'object',
    properties: {
      owner: { type: 'string', description: words(index + 1, 80) },
      repo: { type: 'string' },
      pull_number: { type: 'integer' },
    },
    required: ['owner', 'repo'],
  },
  execute: (args) => ({ merged: true, args }),
});
const github: Toolset = {
  kind: 'toolset',
  name: 'github',
  deferred: true,
  listTools: async () => ({ tools: Array.from({ length: 40 }, (_, index) => bigTool(index)) }),
};

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

// One conversation (search, merge, answer) against a fresh local server; `native: false` runs the portable form
// (loaded definitions appended to the tools), as agentctx does for providers that cannot hold definitions back.
async function mergeConversation(native: boolean) {
  const counter = await loadTokenCounter();
  const cache = createAnthropicCacheSimulator({ countTokens: counter.count });
  const billed: AnthropicCacheUsage[] = [];
  const server = await serve((received) => {
    const body = received.body as { messages: { content: { type: string; content?: unknown }[] }[] };
    let usage: AnthropicCacheUsage;
    try {
      usage = cache.bill(body, { outputTokens: 10 });
    } catch (error) {
      if (error instanceof AnthropicCacheRequestError) return { status: 400, json: error.body() };
      throw error;
    }
    billed.push(usage);
    const last = body.messages.at(-1)?.content[0];
    const searched = JSON.stringify(last).includes('merge_pull_request');
    const content =
      last?.type !== 'tool_result'
        ? [
            {
              type: 'tool_use',
              id: 'toolu_search',
              name: SEARCH_TOOLS,
              input: { query: 'merge a pull request', limit: 1 },
            },
          ]
        : searched && !JSON.stringify(last).includes('merged')
          ? [
              {
                type: 'tool_use',
                id: 'toolu_merge',
                name: 'merge_pull_request',
                input: { owner: 'acme', repo: 'web', pull_number: 4 },
              },
            ]
          : [{ type: 'text', text: 'Merged pull request 4.' }];
    return {
      json: {
        id: `msg_${billed.length}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
        stop_reason: content[0]?.type === 'text' ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage,
      },
    };
  });
  const sessions = createInMemorySessionStore();
  const anthropic = createAnthropicModel({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-local',
    baseURL: server.url,
    env: {},
    retry: false,
  });
  const runner = createRunner({
    agents: llmAgent({
      name: 'dev',
      instruction: `You merge pull requests for the team. ${words(7, 900)}`,
      toolsets: [github],
      extensions: [toolSearch()],
    }),
    model: native ? anthropic : { ...anthropic, loadsDeferredTools: false },
    sessions,
  });
  await runner.createSession({ userId: 'u', sessionId: 's' });
  const texts: string[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Merge PR 4 of acme/web.' })) {
    if (event.author !== 'user')
      for (const part of event.content?.parts ?? []) if ('text' in part) texts.push(part.text);
  }
  const calls = await Promise.all(
    server.received.map((_, index) =>
      sessions.getModelCall({ appName: 'dev', userId: 'u', sessionId: 's', index: index + 1 }),
    ),
  );
  return { counter, billed, server, sessions, texts, calls };
}

const promptOf = (usage: AnthropicCacheUsage) =>
  usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
// Input billed in units of the base input price: reads at 0.1×, 5-minute writes at 1.25×.
const inputCost = (usages: readonly AnthropicCacheUsage[]) =>
  usages.reduce(
    (sum, usage) =>
      sum + usage.input_tokens + 0.1 * usage.cache_read_input_tokens + 1.25 * usage.cache_creation_input_tokens,
    0,
  );

describe('tool search on a server that loads deferred tools as Anthropic documents', () => {
  it('keeps every call’s tools identical, bills no deferred definition until a reference loads it, and reads the prefix from the cache after the load', {
    timeout: 60_000,
  }, async () => {
    const { counter, billed, server, sessions, texts, calls } = await mergeConversation(true);
    expect(texts).toEqual(['Merged pull request 4.']);
    expect(server.received).toHaveLength(3);
    const bodies = server.received.map(
      (received) =>
        received.body as { tools: { name: string; defer_loading?: boolean }[]; messages: { content: unknown[] }[] },
    );

    // One tools array, byte for byte, on every call: 1 tool up front, 40 deferred.
    for (const body of bodies) expect(JSON.stringify(body.tools)).toBe(JSON.stringify(bodies[0]?.tools));
    expect(bodies[0]?.tools.filter((tool) => tool.defer_loading === true)).toHaveLength(40);
    expect(bodies[1]?.messages.at(-1)?.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_search',
      content: [{ type: 'tool_reference', tool_name: 'merge_pull_request' }],
    });

    // The loaded tool ran for real.
    const session = await sessions.getSession({ appName: 'dev', userId: 'u', sessionId: 's' });
    const merged = session?.events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => 'functionResponse' in part && part.functionResponse.name === 'merge_pull_request');
    expect(merged).toEqual({
      functionResponse: {
        id: 'toolu_merge',
        name: 'merge_pull_request',
        response: { merged: true, args: { owner: 'acme', repo: 'web', pull_number: 4 } },
      },
    });

    // What the first call would have cost with every definition in the prompt, on a cache of its own.
    const first = calls[0]?.request as LlmRequest;
    const { deferredTools, ...rest } = first;
    const inFull = toAnthropicRequest(
      { ...rest, tools: [...first.tools, ...(deferredTools?.declarations ?? [])] },
      { model: 'claude-sonnet-4-5', cache: {} },
    );
    const allTools = createAnthropicCacheSimulator({ countTokens: counter.count }).bill(inFull);
    expect(promptOf(billed[0] as AnthropicCacheUsage) / promptOf(allTools)).toBeLessThan(0.15);
    // The load only added to the prompt: the later calls read what came before from the cache.
    for (const usage of billed.slice(1))
      expect(usage.cache_read_input_tokens / promptOf(usage)).toBeGreaterThanOrEqual(0.7);
    // The second call carries the loaded definition's tokens in its prompt.
    expect(promptOf(billed[1] as AnthropicCacheUsage) - promptOf(billed[0] as AnthropicCacheUsage)).toBeGreaterThan(
      300,
    );

    // What agentctx recorded as sent is what the server received.
    expect(calls.map((call) => call?.wire?.body)).toEqual(server.received.map((received) => received.rawBody));
    expect(calls.map((call) => call?.request.deferredTools?.declarations.length)).toEqual([40, 40, 40]);
  });

  it('costs less input than the portable form, whose load changes the tools and so misses the cached system text and history', {
    timeout: 60_000,
  }, async () => {
    const native = await mergeConversation(true);
    const portable = await mergeConversation(false);
    expect(portable.texts).toEqual(native.texts);
    expect(portable.calls.map((call) => call?.request.deferredTools)).toEqual([undefined, undefined, undefined]);
    // The portable load rewrites the tools, so its second call reads nothing it wrote before.
    expect(portable.billed[1]?.cache_read_input_tokens).toBe(0);
    expect(native.billed[1]?.cache_read_input_tokens).toBeGreaterThan(0);
    expect(inputCost(native.billed)).toBeLessThan(inputCost(portable.billed));
  });

  it('the local server refuses, as the API does, a reference to a tool that is not deferred and a request whose every tool is', () => {
    const cache = createAnthropicCacheSimulator({ countTokens: (text) => text.length });
    const body = toAnthropicRequest(REQUEST, { model: 'claude-sonnet-4-5' });
    const broken = { ...body, tools: body.tools?.filter((tool) => tool.name !== 'close') };
    expect(() => cache.bill(broken)).toThrow(/tool_reference_unresolved: tool_reference names 'close'/);
    expect(() => cache.bill({ ...body, tools: body.tools?.map((tool) => ({ ...tool, defer_loading: true })) })).toThrow(
      /All tools have defer_loading set/,
    );
  });
});
