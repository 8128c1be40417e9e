import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { Event } from '../../src/contracts/event.js';
import type { Model, ModelResponse } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { summarizerInput } from '../../src/engine/compaction/compaction-plan.js';
import { latestPromptTokens } from '../../src/engine/compaction/prompt-tokens.js';
import { planSlidingWindow } from '../../src/engine/compaction/sliding-window.js';
import { planTokenCompaction } from '../../src/engine/compaction/token-threshold.js';
import { pythonStr } from '../../src/engine/python/python-format.js';
import { parseCompactionConfig } from '../../src/features/compaction/compaction-config.js';
import { compactionEvent } from '../../src/features/compaction/compaction-event.js';
import { LlmSummarizer } from '../../src/features/compaction/llm-summarizer.js';
import { estimatePromptTokensAdk } from '../../src/features/compaction/measure-prompt.js';
import { renderEventsAdk } from '../../src/features/compaction/render-events.js';
import { buildContents } from '../../src/features/contents/build-contents.js';
import { SUMMARY_HEADING } from '../../src/features/contents/compaction-view.js';
import { eventsFromAdk, messageFromAdk } from '../support/adk-shapes.js';
import { loadVectors } from '../support/adk-vectors.js';

type Raw = Record<string, unknown>;
const load = (component: string) => loadVectors(component, { pythonNumbers: false });
const textsOf = (events: readonly Event[]) =>
  events.flatMap((event) => (event.content?.parts ?? []).flatMap((part) => ('text' in part ? [part.text] : [])));

describe('compaction_config vectors', async () => {
  const [vector] = await load('compaction_config');
  const cases = (vector?.input as { cases: [Raw, string][] }).cases;
  for (const [config, expected] of cases) {
    it(`${JSON.stringify(config)} → ${expected}`, () => {
      if (expected === 'ok') {
        expect(() => parseCompactionConfig(config)).not.toThrow();
        return;
      }
      const error = (() => {
        try {
          parseCompactionConfig(config);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ValidationError);
      const message = (error as ValidationError).message;
      const [, detail] = expected.split('error: ');
      if (detail === 'token_threshold and event_retention_size must be set together.')
        expect(message).toContain(detail);
      // Each problem is named in the spelling the configuration used.
      const field = /^(\w+) (?:required|must)/.exec(detail ?? '')?.[1];
      if (field !== undefined) expect(message).toContain(field);
      if (detail === 'extra fields forbidden') expect(message).toContain('unknown');
    });
  }
  it('takes the token trigger alone (ADK requires the window too)', () => {
    expect(parseCompactionConfig({ tokenThreshold: 1000, eventRetentionSize: 2 })).toEqual({
      tokenThreshold: 1000,
      eventRetentionSize: 2,
    });
  });
  it('speaks camelCase when given camelCase', () => {
    expect(() => parseCompactionConfig({ tokenThreshold: 10 })).toThrow(
      /tokenThreshold and eventRetentionSize must be set together/,
    );
  });
});

describe('compaction_sliding_window vectors', async () => {
  const vectors = await load('compaction_sliding_window');
  it('covers all 8 vectors', () => expect(vectors).toHaveLength(8));
  for (const vector of vectors) {
    it(vector.name, () => {
      const input = vector.input as { config: Raw; events: Raw[] };
      const config = parseCompactionConfig(input.config);
      const window = {
        compactionInterval: config.compactionInterval as number,
        overlapSize: config.overlapSize as number,
      };
      const events = eventsFromAdk(input.events);
      const expected = (vector.expected as { summarized_invocation_ids: string[] | null }).summarized_invocation_ids;
      const adk = planSlidingWindow(events, window, false);
      expect(adk === undefined ? null : adk.events.map((event) => event.invocationId)).toEqual(expected);
      // agentctx agrees, except that it will not summarize a call whose (error) response is left raw after the cut, and
      // that it plans past a call a later turn moved on from (a run that stopped before answering it; ADK stops for good).
      const exact = planSlidingWindow(events, window, true);
      const differs: Record<string, string[]> = {
        HEAD_stops_before_unresolved_hitl: ['inv1'],
        stops_before_pending_call: ['inv1', 'inv2', 'inv3'],
      };
      expect(exact === undefined ? null : exact.events.map((event) => event.invocationId)).toEqual(
        differs[vector.name] ?? expected,
      );
    });
  }
});

describe('compaction_token_threshold vectors (ADK compatibility)', async () => {
  const vectors = await load('compaction_token_threshold');
  it('covers all 12 vectors', () => expect(vectors).toHaveLength(12));
  for (const vector of vectors) {
    it(vector.name, () => {
      const input = vector.input as { config: Raw; events: Raw[]; agent_name?: string };
      const events = eventsFromAdk(input.events);
      const expected = vector.expected as {
        summarized?: string[] | null;
        summarized_texts?: string[];
        seed_timestamp?: number;
        token_compaction_checked?: boolean;
        estimated_tokens?: number;
      };
      if (expected.estimated_tokens !== undefined) {
        expect(latestPromptTokens(events, true)).toBeUndefined();
        expect(estimatePromptTokensAdk(events, input.agent_name ?? '', undefined)).toBe(expected.estimated_tokens);
        return;
      }
      const config = parseCompactionConfig(input.config);
      const trigger = {
        tokenThreshold: config.tokenThreshold as number,
        eventRetentionSize: config.eventRetentionSize as number,
      };
      const plan = planTokenCompaction(events, trigger, {
        promptTokens: latestPromptTokens(events, true),
        byIds: false,
      });
      if (expected.summarized !== undefined)
        expect(plan === undefined ? null : plan.events.map((event) => event.invocationId)).toEqual(expected.summarized);
      if (expected.summarized_texts !== undefined)
        expect(textsOf(summarizerInput(plan as NonNullable<typeof plan>))).toEqual(expected.summarized_texts);
      if (expected.seed_timestamp !== undefined) {
        expect(plan?.seed?.timestamp).toBe(expected.seed_timestamp);
        expect(plan?.startTimestamp).toBe(expected.seed_timestamp);
      }
      if (expected.token_compaction_checked !== undefined)
        expect(plan !== undefined).toBe(expected.token_compaction_checked);
    });
  }

  it('request_phase_can_compact_current_user_event: agentctx keeps the running invocation’s user message', async () => {
    const vector = vectors.find((item) => item.name === 'request_phase_can_compact_current_user_event');
    const events = eventsFromAdk((vector?.input as { events: Raw[] }).events);
    const current = events.find((event) => event.invocationId === 'current-inv') as Event;
    const plan = planTokenCompaction(
      events,
      { tokenThreshold: 50, eventRetentionSize: 0 },
      { promptTokens: 100, keepFrom: current.id },
    );
    expect(plan?.events.map((event) => event.invocationId)).toEqual(['inv1']);
  });
});

describe('compaction_contents vectors', async () => {
  const vectors = await load('compaction_contents');
  it('covers all 9 vectors', () => expect(vectors).toHaveLength(9));
  for (const vector of vectors) {
    const input = vector.input as { events: Raw[]; agent_name: string };
    const expected = (vector.expected as { texts: string[] }).texts;
    const options = {
      agentName: input.agent_name,
      branch: undefined,
      preserveFunctionCallIds: false,
      embed: pythonStr,
    };
    it(`${vector.name} (ADK view)`, () => {
      const messages = buildContents(eventsFromAdk(input.events), { ...options, compactionView: 'adk' });
      expect(
        messages.flatMap(({ message }) => message.content.flatMap((part) => ('text' in part ? [part.text] : []))),
      ).toEqual(expected);
    });
    it(`${vector.name} (agentctx view: the same, each summary introduced as one)`, () => {
      const messages = buildContents(eventsFromAdk(input.events), { ...options, compactionView: 'exact' });
      const texts = messages.flatMap(({ message }) =>
        message.content.flatMap((part) => ('text' in part && part.text !== SUMMARY_HEADING ? [part.text] : [])),
      );
      expect(texts).toEqual(expected);
      for (const { message, sources } of messages) {
        if (sources[0]?.kind === 'summary')
          expect([message.role, message.content[0]]).toEqual(['user', { text: SUMMARY_HEADING }]);
      }
    });
  }
});

/** A model that records its requests and answers from a list. */
function recordingModel(responses: ModelResponse[]): Model & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'recorder',
    requests,
    generate: (request) => {
      requests.push(request);
      return Promise.resolve(responses.shift() ?? {});
    },
  };
}

describe('summarizer_prompt vectors (ADK compatibility)', async () => {
  const vectors = await load('summarizer_prompt');
  it('covers all 4 vectors', () => expect(vectors).toHaveLength(4));
  const byName = new Map(vectors.map((vector) => [vector.name, vector]));

  it('default_prompt', async () => {
    const vector = byName.get('default_prompt');
    const events = eventsFromAdk((vector?.input as { events: Raw[] }).events);
    const expected = vector?.expected as {
      request_contents: Raw[];
      compaction: { start_timestamp: number; end_timestamp: number };
      event_author: string;
      compacted_content_role: string;
    };
    const model = recordingModel([
      { content: { role: 'user', parts: [{ text: 'They greeted each other.' }] }, usage: { promptTokens: 60 } },
    ]);
    const summarizer = new LlmSummarizer({ model, profile: 'adk' });
    const summary = await summarizer.summarize(events);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages).toEqual(expected.request_contents.map(messageFromAdk));
    expect(model.requests[0]?.system).toBe('');
    const plan = {
      trigger: 'sliding_window' as const,
      events,
      startTimestamp: 1,
      endTimestamp: 2,
      eventIds: events.map((event) => event.id),
    };
    const event = compactionEvent(plan, summary as NonNullable<typeof summary>, 'inv');
    expect(event.author).toBe(expected.event_author);
    expect(event.content).toBeUndefined();
    expect(event.actions.compaction).toMatchObject({
      startTimestamp: expected.compaction.start_timestamp,
      endTimestamp: expected.compaction.end_timestamp,
      compactedContent: { role: expected.compacted_content_role },
    });
    expect(event.usage).toEqual({ promptTokens: 60 });
  });

  it('format_events', () => {
    const vector = byName.get('format_events');
    expect(renderEventsAdk(eventsFromAdk((vector?.input as { events: Raw[] }).events))).toBe(vector?.expected);
  });

  it('empty_input_no_call', async () => {
    const model = recordingModel([]);
    expect(await new LlmSummarizer({ model, profile: 'adk' }).summarize([])).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it('no_content_in_response', async () => {
    const model = recordingModel([{}]);
    const events = eventsFromAdk([{ author: 'user', content: { role: 'user', parts: [{ text: 'hi' }] } }]);
    expect(await new LlmSummarizer({ model, profile: 'adk' }).summarize(events)).toBeUndefined();
    expect(model.requests).toHaveLength(1);
  });
});
