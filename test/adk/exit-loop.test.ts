import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratch } from '../reliability/support.js';
import { agentctx, repositoryRoot } from '../support/cli.js';

// ADK's `exit_loop`, named in an agent file (ADK's multi_agent_loop_config sample): the refiner calls it when the critic
// finds nothing to improve, and the loop ends there — three model calls, as in ADK, where before it was refused as a
// built-in and, declared by hand, left the loop to run to its limit. Behaviour from ADK 2.5.0's
// tools/exit_loop_tool.py: it escalates and skips summarization.

const ROOT = join(
  repositoryRoot,
  'test/fixtures/adk-samples/samples/contributing/samples/multi_agent_loop_config/root_agent.yaml',
);
const tmp = scratch();
afterAll(() => tmp.cleanup());

type Event = {
  author: string;
  content?: { parts: Record<string, unknown>[] };
  actions?: { escalate?: boolean; skipSummarization?: boolean };
};

describe('exit_loop in an agent file', () => {
  it('ends the loop after the call that asked for it: writer, critic, refiner, and nothing more', async () => {
    const dir = await tmp.files({
      'script.yaml': [
        'rules:',
        '  - when: { agent: InitialWriterAgent }',
        '    respond: { text: A lighthouse keeper found a map. }',
        '  - when: { agent: CriticAgent }',
        '    respond: { text: No major issues found. }',
        '  - when: { agent: RefinerAgent }',
        '    respond: { functionCall: { name: exit_loop, args: {} } }',
        '',
      ].join('\n'),
    });
    const script = join(dir, 'script.yaml');
    const result = await agentctx(
      'run',
      ROOT,
      '--model',
      `scripted:${script}`,
      '--store',
      'memory',
      '--json',
      '--message',
      'a lighthouse',
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
    const modelTurns = events.filter(
      (event) =>
        event.author !== 'user' && event.content?.parts.some((part) => 'text' in part || 'functionCall' in part),
    );
    expect(modelTurns.map((event) => event.author)).toEqual(['InitialWriterAgent', 'CriticAgent', 'RefinerAgent']);
    const last = events.at(-1);
    expect(last?.author).toBe('RefinerAgent');
    expect(last?.content?.parts).toEqual([
      { functionResponse: expect.objectContaining({ name: 'exit_loop', response: { result: null } }) },
    ]);
    expect(last?.actions).toMatchObject({ escalate: true, skipSummarization: true });
  });
});
