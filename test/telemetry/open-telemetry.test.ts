import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import type { Model } from '../../src/contracts/model.js';
import type { Telemetry } from '../../src/contracts/telemetry.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { agentTool } from '../../src/engine/tools/agent-tool.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import { fakeServers } from '../providers/fake-server.js';

// The runner's spans through @opentelemetry/api: exported to an in-memory exporter (the tree and every attribute) and
// as OTLP/HTTP to a collector-like receiver on 127.0.0.1; and nothing recorded, nothing failing, without an SDK.

const usage = { promptTokens: 1200, outputTokens: 40, cachedTokens: 1000, totalTokens: 1240 };

function weatherApp() {
  const getWeather = functionTool<{ city: string }>({
    name: 'get_weather',
    description: 'Returns the weather in a city.',
    jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => ({ city, weather: 'sunny' }),
  });
  const poet = agentTool(llmAgent({ name: 'poet', description: 'Writes one line.', instruction: 'Write one line.' }));
  return llmAgent({
    name: 'weather_agent',
    description: 'Answers weather questions.',
    instruction: 'Use get_weather.',
    tools: [getWeather, poet],
  });
}

// A model that says it is Claude Sonnet 4.5 (so the call is priced) and answers from a script.
function sonnet(): Model {
  const scripted = createScriptedModel({
    rules: [
      { when: (_request, call) => call.agentName === 'poet', respond: { text: 'Sun on the river.', usage } },
      {
        when: (request) => JSON.stringify(request.messages.at(-1)).includes('"poet"'),
        respond: { text: 'Sunny; and a line: Sun on the river.', usage, finishReason: 'end_turn' },
      },
      {
        when: (request) => JSON.stringify(request.messages.at(-1)).includes('"functionResponse"'),
        respond: { functionCall: { name: 'poet', args: { request: 'a line about sun' } }, usage },
      },
      { respond: { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, usage, finishReason: 'tool_use' } },
    ],
  });
  return { ...scripted, provider: 'anthropic', modelId: 'claude-sonnet-4-5' };
}

async function runTurn(telemetry: Telemetry | undefined, sessions = createInMemorySessionStore()) {
  const runner = createRunner({ agents: weatherApp(), model: sonnet(), sessions, telemetry });
  await runner.createSession({ userId: 'u', sessionId: 's' });
  for await (const _event of runner.run({
    userId: 'u',
    sessionId: 's',
    message: 'Weather in Paris, and a line about it?',
  }));
  return sessions;
}

const { serve, closeAll } = fakeServers();
afterEach(async () => {
  await closeAll();
  trace.disable();
});

describe('OpenTelemetry spans of a run', () => {
  it('nests invocation → agent → model calls and tool calls (an agent tool’s run under its tool call), with the GenAI attributes', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const sessions = await runTurn(openTelemetry({ tracerProvider: provider }));
    const spans = exporter.getFinishedSpans();
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const path = (span: ReadableSpan): string => {
      const parent = span.parentSpanContext?.spanId === undefined ? undefined : byId.get(span.parentSpanContext.spanId);
      return parent === undefined ? span.name : `${path(parent)} > ${span.name}`;
    };
    expect(spans.map(path).sort()).toEqual(
      [
        'invocation',
        'invocation > invoke_agent weather_agent',
        'invocation > invoke_agent weather_agent > chat claude-sonnet-4-5',
        'invocation > invoke_agent weather_agent > chat claude-sonnet-4-5',
        'invocation > invoke_agent weather_agent > chat claude-sonnet-4-5',
        'invocation > invoke_agent weather_agent > execute_tool get_weather',
        'invocation > invoke_agent weather_agent > execute_tool poet',
        'invocation > invoke_agent weather_agent > execute_tool poet > invocation',
        'invocation > invoke_agent weather_agent > execute_tool poet > invocation > invoke_agent poet',
        'invocation > invoke_agent weather_agent > execute_tool poet > invocation > invoke_agent poet > chat claude-sonnet-4-5',
      ].sort(),
    );
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);

    // The first model call: what agentctx recorded, in the conventions' attributes.
    const record = await sessions.getModelCall({ appName: 'weather_agent', userId: 'u', sessionId: 's', index: 1 });
    const first = spans
      .filter((span) => span.name.startsWith('chat '))
      .find((span) => span.attributes['agentctx.call.index'] === 1) as ReadableSpan;
    expect(first.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-5',
      'gen_ai.agent.name': 'weather_agent',
      'gen_ai.conversation.id': 's',
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 1000,
      'agentctx.usage.cache_read_tokens': 1000,
      'gen_ai.response.finish_reasons': ['tool_use'],
      'agentctx.call.status': 'answered',
    });
    expect(JSON.parse(String(first.attributes['gen_ai.system_instructions']))).toEqual([
      { type: 'text', content: record?.request.system },
    ]);
    expect(JSON.parse(String(first.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris, and a line about it?' }] },
    ]);
    expect(
      JSON.parse(String(first.attributes['gen_ai.tool.definitions'])).map((tool: { name: string }) => tool.name),
    ).toEqual(record?.request.tools.map((tool) => tool.name));
    expect(JSON.parse(String(first.attributes['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', name: 'get_weather', arguments: { city: 'Paris' } }],
        finish_reason: 'tool_use',
      },
    ]);
    expect(JSON.parse(String(first.attributes['agentctx.provenance']))).toEqual({
      system: { instruction: 1, identity: 1 },
      tools: { function: 1, agent: 1 },
      messages: { history: 1 },
    });
    // Priced from the default table: 200 uncached at $3, 1,000 read at $0.30, 40 out at $15 per million.
    expect(first.attributes['agentctx.cost.usd']).toBeCloseTo((200 * 3 + 1000 * 0.3 + 40 * 15) / 1e6, 12);

    const tool = spans.find((span) => span.name === 'execute_tool get_weather') as ReadableSpan;
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.arguments': '{"city":"Paris"}',
      'gen_ai.tool.call.result': '{"city":"Paris","weather":"sunny"}',
    });
    for (const span of spans) for (const value of Object.values(span.attributes)) expect(value).not.toBeNull();
  });

  it('records nothing and fails nothing without an SDK, and builds no attribute for a span nobody records', async () => {
    const off = openTelemetry();
    expect(off.startSpan('x', undefined).recording).toBe(false);
    // The default runner (createRunner without `telemetry`) runs as before.
    const sessions = createInMemorySessionStore();
    const runner = createRunner({ agents: weatherApp(), model: sonnet(), sessions });
    await runner.createSession({ userId: 'u', sessionId: 's' });
    const events = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Weather?' })) events.push(event);
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'Sunny; and a line: Sun on the river.' }]);
    let built = 0;
    const counting: Telemetry = {
      startSpan: () => ({
        recording: false,
        setAttributes: () => void (built += 1),
        fail: () => undefined,
        end: () => undefined,
      }),
    };
    await runTurn(counting);
    expect(built).toBe(0);
  });

  it('a telemetry that throws does not stop a run', async () => {
    const broken: Telemetry = {
      startSpan: () => {
        throw new Error('exporter down');
      },
    };
    const sessions = await runTurn(broken);
    expect(
      (await sessions.listModelCalls({ appName: 'weather_agent', userId: 'u', sessionId: 's' })).map(
        (call) => call.status,
      ),
    ).toEqual(['answered', 'answered', 'answered', 'answered']);
  });

  it('exports OTLP over HTTP to a receiver on 127.0.0.1', async () => {
    const received: unknown[] = [];
    const collector = await serve((request) => {
      received.push(request.body);
      return { json: { partialSuccess: {} } };
    });
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }))],
    });
    await runTurn(openTelemetry({ tracerProvider: provider }));
    await provider.forceFlush();
    await provider.shutdown();
    expect(collector.received.every((request) => request.method === 'POST' && request.url === '/v1/traces')).toBe(true);
    type Otlp = {
      resourceSpans: {
        scopeSpans: {
          scope: { name: string };
          spans: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[];
        }[];
      }[];
    };
    const spans = (received as Otlp[]).flatMap((body) =>
      body.resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ scope: scope.scope.name, ...span }))),
      ),
    );
    expect(spans.map((span) => span.name).sort()).toEqual([
      'chat claude-sonnet-4-5',
      'chat claude-sonnet-4-5',
      'chat claude-sonnet-4-5',
      'chat claude-sonnet-4-5',
      'execute_tool get_weather',
      'execute_tool poet',
      'invocation',
      'invocation',
      'invoke_agent poet',
      'invoke_agent weather_agent',
    ]);
    expect(new Set(spans.map((span) => span.scope))).toEqual(new Set(['agentctx']));
    const chat = spans.find((span) => span.name.startsWith('chat '));
    expect(chat?.attributes.find((attribute) => attribute.key === 'gen_ai.request.model')?.value).toEqual({
      stringValue: 'claude-sonnet-4-5',
    });
    expect(chat?.attributes.find((attribute) => attribute.key === 'gen_ai.usage.input_tokens')?.value).toEqual({
      intValue: 1200,
    });
  });
});
