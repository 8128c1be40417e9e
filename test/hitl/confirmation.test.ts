import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Part } from '../../src/contracts/content.js';
import type { Event } from '../../src/contracts/event.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { confirmedCalls } from '../../src/engine/runner/confirmations.js';
import { pausedCalls } from '../../src/engine/runner/paused-calls.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { collect, describeEvents, runnerWithSession } from '../runner/helpers.js';
import { agentctxProcess, cli } from '../support/cli.js';

// Tool confirmation (issue 48). The cases translate ADK 2.5.0's tests/unittests/runners/test_run_tool_confirmation.py
// (TestHITLConfirmationFlowWithSingleAgent, TestHITLConfirmationFlowWithCustomPayloadSchema) and
// tests/unittests/flows/llm_flows/test_request_confirmation.py (the answer in ADK's web client's wrapper, a call
// confirmed once only).

const HINT_TEXT =
  'Please approve or reject the tool call _test_function() by responding with a FunctionResponse with an expected ToolConfirmation payload.';
const TOOL_CALL_ERROR_RESPONSE = { error: 'This tool call requires confirmation, please approve or reject.' };

const testFunction = functionTool({
  name: '_test_function',
  description: '',
  requireConfirmation: true,
  execute: (_args, context) => ({ result: `confirmed=${String(context.toolConfirmation?.confirmed)}` }),
});

const customPayloadFunction = functionTool({
  name: '_test_request_confirmation_function_with_custom_schema',
  description: 'A test tool function that requests confirmation, but with a custom payload schema.',
  execute: (_args, context) => {
    if (context.toolConfirmation === undefined) {
      context.requestConfirmation({
        hint: 'test hint for request_confirmation with custom payload schema',
        payload: { test_custom_payload: { int_field: 0, str_field: '', bool_field: false } },
      });
      return TOOL_CALL_ERROR_RESPONSE;
    }
    return {
      result: `confirmed=${String(context.toolConfirmation.confirmed)}`,
      custom_payload: context.toolConfirmation.payload,
    };
  },
});

type Call = { id: string; name: string; args: Record<string, unknown> };
const callOf = (event: Event | undefined) => (event?.content?.parts[0] as { functionCall: Call }).functionCall;
const answer = (id: string, response: Record<string, unknown>) => ({
  role: 'user' as const,
  parts: [{ functionResponse: { id, name: 'adk_request_confirmation', response } }],
});

async function start(tool: typeof testFunction, texts: string[]) {
  const model = createScriptedModel([
    { functionCall: { name: tool.name, args: {} } },
    ...texts.map((text) => ({ text })),
  ]);
  const runner = await runnerWithSession({ agents: llmAgent({ name: 'root_agent', tools: [tool] }), model });
  const events = (await collect(runner, { message: 'test user query' })).slice(1);
  return { model, runner, events };
}

describe('a tool that requires confirmation (TestHITLConfirmationFlowWithSingleAgent)', () => {
  it.each([true, false])('asks, pauses, and runs (or not) on the answer confirmed=%s', async (confirmed) => {
    const { model, runner, events } = await start(testFunction, ['test llm response after tool call']);
    expect(describeEvents(events)).toEqual([
      'root_agent: call _test_function({})',
      `root_agent: call adk_request_confirmation(${JSON.stringify({
        originalFunctionCall: { id: callOf(events[0]).id, args: {}, name: '_test_function' },
        toolConfirmation: { hint: HINT_TEXT, confirmed: false },
      })})`,
      `root_agent: _test_function → ${JSON.stringify(TOOL_CALL_ERROR_RESPONSE)}`,
    ]);
    const request = callOf(events[1]);
    expect(events[1]?.longRunningToolIds).toEqual([request.id]);
    expect(events[2]?.actions.requestedToolConfirmations).toEqual({
      [callOf(events[0]).id]: { hint: HINT_TEXT, confirmed: false },
    });
    const session = await runner.sessions.getSession({ appName: 'root_agent', userId: 'u1', sessionId: 's1' });
    expect(pausedCalls(session?.events ?? []).map((paused) => paused.call.id)).toEqual([request.id]);
    expect(model.requests).toHaveLength(1);

    const resumed = (await collect(runner, { message: answer(request.id, { confirmed }) })).slice(1);
    expect(describeEvents(resumed)).toEqual([
      `root_agent: _test_function → ${JSON.stringify(confirmed ? { result: 'confirmed=true' } : { error: 'This tool call is rejected.' })}`,
      'root_agent: test llm response after tool call',
    ]);
    // The exchange is hidden from the model: it sees its call, then the call's latest response.
    expect(model.requests[1]?.messages.map((message) => message.content)).toEqual([
      [{ text: 'test user query' }],
      [{ functionCall: { name: '_test_function', args: {} } }],
      [
        {
          functionResponse: {
            name: '_test_function',
            response: confirmed ? { result: 'confirmed=true' } : { error: 'This tool call is rejected.' },
          },
        },
      ],
    ]);
  });

  it('runs a confirmed call once: the same answer again is a conflict and runs nothing', async () => {
    const { model, runner, events } = await start(testFunction, ['after tool call', 'after the repeat']);
    const request = callOf(events[1]);
    await collect(runner, { message: answer(request.id, { confirmed: true }) });
    await expect(collect(runner, { message: answer(request.id, { confirmed: true }) })).rejects.toThrow(
      /The confirmation adk-[\w-]+ was answered already, by an earlier message/,
    );
    expect(model.requests).toHaveLength(2);
  });

  it('reads the answer in ADK web client’s { response: "<json>" } wrapper', async () => {
    const { runner, events } = await start(testFunction, ['done']);
    const request = callOf(events[1]);
    const resumed = (await collect(runner, { message: answer(request.id, { response: '{"confirmed": true}' }) })).slice(
      1,
    );
    expect(describeEvents(resumed)[0]).toBe('root_agent: _test_function → {"result":"confirmed=true"}');
  });
});

describe('a tool that asks for confirmation itself (TestHITLConfirmationFlowWithCustomPayloadSchema)', () => {
  it.each([true, false])('carries the hint and payload both ways, confirmed=%s', async (confirmed) => {
    const { runner, events } = await start(customPayloadFunction, [
      'test llm response after tool call',
      'test llm response after final tool call',
    ]);
    const name = customPayloadFunction.name;
    // It did not end the turn itself (no skipped summary): the model answered the error.
    expect(describeEvents(events)).toEqual([
      `root_agent: call ${name}({})`,
      `root_agent: call adk_request_confirmation(${JSON.stringify({
        originalFunctionCall: { id: callOf(events[0]).id, args: {}, name },
        toolConfirmation: {
          hint: 'test hint for request_confirmation with custom payload schema',
          confirmed: false,
          payload: { test_custom_payload: { int_field: 0, str_field: '', bool_field: false } },
        },
      })})`,
      `root_agent: ${name} → ${JSON.stringify(TOOL_CALL_ERROR_RESPONSE)}`,
      'root_agent: test llm response after tool call',
    ]);
    const payload = { test_custom_payload: { int_field: 123, str_field: 'test_str', bool_field: true } };
    const resumed = (await collect(runner, { message: answer(callOf(events[1]).id, { confirmed, payload }) })).slice(1);
    expect(describeEvents(resumed)).toEqual([
      `root_agent: ${name} → ${JSON.stringify({ result: `confirmed=${confirmed}`, custom_payload: payload })}`,
      'root_agent: test llm response after final tool call',
    ]);
  });
});

describe('requireConfirmation as a function of the arguments', () => {
  it('asks only when the rule says so', async () => {
    const transfer = functionTool({
      name: 'transfer',
      description: 'Moves money.',
      jsonSchema: { type: 'object', properties: { amount: { type: 'number' } } },
      requireConfirmation: (args: { amount?: number }) => (args.amount ?? 0) > 100,
      execute: (args: { amount?: number }) => ({ moved: args.amount }),
    });
    const model = createScriptedModel([
      { functionCall: { name: 'transfer', args: { amount: 50 } } },
      { text: 'moved 50' },
      { functionCall: { name: 'transfer', args: { amount: 500 } } },
    ]);
    const runner = await runnerWithSession({ agents: llmAgent({ name: 'bank', tools: [transfer] }), model });
    const small = (await collect(runner, { message: 'move 50' })).slice(1);
    expect(describeEvents(small)[1]).toBe('bank: transfer → {"moved":50}');
    const large = (await collect(runner, { message: 'move 500' })).slice(1);
    const lines = describeEvents(large);
    expect(lines[0]).toBe('bank: call transfer({"amount":500})');
    expect(lines[1]).toMatch(
      /^bank: call adk_request_confirmation\(\{"originalFunctionCall":\{"id":"adk-[\w-]+","args":\{"amount":500\},"name":"transfer"\}/,
    );
    expect(lines[2]).toBe(`bank: transfer → ${JSON.stringify(TOOL_CALL_ERROR_RESPONSE)}`);
  });
});

describe('a confirmation through agentctx run', () => {
  it('pauses in one process and is approved from another, which runs the tool and the model to the end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-confirm-'));
    await writeFile(join(dir, 'first.yaml'), '- functionCall: { name: transfer, args: { amount: 500, to: ACC123 } }\n');
    await writeFile(join(dir, 'second.yaml'), '- text: Moved 500 to ACC123.\n');
    const common = ['test/fixtures/hitl/bank-agent.ts', '--store', join(dir, 's.db'), '--session', 's1'];
    const first = await cli([
      'run',
      ...common,
      '--model',
      `scripted:${join(dir, 'first.yaml')}`,
      '--message',
      'Move 500 to ACC123',
    ]);
    expect(first.code).toBe(0);
    const paused =
      /⏸ paused: confirmation of transfer \(call (adk-[\w-]+)\) waits for an answer \(Please approve or reject the tool call transfer\(\) by responding with a FunctionResponse with an expected ToolConfirmation payload\.\); answer with: agentctx run .* --answer \1=true/.exec(
        first.stderr,
      );
    expect(paused).not.toBeNull();
    const second = await agentctxProcess(
      'run',
      ...common,
      '--model',
      `scripted:${join(dir, 'second.yaml')}`,
      '--answer',
      `${paused?.[1]}=true`,
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('[bank] ← transfer: {"moved":500,"to":"ACC123"}');
    expect(second.stdout).toContain('[bank] Moved 500 to ACC123.');
    expect(second.stderr).not.toContain('paused');
  });
});

describe('two answers to one confirmation at once', () => {
  it('one wins and runs the tool once; the other is a conflict (two runners on one SQLite file, as two processes)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-confirm-race-'));
    let ran = 0;
    const tool = functionTool({
      name: 'transfer',
      description: 'Moves money.',
      requireConfirmation: true,
      execute: () => {
        ran += 1;
        return { moved: true };
      },
    });
    const runnerOn = () =>
      createRunner({
        agents: llmAgent({ name: 'bank', tools: [tool] }),
        model: createScriptedModel({
          rules: [{ when: { afterToolResponse: 'transfer' }, respond: { text: 'done' } }],
          responses: [{ functionCall: { name: 'transfer', args: {} } }],
        }),
        sessions: createSqliteSessionStore({ path: join(dir, 's.db') }),
      });
    const [a, b] = [runnerOn(), runnerOn()];
    await a.createSession({ userId: 'u1', sessionId: 's1' });
    const first = await collect(a, { message: 'move it' });
    const id = callOf(first[2]).id;
    const results = await Promise.allSettled([
      collect(a, { message: answer(id, { confirmed: true }) }),
      collect(b, { message: answer(id, { confirmed: true }) }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(String(refused?.reason)).toMatch(/was answered already/);
    expect(ran).toBe(1);
  });
});

describe('a confirmation at a terminal', () => {
  it.each([
    [true, '[bank] ← transfer: {"moved":500,"to":"ACC123"}'],
    [false, '[bank] ← transfer: {"error":"This tool call is rejected."}'],
  ])('is asked about at once, and the answer (%s) resumes the run in the same command', async (approve, shown) => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-confirm-tty-'));
    await writeFile(
      join(dir, 'script.yaml'),
      'rules:\n  - when: { afterToolResponse: transfer, toolResultContains: ACC123 }\n    respond: { text: Done. }\n  - when: { afterToolResponse: transfer, toolResultContains: rejected }\n    respond: { text: Not moved. }\nresponses:\n  - functionCall: { name: transfer, args: { amount: 500, to: ACC123 } }\n',
    );
    const questions: string[] = [];
    const result = await cli(
      [
        'run',
        'test/fixtures/hitl/bank-agent.ts',
        '--model',
        `scripted:${join(dir, 'script.yaml')}`,
        '--store',
        'memory',
        '--message',
        'Move 500',
      ],
      {
        ask: (question) => {
          questions.push(question);
          return approve;
        },
      },
    );
    expect(result.code).toBe(0);
    expect(questions).toEqual([
      'Please approve or reject the tool call transfer() by responding with a FunctionResponse with an expected ToolConfirmation payload.\nApprove transfer({"amount":500,"to":"ACC123"})? [y/N] ',
    ]);
    expect(result.stdout).toContain(shown);
    expect(result.stdout).toContain(approve ? '[bank] Done.' : '[bank] Not moved.');
  });
});

describe("the resume step (ADK's test_request_confirmation.py, on confirmedCalls)", () => {
  const event = (author: string, parts: Part[], branch?: string): Event => ({
    id: `e-${Math.random().toString(36).slice(2)}`,
    invocationId: 'i1',
    author,
    timestamp: 1,
    ...(branch === undefined ? {} : { branch }),
    content: { role: author === 'user' ? 'user' : 'model', parts },
    actions: { stateDelta: {}, artifactDelta: {} },
  });
  const original = { id: 'mock_function_call_id', name: 'mock_tool', args: { param1: 'test' } };
  const request = (branch?: string) =>
    event(
      'test_agent',
      [
        {
          functionCall: {
            id: 'request_confirmation_id',
            name: 'adk_request_confirmation',
            args: { originalFunctionCall: original, toolConfirmation: { hint: 'test hint', confirmed: false } },
          },
        },
      ],
      branch,
    );
  const reply = (response: Record<string, unknown>) =>
    event('user', [
      { functionResponse: { id: 'request_confirmation_id', name: 'adk_request_confirmation', response } },
    ]);

  it('finds nothing without events, without responses, or without a confirmation response', () => {
    expect(confirmedCalls([]).calls).toEqual([]);
    expect(confirmedCalls([event('user', [{ text: 'hi' }])]).calls).toEqual([]);
    expect(
      confirmedCalls([event('user', [{ functionResponse: { name: 'other_function', response: {} } }])]).calls,
    ).toEqual([]);
  });

  it('runs the original call again with the answer (test_request_confirmation_processor_success)', () => {
    const found = confirmedCalls([request(), reply({ confirmed: true })]);
    expect(found.calls).toEqual([original]);
    expect(found.confirmations.get('mock_function_call_id')).toEqual({ hint: '', confirmed: true });
  });

  it('passes a rejection on as such (test_request_confirmation_processor_tool_not_confirmed)', () => {
    expect(confirmedCalls([request(), reply({ confirmed: false })]).confirmations.get('mock_function_call_id')).toEqual(
      {
        hint: '',
        confirmed: false,
      },
    );
  });

  it('finds the answer in the default branch for a request made in a child branch (…_finds_user_confirmation_in_default_branch)', () => {
    expect(confirmedCalls([request('child_branch'), reply({ confirmed: true })]).calls).toEqual([original]);
  });

  it('does not run a call again whose response was stored after the answer', () => {
    const ran = event('test_agent', [
      { functionResponse: { id: 'mock_function_call_id', name: 'mock_tool', response: { ok: 1 } } },
    ]);
    expect(confirmedCalls([request(), reply({ confirmed: true }), ran]).calls).toEqual([]);
  });
});
