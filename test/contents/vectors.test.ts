import { describe, expect, it } from 'vitest';
import type { Processor } from '../../src/contracts/agent.js';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { ProcessorError } from '../../src/contracts/errors/processor-error.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { outputKeyDelta } from '../../src/engine/agent/output-key.js';
import { draftMessage } from '../../src/engine/assembly/draft.js';
import { insertInstructionMessages } from '../../src/features/contents/build-contents.js';
import { contentsProcessor } from '../../src/features/contents/contents-processor.js';
import { finalizeProcessor } from '../../src/features/contents/finalize.js';
import { isOtherAgentReply } from '../../src/features/contents/other-agent.js';
import { toGeminiContents } from '../../src/models/gemini/gemini-contents.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { eventsFromAdk, messageFromAdk } from '../support/adk-shapes.js';
import { loadVectors } from '../support/adk-vectors.js';

type Raw = Record<string, unknown>;
const load = (component: string) => loadVectors(component, { pythonNumbers: false });
const testSource = { kind: 'custom' as const, processor: 'test', agent: 'test' };

describe('contents vectors (ADK Python)', async () => {
  const vectors = await load('contents');
  it('covers all 34 vectors', () => expect(vectors).toHaveLength(34));

  for (const vector of vectors) {
    it(vector.name, async () => {
      const input = vector.input as {
        agent?: Raw;
        branch?: string | null;
        events?: Raw[];
        cases?: [string, string, string | null, boolean][];
      };
      if (input.cases !== undefined) {
        for (const [agentName, author, liveSessionId, expected] of input.cases) {
          expect(
            isOtherAgentReply(agentName, author, liveSessionId ?? undefined),
            `${agentName} / ${author} / ${liveSessionId}`,
          ).toBe(expected);
        }
        return;
      }
      const raw = input.agent as Raw;
      const agent = llmAgent({
        name: raw['name'] as string,
        includeContents: (raw['include_contents'] as 'default' | 'none' | undefined) ?? 'default',
      });
      const run = assembleRequest({
        agents: agent,
        events: eventsFromAdk(input.events ?? []),
        branch: input.branch ?? undefined,
        preserveFunctionCallIds: vector.name === 'adk_ids_kept_for_interactions_or_anthropic',
        // ADK's profile: Python's str() for values, and summaries presented as another agent's turn.
        profile: 'adk',
        pipeline: [contentsProcessor],
      });
      const expected = vector.expected as
        | Raw[]
        | { error: { message: string } }
        | { count: number; 'contents[1]': Raw };
      if ('error' in expected) {
        const error = await run.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(ProcessorError);
        expect(((error as ProcessorError).cause as AgentctxError).message).toBe(expected.error.message);
        expect((error as ProcessorError).message).toMatch(
          /^Processor 'contents' failed for agent 'test_agent': No function call event found/,
        );
        return;
      }
      const { request } = await run;
      if ('count' in expected) {
        expect(request.messages).toHaveLength(expected.count);
        expect(request.messages[1]).toEqual(messageFromAdk(expected['contents[1]']));
        return;
      }
      expect(request.messages).toEqual(expected.map(messageFromAdk));
    });
  }
});

describe('contents_insert_instructions vectors (ADK Python)', async () => {
  const vectors = await load('contents_insert_instructions');
  it('covers all 5 vectors', () => expect(vectors).toHaveLength(5));
  for (const vector of vectors) {
    it(vector.name, () => {
      const input = vector.input as { contents: Raw[]; instruction_contents: Raw[] };
      const toDraft = (raw: Raw) => {
        const message = messageFromAdk(raw);
        return draftMessage(message.role as 'user' | 'model', message.content, testSource);
      };
      const result = insertInstructionMessages(input.contents.map(toDraft), input.instruction_contents.map(toDraft));
      const expected = (vector.expected as { contents: Raw[] }).contents.map(messageFromAdk);
      expect(result.map((draft) => draft.message)).toEqual(expected);
    });
  }
});

describe('output_key vectors (ADK Python)', async () => {
  const vectors = await load('output_key');
  it('covers all 4 vectors', () => expect(vectors).toHaveLength(4));
  for (const vector of vectors) {
    it(vector.name, () => {
      const input = vector.input as { agent: { name: string; output_key: string }; event: Raw };
      const agent = llmAgent({ name: input.agent.name, outputKey: input.agent.output_key });
      const [event] = eventsFromAdk([input.event]);
      if (event === undefined) throw new Error('no event');
      const stateDelta = { ...event.actions.stateDelta, ...outputKeyDelta(agent, event) };
      expect(stateDelta).toEqual((vector.expected as { state_delta: Raw }).state_delta);
    });
  }
});

describe('model_request_finalize vectors (ADK Python)', async () => {
  const vectors = await load('model_request_finalize');
  it('covers all 3 vectors', () => expect(vectors).toHaveLength(3));
  for (const vector of vectors) {
    it(vector.name, async () => {
      const input = vector.input as { contents?: Raw[] };
      if (input.contents === undefined) {
        // Gemini's API takes no display names; agentctx sets no labels, which is what ADK leaves after removing its own.
        const part = { inlineData: { mimeType: 'image/png', data: 'AA==', displayName: 'pic.png' } };
        const messages = [{ role: 'user' as const, content: [part] }];
        expect(toGeminiContents(messages)).toEqual([
          { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] },
        ]);
        expect(messages[0]?.content[0]).toBe(part);
        const { request } = await assembleRequest({ agents: llmAgent({ name: 'root' }) });
        expect(request.config).not.toHaveProperty('labels');
        return;
      }
      const seed: Processor = {
        name: 'history',
        process: (draft) => ({
          ...draft,
          messages: (input.contents ?? []).map((raw) => {
            const message = messageFromAdk(raw);
            return draftMessage(message.role as 'user' | 'model', message.content, testSource);
          }),
        }),
      };
      const { request } = await assembleRequest({
        agents: llmAgent({ name: 'root' }),
        pipeline: [seed, finalizeProcessor],
      });
      expect(request.messages).toEqual((vector.expected as { contents: Raw[] }).contents.map(messageFromAdk));
    });
  }
});
