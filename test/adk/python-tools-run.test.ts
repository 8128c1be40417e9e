import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratch } from '../reliability/support.js';
import { cli, repositoryRoot } from '../support/cli.js';

// Python function tools named in an ADK agent file run: `agentctx run` calls them through a Python process per call
// on this machine's python3 (which has no google packages: the bridge's stand-ins serve `google.adk.tools.tool_context`
// and `google.genai.types`), with the session's state and ADK's actions, and their results go back to the model.

const tmp = scratch();
afterAll(() => tmp.cleanup());

type Event = {
  author: string;
  content?: { parts: Record<string, unknown>[] };
  actions?: { stateDelta?: Record<string, unknown>; escalate?: boolean };
};

async function run(agent: string, script: string): Promise<Event[]> {
  const dir = await tmp.files({ 'script.yaml': script });
  const result = await cli([
    'run',
    agent,
    '--model',
    `scripted:${join(dir, 'script.yaml')}`,
    '--store',
    'memory',
    '--json',
    '--message',
    'go',
  ]);
  // This machine's python3 has no google packages: the one warning says the stand-ins served them.
  expect({ code: result.code, stderr: result.stderr }).toEqual({
    code: 0,
    stderr: expect.stringMatching(/^(warning: Python tools run with agentctx's stand-ins for [^\n]*\n)?$/),
  });
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Event);
}

const responses = (events: Event[]) =>
  events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      'functionResponse' in part ? [part['functionResponse'] as { name: string; response: unknown }] : [],
    ),
  );

describe("Python tools of ADK's agent files, run", () => {
  it("runs ADK's tool_functions_config sample: roll_die writes state through tool_context, the async check_prime answers", async () => {
    const agent = join(
      repositoryRoot,
      'test/fixtures/adk-samples/samples/contributing/samples/tool_functions_config/root_agent.yaml',
    );
    const events = await run(
      agent,
      [
        'rules:',
        '  - when: { afterToolResponse: roll_die }',
        '    respond: { functionCall: { name: check_prime, args: { nums: [2, 3, 4] } } }',
        '  - when: { afterToolResponse: check_prime }',
        '    respond: { text: done }',
        '  - respond: { functionCall: { name: roll_die, args: { sides: 6 } } }',
        '',
      ].join('\n'),
    );
    const [rolled, checked] = responses(events);
    expect(rolled?.name).toBe('roll_die');
    const roll = (rolled?.response as { result: number }).result;
    expect(roll).toBeGreaterThanOrEqual(1);
    expect(roll).toBeLessThanOrEqual(6);
    const stateEvent = events.find((event) => event.actions?.stateDelta?.['rolls'] !== undefined);
    expect(stateEvent?.actions?.stateDelta?.['rolls']).toEqual([roll]);
    expect(checked).toEqual(
      expect.objectContaining({ name: 'check_prime', response: { result: '2, 3 are prime numbers.' } }),
    );
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'done' }]);
  });

  it('gives a tool the state, returns what it raises to the model, and carries its actions', async () => {
    const dir = await tmp.files({
      'my_agent/__init__.py': '',
      'my_agent/tools.py': [
        'from google.adk.tools.tool_context import ToolContext',
        '',
        'def greet(name: str, tool_context: ToolContext) -> dict:',
        '    """Greets."""',
        '    print("printed output stays out of the answer")',
        "    tool_context.state['greeted'] = tool_context.state.get('user:count', 0) + 1",
        "    return {'greeting': 'Hello ' + name}",
        '',
        'def fail(reason: str) -> str:',
        '    """Fails."""',
        '    raise ValueError(reason)',
        '',
        'def stop(tool_context: ToolContext) -> None:',
        '    """Stops."""',
        '    tool_context.actions.escalate = True',
        '',
      ].join('\n'),
      'my_agent/root_agent.yaml':
        'name: root\nmodel: gemini-2.5-flash\ninstruction: hi\ntools:\n  - name: my_agent.tools.greet\n  - name: my_agent.tools.fail\n  - name: my_agent.tools.stop\n',
    });
    const events = await run(
      join(dir, 'my_agent', 'root_agent.yaml'),
      [
        'rules:',
        '  - when: { afterToolResponse: greet }',
        '    respond: { functionCall: { name: fail, args: { reason: no luck } } }',
        '  - when: { afterToolResponse: fail }',
        '    respond: { functionCall: { name: stop, args: {} } }',
        '  - respond: { functionCall: { name: greet, args: { name: Ada } } }',
        '',
      ].join('\n'),
    );
    const [greeted, failed, stopped] = responses(events);
    expect(greeted?.response).toEqual({ greeting: 'Hello Ada' });
    expect(events.find((event) => event.actions?.stateDelta?.['greeted'] !== undefined)?.actions?.stateDelta).toEqual({
      greeted: 1,
    });
    expect(JSON.stringify(failed?.response)).toContain('ValueError: no luck');
    expect(stopped?.name).toBe('stop');
    expect(events.at(-1)?.actions?.escalate).toBe(true);
  });
});
