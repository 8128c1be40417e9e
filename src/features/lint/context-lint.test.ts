import { describe, expect, it } from 'vitest';
import { createAgentTree } from '../../engine/agent/agent-tree.js';
import { llmAgent, sequentialAgent } from '../../engine/agent/define-agent.js';
import { agentTool } from '../../engine/tools/agent-tool.js';
import { lintAgentTree, volatileKeyReason } from './context-lint.js';

const rules = (agents: Parameters<typeof createAgentTree>[0], options = {}) =>
  lintAgentTree(createAgentTree(agents), options).map(
    (warning) => `${warning.agent}.${warning.field} ${warning.rule}: ${warning.text}`,
  );

describe('lintAgentTree', () => {
  it('passes a tree written the way seed 000 advises', () => {
    const math = llmAgent({
      name: 'math_agent',
      description: 'Does arithmetic.',
      instruction: 'Check every result twice.',
    });
    const coordinator = llmAgent({
      name: 'coordinator',
      description: 'Routes questions.',
      instruction: 'Hand arithmetic on once the numbers are clear. Greet {user:name?}.',
      subAgents: [math],
      outputKey: 'answer',
    });
    expect(rules(coordinator)).toEqual([]);
  });

  it('finds a self-introduction by name, in English and Japanese', () => {
    expect(
      rules(llmAgent({ name: 'math_agent', instruction: 'You are math_agent, a calculator. Check twice.' })),
    ).toEqual(['math_agent.instruction self-introduction: You are math_agent, a calculator.']);
    expect(
      rules(
        llmAgent({
          name: 'math_agent',
          instruction: 'あなたは数学計算エージェントです。名前は math_agent です。計算結果は必ず検算してください。',
        }),
      ),
    ).toEqual(['math_agent.instruction self-introduction: 名前は math_agent です。']);
    // The name alone, outside an introduction, is no restatement; nor is an introduction without the name.
    expect(
      rules(llmAgent({ name: 'math_agent', instruction: 'Log lines start with math_agent. You are precise.' })),
    ).toEqual([]);
  });

  it('finds a hand-written list of transfer targets, or an explanation of transfer_to_agent, but not one routing rule', () => {
    const sub = (name: string) => llmAgent({ name, description: `Handles ${name}.` });
    expect(
      rules(
        llmAgent({
          name: 'desk',
          description: 'The front desk.',
          instruction: 'Send maths to math_agent and searches to web_agent.',
          subAgents: [sub('math_agent'), sub('web_agent')],
        }),
      ),
    ).toEqual(['desk.instruction transfer-list: math_agent, web_agent']);
    expect(
      rules(
        llmAgent({
          name: 'desk',
          description: 'The front desk.',
          instruction: 'Call transfer_to_agent to hand over.',
          subAgents: [sub('math_agent')],
        }),
      ),
    ).toEqual(['desk.instruction transfer-list: transfer_to_agent']);
    expect(
      rules(
        llmAgent({
          name: 'desk',
          description: 'The front desk.',
          instruction: 'Hand maths to math_agent once the numbers are known.',
          subAgents: [sub('math_agent'), sub('web_agent')],
        }),
      ),
    ).toEqual([]);
  });

  it('finds required placeholders nothing writes, unless state is given to check them against', () => {
    const agent = llmAgent({
      name: 'writer',
      instruction: 'Answer as {"answer": …}. Shape: {answer}. Tone: {tone?}. Company: {app:company}.',
    });
    expect(rules(agent)).toEqual(['writer.instruction literal-braces: {answer}']);
    expect(rules(agent, { state: { answer: 'x' } })).toEqual([]);
    // An outputKey in the tree writes it.
    expect(
      rules(
        sequentialAgent({
          name: 'p',
          subAgents: [
            llmAgent({ name: 'a', description: 'Drafts.', outputKey: 'answer' }),
            llmAgent({ ...agent, description: 'Writes.' }),
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('finds descriptions that are missing or read like instructions, where other agents read them', () => {
    const helper = llmAgent({ name: 'helper', instruction: 'Help.' });
    const bossy = llmAgent({ name: 'bossy', description: 'Always answer in French.', instruction: 'Help.' });
    // The root too: its sub-agents may transfer back to it, and their transfer text describes it.
    expect(rules(llmAgent({ name: 'root', instruction: 'Route.', subAgents: [helper, bossy] }))).toEqual([
      'root.description description-missing: ',
      'helper.description description-missing: ',
      'bossy.description description-instruction-like: Always answer in French.',
    ]);
    expect(rules(llmAgent({ name: 'root', instruction: 'Use the helper tool.', tools: [agentTool(helper)] }))).toEqual([
      'helper.description description-missing: ',
    ]);
  });

  it('finds values that change per call in the system text, the start of the cacheable prefix', () => {
    const agent = (fields: Partial<Parameters<typeof llmAgent>[0]>) =>
      llmAgent({ name: 'analyst', instruction: 'Help.', ...fields });
    expect(
      rules(
        agent({ instruction: 'It is {current_time}. Request {request_id}, batch {temp:batch}. Help {user_name}.' }),
        { state: {} },
      ),
    ).toEqual([
      'analyst.instruction volatile-in-prefix: {current_time}',
      'analyst.instruction volatile-in-prefix: {request_id}',
      'analyst.instruction volatile-in-prefix: {temp:batch}',
    ]);
    // The global instruction stays in the system text even with a static instruction; the instruction does not.
    const moved = agent({
      staticInstruction: 'Help with reports.',
      instruction: 'It is {now}.',
      globalInstruction: 'Session {app:nonce}.',
    });
    expect(rules(moved, { state: {} })).toEqual(['analyst.globalInstruction volatile-in-prefix: {app:nonce}']);
    // An instruction provider: its text is computed for every call.
    const provided = lintAgentTree(createAgentTree(agent({ instruction: () => `It is ${Date.now()}.` })));
    expect(provided.map((warning) => `${warning.field} ${warning.rule}`)).toEqual(['instruction volatile-in-prefix']);
    expect(provided[0]?.fix).toMatch(/staticInstruction/);
    expect(rules(agent({ staticInstruction: 'Fixed.', instruction: () => 'Dynamic.' }))).toEqual([]);
  });

  it('keeps the volatile-key rule honest: stable names pass', () => {
    for (const key of [
      'user_name',
      'user:name',
      'app:company',
      'delivery_date',
      'time_zone',
      'timezone',
      'session_id',
      'posts',
      'known_items',
      'update_note',
      'plan',
    ]) {
      expect(volatileKeyReason(key), key).toBeUndefined();
    }
    for (const key of [
      'current_time',
      'time',
      'date',
      'today',
      'now',
      'timestamp',
      'createdTs',
      'localDate',
      'utc_datetime',
      'random_seed',
      'uuid',
      'requestId',
      'trace_id',
      'call_counter',
      'temp:anything',
      'user:nonce',
    ]) {
      expect(volatileKeyReason(key), key).toBeDefined();
    }
  });
});
