import { describe, expect, it } from 'vitest';
import { invocationsFromEvents } from '../../src/analysis/eval/invocations-from-events.js';
import { allToolCalls } from '../../src/analysis/eval/tool-calls.js';
import type { Part } from '../../src/contracts/content.js';
import type { AppDetails, InvocationEvents } from '../../src/contracts/evaluation.js';
import type { Event, EventActions } from '../../src/contracts/event.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_evaluation_generator.py (`TestConvertEventsToEvalInvocation` and
// `test_convert_events_preserves_tool_calls_when_skip_summarization`), against
// src/google/adk/evaluation/evaluation_generator.py `convert_events_to_eval_invocations` (L647–718).
// Each `it` names the test function it translates; the last block holds agentctx's own cases.

const ACTIONS: EventActions = { stateDelta: {}, artifactDelta: {} };
let counter = 0;

// `_build_event`: an event with the given parts (ADK's content has no role; agentctx's always has one).
function buildEvent(author: string, parts: Part[], invocationId: string, extra: Partial<Event> = {}): Event {
  counter += 1;
  return {
    id: `e${counter}`,
    invocationId,
    author,
    timestamp: 0,
    content: { role: author === 'user' ? 'user' : 'model', parts },
    actions: ACTIONS,
    ...extra,
  };
}

const call = (name: string): Part => ({ functionCall: { name, args: {} } });

function withoutContent(event: Event): Event {
  const { content: _content, ...rest } = event;
  return rest;
}

function eventsOf(data: unknown): InvocationEvents['invocationEvents'] {
  return (data as InvocationEvents).invocationEvents;
}

describe('TestConvertEventsToEvalInvocation', () => {
  it('test_convert_events_to_eval_invocations_empty', () => {
    expect(invocationsFromEvents([])).toEqual([]);
  });

  it('test_convert_single_turn_text_only', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'Hello' }], 'inv1'),
      buildEvent('agent', [{ text: 'Hi there!' }], 'inv1'),
    ]);
    expect(invocations).toHaveLength(1);
    const [invocation] = invocations;
    expect(invocation?.invocationId).toBe('inv1');
    expect(invocation?.userContent.parts[0]).toEqual({ text: 'Hello' });
    expect(invocation?.finalResponse?.parts[0]).toEqual({ text: 'Hi there!' });
    expect(eventsOf(invocation?.intermediateData)).toHaveLength(0);
  });

  it('test_convert_single_turn_tool_call', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'what is the weather?' }], 'inv1'),
      buildEvent('agent', [call('get_weather')], 'inv1'),
    ]);
    expect(invocations).toHaveLength(1);
    const [invocation] = invocations;
    expect(invocation?.userContent.parts[0]).toEqual({ text: 'what is the weather?' });
    expect(invocation?.finalResponse).toBeUndefined();
    const events = eventsOf(invocation?.intermediateData);
    expect(events).toHaveLength(1);
    expect(events[0]?.author).toBe('agent');
    expect(events[0]?.content?.parts[0]).toEqual(call('get_weather'));
  });

  it('test_convert_single_turn_tool_and_text_response', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'what is the weather?' }], 'inv1'),
      buildEvent('agent', [call('get_weather')], 'inv1'),
      buildEvent('agent', [{ text: 'It is sunny in SF.' }], 'inv1'),
    ]);
    expect(invocations).toHaveLength(1);
    const [invocation] = invocations;
    expect(invocation?.finalResponse?.parts[0]).toEqual({ text: 'It is sunny in SF.' });
    const events = eventsOf(invocation?.intermediateData);
    expect(events).toHaveLength(1);
    expect(events[0]?.content?.parts[0]).toEqual(call('get_weather'));
  });

  it('test_multi_turn', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'Hello' }], 'inv1'),
      buildEvent('agent', [{ text: 'Hi there!' }], 'inv1'),
      buildEvent('user', [{ text: 'How are you?' }], 'inv2'),
      buildEvent('agent', [{ text: 'I am fine.' }], 'inv2'),
    ]);
    expect(invocations).toHaveLength(2);
    expect(invocations[0]?.userContent.parts[0]).toEqual({ text: 'Hello' });
    expect(invocations[0]?.finalResponse?.parts[0]).toEqual({ text: 'Hi there!' });
    expect(invocations[1]?.userContent.parts[0]).toEqual({ text: 'How are you?' });
    expect(invocations[1]?.finalResponse?.parts[0]).toEqual({ text: 'I am fine.' });
  });

  it('test_multi_agent', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'Do something' }], 'inv1'),
      buildEvent('root_agent', [call('tool1')], 'inv1'),
      buildEvent('sub_agent_1', [call('tool2')], 'inv1'),
      buildEvent('sub_agent_1', [call('tool3'), { text: 'intermediate response' }], 'inv1'),
      buildEvent('sub_agent_2', [call('tool4')], 'inv1'),
      buildEvent('root_agent', [{ text: 'All done.' }], 'inv1'),
    ]);
    expect(invocations).toHaveLength(1);
    const [invocation] = invocations;
    expect(invocation?.finalResponse?.parts[0]).toEqual({ text: 'All done.' });
    const events = eventsOf(invocation?.intermediateData);
    expect(events.map((event) => event.author)).toEqual(['root_agent', 'sub_agent_1', 'sub_agent_1', 'sub_agent_2']);
  });

  it('test_convert_multi_agent_final_responses', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'Hello' }], 'inv1'),
      buildEvent('agent1', [{ text: 'First response' }], 'inv1'),
      buildEvent('agent2', [{ text: 'Second response' }], 'inv1'),
    ]);
    expect(invocations).toHaveLength(1);
    const [invocation] = invocations;
    expect(invocation?.finalResponse?.parts[0]).toEqual({ text: 'Second response' });
    // agent1 is kept: it is not the final event (agent2's is).
    const events = eventsOf(invocation?.intermediateData);
    expect(events).toHaveLength(1);
    expect(events[0]?.author).toBe('agent1');
    expect(events[0]?.content?.parts[0]).toEqual({ text: 'First response' });
  });
});

describe('test_evaluation_generator.py, module level', () => {
  it('test_convert_events_preserves_tool_calls_when_skip_summarization (ADK #5410)', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'run a query' }], 'inv1', { timestamp: 1000.0 }),
      buildEvent(
        'agent',
        [{ functionCall: { id: 'call_01', name: 'execute_sql', args: { project_id: 'my-proj', query: 'SELECT 1' } } }],
        'inv1',
        { actions: { ...ACTIONS, skipSummarization: true } },
      ),
    ]);
    expect(invocations).toHaveLength(1);
    const calls = allToolCalls(invocations[0]?.intermediateData);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe('execute_sql');
    expect(calls[0]?.args).toEqual({ project_id: 'my-proj', query: 'SELECT 1' });
  });
});

describe('agentctx: the rest of convert_events_to_eval_invocations', () => {
  it("takes the user's last content and its timestamp, the author in any case; 0 and an empty message without one", () => {
    const invocations = invocationsFromEvents([
      buildEvent('User', [{ text: 'first' }], 'a', { timestamp: 5 }),
      buildEvent('user', [{ text: 'second' }], 'a', { timestamp: 7.25 }),
      buildEvent('agent', [{ text: 'ok' }], 'a', { timestamp: 9 }),
      buildEvent('agent', [{ text: 'alone' }], 'b', { timestamp: 11 }),
    ]);
    expect(invocations[0]?.userContent.parts).toEqual([{ text: 'second' }]);
    expect(invocations[0]?.creationTimestamp).toBe(7.25);
    expect(invocations[1]?.userContent).toEqual({ role: 'user', parts: [] });
    expect(invocations[1]?.creationTimestamp).toBe(0);
  });

  it('groups by invocation id in the order ids first appear, even when interleaved', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'q1' }], 'x'),
      buildEvent('user', [{ text: 'q2' }], 'y'),
      buildEvent('agent', [{ text: 'a1' }], 'x'),
      buildEvent('agent', [{ text: 'a2' }], 'y'),
    ]);
    expect(invocations.map((invocation) => invocation.invocationId)).toEqual(['x', 'y']);
    expect(invocations[0]?.finalResponse?.parts).toEqual([{ text: 'a1' }]);
  });

  it('an event without an author is the agent; empty texts, partial and content-less events are not kept', () => {
    const invocations = invocationsFromEvents([
      buildEvent('user', [{ text: 'q' }], 'i'),
      buildEvent('', [{ text: 'streamed' }], 'i', { partial: true }),
      buildEvent('agent', [{ text: '' }], 'i', { partial: true }),
      buildEvent('agent', [], 'i'),
      withoutContent(buildEvent('agent', [], 'i')),
      buildEvent('agent', [{ functionResponse: { name: 'f', response: {} } }], 'i'),
      buildEvent('agent', [{ text: 'done' }], 'i'),
    ]);
    const [invocation] = invocations;
    expect(invocation?.finalResponse?.parts).toEqual([{ text: 'done' }]);
    // The partial chunk with text is kept (its author '' stays as written); the empty text is not.
    expect(eventsOf(invocation?.intermediateData).map((event) => event.author)).toEqual(['', 'agent']);
  });

  it('a final response ending in a code execution result is not final; app details by invocation id', () => {
    const app: AppDetails = {
      agentDetails: { agent: { name: 'agent', instructions: 'be brief', toolDeclarations: [] } },
    };
    const invocations = invocationsFromEvents(
      [
        buildEvent('user', [{ text: 'q' }], 'i'),
        buildEvent('agent', [{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2' } }], 'i'),
        buildEvent('user', [{ text: 'r' }], 'j'),
      ],
      { i: app },
    );
    expect(invocations[0]?.finalResponse).toBeUndefined();
    // Neither a call, a response, a text nor inline data: not intermediate either.
    expect(eventsOf(invocations[0]?.intermediateData)).toEqual([]);
    expect(invocations[0]?.appDetails).toBe(app);
    expect(invocations[1]?.appDetails).toBeUndefined();
  });
});
