import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatEvalSet, readEvalSet, writeEvalSet } from '../../src/analysis/eval/eval-set-file.js';
import type { EvalSet } from '../../src/contracts/evaluation.js';

// Eval set files written as Google ADK Python 2.5.0 (commit bb56aa56) writes them: local_eval_sets_manager.py
// `_write_eval_set_to_path` dumps `model_dump_json(indent=2, exclude_unset=True, exclude_defaults=True,
// exclude_none=True)` without aliases. ADK has no test of the file's shape; these pin it on ADK's fixture
// (tests/integration/fixture/home_automation_agent/simple_test.test.json, in test/fixtures/adk-eval).

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/adk-eval/${name}`, import.meta.url), 'utf8'));

describe('agentctx: writing eval set files as ADK does', () => {
  it('writes snake_case without nulls or defaults, and reads back the same', () => {
    const set = readEvalSet(fixture('simple_test.test.json'), 'simple_test.test.json');
    const written = writeEvalSet(set);
    expect(written).toEqual({
      eval_set_id: 'b305bd06-38c5-4796-b9c7-d9c7454338b9',
      name: 'b305bd06-38c5-4796-b9c7-d9c7454338b9',
      eval_cases: [
        {
          eval_id: 'tests/integration/fixture/home_automation_agent/simple_test.test.json',
          conversation: [
            {
              invocation_id: 'b7982664-0ab6-47cc-ab13-326656afdf75',
              user_content: { parts: [{ text: 'Turn off device_2 in the Bedroom.' }], role: 'user' },
              final_response: { parts: [{ text: 'I have set the device_2 status to off.' }], role: 'model' },
              intermediate_data: {
                tool_uses: [
                  { name: 'set_device_info', args: { location: 'Bedroom', device_id: 'device_2', status: 'OFF' } },
                ],
              },
              creation_timestamp: 1747337309.2360144,
            },
          ],
          creation_timestamp: 1747337309.2360282,
        },
      ],
      creation_timestamp: 1747337309.2360387,
    });
    expect(readEvalSet(JSON.parse(formatEvalSet(set)), 'again.json')).toEqual(set);
  });

  it('writes the keys of parts in snake_case and tool arguments as they are', () => {
    const set: EvalSet = {
      evalSetId: 's',
      creationTimestamp: 0,
      evalCases: [
        {
          evalId: 'c',
          creationTimestamp: 0,
          conversation: [
            {
              invocationId: '',
              creationTimestamp: 0,
              userContent: { role: 'user', parts: [{ inlineData: { mimeType: 'text/plain', data: 'aGk=' } }] },
              intermediateData: {
                toolUses: [{ id: 'x', name: 'f', args: { camelCase_key: null } }],
                toolResponses: [],
                intermediateResponses: [],
              },
            },
          ],
        },
      ],
    };
    const invocation = (writeEvalSet(set)['eval_cases'] as { conversation: Record<string, unknown>[] }[])[0]
      ?.conversation[0];
    expect(invocation).toEqual({
      user_content: { parts: [{ inline_data: { mime_type: 'text/plain', data: 'aGk=' } }], role: 'user' },
      intermediate_data: { tool_uses: [{ id: 'x', name: 'f', args: { camelCase_key: null } }] },
    });
    expect(readEvalSet(writeEvalSet(set), 'again.json')).toEqual({
      ...set,
      evalCases: [{ ...set.evalCases[0], finalSessionState: {} }],
    });
  });
});
