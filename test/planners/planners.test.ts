import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Part } from '../../src/contracts/content.js';
import { createAgentTree } from '../../src/engine/agent/agent-tree.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { builtInPlanner } from '../../src/features/planners/built-in-planner.js';
import {
  PLAN_RE_ACT_INSTRUCTION,
  planningResponse,
  planReActPlanner,
} from '../../src/features/planners/plan-re-act.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { scratch } from '../reliability/support.js';
import { cli } from '../support/cli.js';
import { collect, describeEvents, runnerWithSession } from '../runner/helpers.js';

// ADK's planners (issue 48): BuiltInPlanner and PlanReActPlanner. The cases translate ADK 2.5.0's
// tests/unittests/flows/llm_flows/test_nl_planning.py and tests/unittests/planners/test_plan_re_act_planner.py.

const tmp = scratch();
afterAll(() => tmp.cleanup());

const history = [
  createEvent({ id: 'e1', author: 'user', content: { role: 'user', parts: [{ text: 'Hello' }] } }),
  createEvent({
    id: 'e2',
    author: 'test_agent',
    content: {
      role: 'model',
      parts: [{ text: 'thinking...', thought: true }, { text: 'Here is my response' }],
    },
  }),
  createEvent({ id: 'e3', author: 'user', content: { role: 'user', parts: [{ text: 'Follow up' }] } }),
];

async function requestOf(extension: ReturnType<typeof planReActPlanner>, generateConfig = {}) {
  const agent = llmAgent({
    name: 'test_agent',
    model: 'gemini-2.5-flash',
    instruction: 'Original instruction',
    extensions: [extension],
    generateConfig,
  });
  const { request, provenance } = await assembleRequest({
    agents: createAgentTree(agent),
    agentName: 'test_agent',
    events: history,
    state: {},
    profile: 'adk',
  });
  return { request, provenance };
}

describe('PlanReActPlanner', () => {
  it('appends its instruction after the identity, as ADK does (test_plan_react_planner_instruction_appended)', async () => {
    const { request } = await requestOf(planReActPlanner());
    expect(request.system).toBe(
      `Original instruction\n\nYou are an agent. Your internal name is "test_agent".\n\n${PLAN_RE_ACT_INSTRUCTION}`,
    );
    // ADK's text, as its six paragraphs are joined: 3,069 characters, as ADK 2.5.0's method returns them.
    expect(PLAN_RE_ACT_INSTRUCTION.length).toBe(3069);
    expect(PLAN_RE_ACT_INSTRUCTION.startsWith('\nWhen answering the question, try to leverage')).toBe(true);
    expect(PLAN_RE_ACT_INSTRUCTION.endsWith('instead of repeated tool use.\n')).toBe(true);
  });

  it('sends earlier thoughts as plain text (test_remove_thought_from_request_with_thoughts)', async () => {
    const { request } = await requestOf(planReActPlanner());
    expect(request.messages.flatMap((message) => message.content)).toEqual([
      { text: 'Hello' },
      { text: 'thinking...' },
      { text: 'Here is my response' },
      { text: 'Follow up' },
    ]);
  });

  const call = (name: string): Part => ({ functionCall: { name, args: { city: 'SF' } } });
  it('keeps every leading parallel call (test_preserves_all_leading_parallel_function_calls)', () => {
    expect(planningResponse([call('get_weather'), call('get_time')])).toEqual([call('get_weather'), call('get_time')]);
  });

  it('keeps the parallel group after text (test_preserves_parallel_function_calls_after_leading_text)', () => {
    expect(planningResponse([{ text: 'Let me look that up.' }, call('get_weather'), call('get_time')])).toEqual([
      { text: 'Let me look that up.' },
      call('get_weather'),
      call('get_time'),
    ]);
  });

  it('marks the plan and the reasoning as thoughts, splits the final answer off, and drops what follows the calls', () => {
    expect(
      planningResponse([
        { text: '/*PLANNING*/\n1. Look it up.' },
        call(''),
        { text: '/*REASONING*/ It is sunny. /*FINAL_ANSWER*/ Sunny, 20 degrees.' },
        call('get_weather'),
        call(''),
        { text: 'after the calls' },
      ]),
    ).toEqual([
      { text: '/*PLANNING*/\n1. Look it up.', thought: true },
      { text: '/*REASONING*/ It is sunny. /*FINAL_ANSWER*/', thought: true },
      { text: ' Sunny, 20 degrees.' },
      call('get_weather'),
      call(''),
    ]);
  });

  it('runs: the answer is split into thoughts and the final answer before it is stored', async () => {
    const model = createScriptedModel([{ text: '/*PLANNING*/ Answer directly. /*FINAL_ANSWER*/ Forty-two.' }]);
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'test_agent', instruction: 'Answer.', extensions: [planReActPlanner()] }),
      model,
    });
    const events = await collect(runner, { message: { role: 'user', parts: [{ text: 'What is it?' }] } });
    expect(describeEvents(events)).toEqual([
      'user: What is it?',
      'test_agent: (thought) /*PLANNING*/ Answer directly. /*FINAL_ANSWER*/ |  Forty-two.',
    ]);
  });
});

describe('BuiltInPlanner', () => {
  it('sets its thinking over the generate config, and leaves the history as it is (test_built_in_planner_content_list_unchanged)', async () => {
    const { request } = await requestOf(builtInPlanner({ thinking: { budgetTokens: 1024, includeThoughts: true } }), {
      thinking: { budgetTokens: 10 },
      temperature: 0.5,
    });
    expect(request.config).toEqual({
      model: 'gemini-2.5-flash',
      temperature: 0.5,
      thinking: { budgetTokens: 1024, includeThoughts: true },
    });
    expect(request.system).toBe('Original instruction\n\nYou are an agent. Your internal name is "test_agent".');
    expect(request.messages[1]?.content).toEqual([
      { text: 'thinking...', thought: true },
      { text: 'Here is my response' },
    ]);
  });

  it('does not process the answer (test_process_planning_response_not_called_without_override)', async () => {
    const model = createScriptedModel([{ text: '/*PLANNING*/ not a tag for this planner' }]);
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'a', extensions: [builtInPlanner({ thinking: { budgetTokens: 0 } })] }),
      model,
    });
    const events = await collect(runner, { message: { role: 'user', parts: [{ text: 'Hi' }] } });
    expect(describeEvents(events)).toEqual(['user: Hi', 'a: /*PLANNING*/ not a tag for this planner']);
  });
});

describe('planner: in an agent file', () => {
  it('names either planner, and says what is wrong with one it cannot read', async () => {
    const dir = await tmp.files({
      'react.yaml': 'name: a\nmodel: gemini-2.5-flash\ninstruction: Plan.\nplanner: PlanReActPlanner\n',
      'builtin.yaml':
        'name: a\nmodel: gemini-2.5-flash\nplanner:\n  name: BuiltInPlanner\n  thinking_config: { thinking_budget: 512, include_thoughts: true }\n',
      'bad.yaml': 'name: a\nplanner: { name: Nope }\n',
    });
    const react = JSON.parse((await cli(['inspect', join(dir, 'react.yaml'), '--json'])).stdout) as { system: string };
    expect(react.system.endsWith(PLAN_RE_ACT_INSTRUCTION)).toBe(true);
    const builtIn = JSON.parse((await cli(['inspect', join(dir, 'builtin.yaml'), '--json'])).stdout) as {
      config: Record<string, unknown>;
    };
    expect(builtIn.config['thinking']).toEqual({ budgetTokens: 512, includeThoughts: true });
    const bad = await cli(['check', join(dir, 'bad.yaml')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/planner\.name: expected PlanReActPlanner or BuiltInPlanner, got "Nope"/);
  });
});
