import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { pausedCalls } from '../../src/engine/runner/paused-calls.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { longRunningTool } from '../../src/features/adk-tools/long-running.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { scratch } from '../reliability/support.js';
import { agentctxProcess, cli, repositoryRoot } from '../support/cli.js';
import { collect, describeEvents, runnerWithSession } from '../runner/helpers.js';

// Long-running tools (issue 48): ADK's LongRunningFunctionTool. A call of one is marked long-running on the model's
// event; what the tool returns (a pending status) goes to the model, and the final answer arrives later as the
// client's function response, which resumes the agent that made the call — from another process too. The behaviour
// follows ADK 2.5.0's flows (functions.py, base_llm_flow.py, contents.py) and its sample tool_human_in_the_loop_config.

const tmp = scratch();
afterAll(() => tmp.cleanup());

const askForApproval = (returns: unknown) =>
  longRunningTool(
    functionTool({
      name: 'ask_for_approval',
      description: 'Ask for approval for the reimbursement.',
      parameters: z.object({ purpose: z.string(), amount: z.number() }),
      execute: () => returns,
    }),
  );

describe('a long-running tool', () => {
  it('that returns nothing pauses the run: the call waits, final, unanswered, until the client answers it', async () => {
    const agent = llmAgent({ name: 'reimbursement_agent', tools: [askForApproval(undefined)] });
    const model = createScriptedModel([
      { functionCall: { name: 'ask_for_approval', args: { purpose: 'travel', amount: 500 } } },
      { text: 'Reimbursed.' },
    ]);
    const runner = await runnerWithSession({ agents: agent, model });
    const first = await collect(runner, { message: 'Reimburse $500' });
    expect(describeEvents(first)).toEqual([
      'user: Reimburse $500',
      'reimbursement_agent: call ask_for_approval({"purpose":"travel","amount":500})',
    ]);
    const call = first[1]?.content?.parts[0] as { functionCall: { id: string } };
    expect(first[1]?.longRunningToolIds).toEqual([call.functionCall.id]);
    const session = await runner.sessions.getSession({ appName: agent.name, userId: 'u1', sessionId: 's1' });
    expect(pausedCalls(session?.events ?? []).map((paused) => paused.call.name)).toEqual(['ask_for_approval']);

    const answer = {
      role: 'user' as const,
      parts: [
        { functionResponse: { id: call.functionCall.id, name: 'ask_for_approval', response: { status: 'approved' } } },
      ],
    };
    const second = await collect(runner, { message: answer });
    expect(describeEvents(second)).toEqual([
      'user: ask_for_approval → {"status":"approved"}',
      'reimbursement_agent: Reimbursed.',
    ]);
    // The model saw its call answered by the client (the ids agentctx made up are not sent).
    expect(model.requests[1]?.messages.at(-1)?.content).toEqual([
      { functionResponse: { name: 'ask_for_approval', response: { status: 'approved' } } },
    ]);
    const after = await runner.sessions.getSession({ appName: agent.name, userId: 'u1', sessionId: 's1' });
    expect(pausedCalls(after?.events ?? [])).toEqual([]);
  });

  it('that returns a pending status tells the model, and the client’s final answer takes the status’s place', async () => {
    const agent = llmAgent({
      name: 'reimbursement_agent',
      tools: [askForApproval({ status: 'pending', ticketId: 't-1' })],
    });
    const model = createScriptedModel([
      { functionCall: { name: 'ask_for_approval', args: { purpose: 'travel', amount: 500 } } },
      { text: 'Pending approval (ticket t-1).' },
      { text: 'Approved.' },
    ]);
    const runner = await runnerWithSession({ agents: agent, model });
    const first = await collect(runner, { message: 'Reimburse $500' });
    expect(describeEvents(first).slice(1)).toEqual([
      'reimbursement_agent: call ask_for_approval({"purpose":"travel","amount":500})',
      'reimbursement_agent: ask_for_approval → {"status":"pending","ticketId":"t-1"}',
      'reimbursement_agent: Pending approval (ticket t-1).',
    ]);
    const id = (first[1]?.content?.parts[0] as { functionCall: { id: string } }).functionCall.id;
    await collect(runner, {
      message: {
        role: 'user',
        parts: [{ functionResponse: { id, name: 'ask_for_approval', response: { status: 'approved' } } }],
      },
    });
    // ADK's rearrangement: the call, then its latest response; the pending status and the text after it are gone.
    expect(model.requests[2]?.messages.map((message) => message.content)).toEqual([
      [{ text: 'Reimburse $500' }],
      [{ functionCall: { name: 'ask_for_approval', args: { purpose: 'travel', amount: 500 } } }],
      [{ functionResponse: { name: 'ask_for_approval', response: { status: 'approved' } } }],
    ]);
  });
});

describe("ADK's tool_human_in_the_loop_config sample through agentctx run", () => {
  const root = join(
    repositoryRoot,
    'test/fixtures/adk-samples/samples/contributing/samples/tool_human_in_the_loop_config/root_agent.yaml',
  );

  it('pauses on ask_for_approval, and an answer given later in another process resumes it to the end', async () => {
    const dir = await tmp.files({
      'first.yaml':
        '- functionCall: { name: ask_for_approval, args: { purpose: conference, amount: 500 } }\n- text: Pending the manager\u2019s approval.\n',
      'second.yaml':
        '- functionCall: { name: reimburse, args: { purpose: conference, amount: 500 } }\n- text: Reimbursed.\n',
    });
    const store = join(dir, 'sessions.db');
    const common = ['--store', store, '--session', 's1', '--profile', 'adk'];
    const first = await cli([
      'run',
      root,
      '--model',
      `scripted:${join(dir, 'first.yaml')}`,
      ...common,
      '--message',
      'Reimburse $500',
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      '← ask_for_approval: {"status":"pending","amount":500,"ticketId":"reimbursement-ticket-001"}',
    );
    const paused =
      /⏸ paused: ask_for_approval \(call (adk-[\w-]+)\) waits for an answer; answer with: agentctx run .* --answer \1=/.exec(
        first.stderr,
      );
    expect(paused).not.toBeNull();
    const id = paused?.[1] as string;
    const waiting = await cli(['inspect', root, '--store', store, '--session', 's1']);
    expect(waiting.stdout).toContain(`⏸ waiting  ask_for_approval (call ${id}), asked by reimbursement_agent at `);

    const second = await agentctxProcess(
      'run',
      root,
      '--model',
      `scripted:${join(dir, 'second.yaml')}`,
      ...common,
      '--answer',
      `${id}={"status": "approved"}`,
    );
    expect(second.stderr).not.toContain('paused');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('[reimbursement_agent] ← reimburse: {"status":"ok"}');
    expect(second.stdout).toContain('[reimbursement_agent] Reimbursed.');
    // inspect says who answered what, and when.
    const inspected = await cli(['inspect', root, '--store', store, '--session', 's1']);
    expect(inspected.stdout).toMatch(
      new RegExp(
        `A person in the loop:\\n  ✓ answered  ask_for_approval \\(call ${id}\\) by user at \\d{4}-\\d\\d-\\d\\d [\\d:]+Z: \\{"status":"approved"\\}`,
      ),
    );
  });

  it('names the calls it waits on when an answer names another, and refuses one that is not JSON', async () => {
    const dir = await tmp.files({
      'first.yaml': '- functionCall: { name: ask_for_approval, args: { purpose: x, amount: 1 } }\n- text: ok\n',
    });
    const common = ['--model', `scripted:${join(dir, 'first.yaml')}`, '--store', join(dir, 's.db'), '--session', 's1'];
    await cli(['run', root, ...common, '--message', 'hi']);
    const wrong = await cli(['run', root, ...common, '--answer', 'nope={}']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /^error: The session waits for no answer to a call 'nope'\. It waits for: ask_for_approval \(call adk-/,
    );
    const id = /call (adk-[\w-]+)/.exec(wrong.stderr)?.[1] as string;
    const bad = await cli(['run', root, ...common, '--answer', `${id}=approved`]);
    expect(bad.stderr).toMatch(/--answer adk-[\w-]+: 'approved' is not JSON\. Quote it for the shell/);
  });
});

describe("ADK's test_functions_long_running.py", () => {
  const run = async (returns: unknown) => {
    let called = 0;
    const tool = longRunningTool(
      functionTool({
        name: 'increase_by_one',
        description: '',
        jsonSchema: { type: 'object', properties: { x: { type: 'integer' } } },
        execute: () => {
          called += 1;
          return returns;
        },
      }),
    );
    const model = createScriptedModel([
      { functionCall: { name: 'increase_by_one', args: { x: 1 } } },
      { text: 'response1' },
      { text: 'response2' },
      { text: 'response3' },
      { text: 'response4' },
    ]);
    const runner = await runnerWithSession({ agents: llmAgent({ name: 'root_agent', tools: [tool] }), model });
    return { runner, model, called: () => called };
  };
  const call = { functionCall: { name: 'increase_by_one', args: { x: 1 } } };
  const update = (id: string, response: Record<string, unknown>) => ({
    role: 'user' as const,
    parts: [{ functionResponse: { id, name: 'increase_by_one', response } }],
  });
  const contents = (request: { messages: { content: unknown[] }[] } | undefined) =>
    request?.messages.map((message) => message.content);

  it.each([
    ['test_async_function', { status: 'pending' }, { status: 'pending' }],
    ['test_async_function_with_none_response', 'pending', { result: 'pending' }],
  ])(
    '%s: progress updates and results from the client each replace the last, the tool runs once',
    async (_name, returns, pending) => {
      const { runner, model, called } = await run(returns);
      const first = (await collect(runner, { message: 'test1' })).slice(1);
      expect(describeEvents(first)).toEqual([
        'root_agent: call increase_by_one({"x":1})',
        `root_agent: increase_by_one → ${JSON.stringify(pending)}`,
        'root_agent: response1',
      ]);
      expect(first[0]?.longRunningToolIds).toHaveLength(1);
      expect(contents(model.requests[0])).toEqual([[{ text: 'test1' }]]);
      expect(contents(model.requests[1])).toEqual([
        [{ text: 'test1' }],
        [call],
        [{ functionResponse: { name: 'increase_by_one', response: pending } }],
      ]);
      const id = (first[0]?.content?.parts[0] as { functionCall: { id: string } }).functionCall.id;
      const answers: [Record<string, unknown>, string][] = [
        [{ status: 'still waiting' }, 'response2'],
        [{ result: 2 }, 'response3'],
        // Another result after the result is still taken, and summarized again (ADK: "Whether this is the right
        // behavior is TBD").
        [{ result: 3 }, 'response4'],
      ];
      for (const [index, [response, text]] of answers.entries()) {
        const events = (await collect(runner, { message: update(id, response) })).slice(1);
        expect(describeEvents(events)).toEqual([`root_agent: ${text}`]);
        expect(contents(model.requests[index + 2])).toEqual([
          [{ text: 'test1' }],
          [call],
          [{ functionResponse: { name: 'increase_by_one', response } }],
        ]);
      }
      expect(model.requests).toHaveLength(5);
      expect(called()).toBe(1);
    },
  );
});

describe("ADK's test_long_running_tool.py", () => {
  const note =
    'NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.';
  const tool = (description: string) =>
    longRunningTool(functionTool({ name: 'sample_long_running_function', description, execute: () => 'Processing' }));

  it('keeps the description and adds ADK’s note after it (test_get_declaration_with_description)', () => {
    const made = tool('Sample function for testing long running operations.');
    expect(made.description).toBe(`Sample function for testing long running operations.\n\n${note}`);
    expect(made.longRunning).toBe(true);
  });

  it('is the note alone without a description (test_get_declaration_without_description)', () => {
    expect(tool('').description).toBe(note);
  });
});
