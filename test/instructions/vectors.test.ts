import { describe, expect, it } from 'vitest';
import type { LlmAgentDefinition, StaticInstruction, Processor } from '../../src/contracts/agent.js';
import { createAgentTree } from '../../src/engine/agent/agent-tree.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { draftMessage, joinSystemBlocks } from '../../src/engine/assembly/draft.js';
import { contentsProcessor } from '../../src/features/contents/contents-processor.js';
import { identityProcessor } from '../../src/features/identity/identity.js';
import { instructionsProcessor } from '../../src/features/instructions/instructions.js';
import { agentTransferProcessor } from '../../src/features/transfer/agent-transfer.js';
import { transferToAgentDeclaration } from '../../src/features/transfer/transfer-to-agent.js';
import { toGeminiSchema } from '../../src/models/gemini/gemini-schema.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { defaultPipeline } from '../../src/presets/pipelines.js';
import { contentFromAdk, messageFromAdk, partFromAdk } from '../support/adk-shapes.js';
import { loadVectors, type Vector } from '../support/adk-vectors.js';

type Raw = Record<string, unknown>;
const load = (component: string) => loadVectors(component, { pythonNumbers: false });

// A processor standing in for ADK's test, which adds a user message by hand before `contents` runs.
const addMessage = (text: string): Processor => ({
  name: 'test-add-message',
  process: (draft) => ({
    ...draft,
    messages: [
      ...draft.messages,
      draftMessage('user', [{ text }], { kind: 'custom', processor: 'test', agent: 'test' }),
    ],
  }),
});

function staticFromAdk(raw: unknown): StaticInstruction {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) return raw.map((item) => (typeof item === 'string' ? item : partFromAdk(item as Raw)));
  return contentFromAdk(raw as Raw);
}

describe('instructions vectors (ADK Python)', async () => {
  const vectors = await load('instructions');
  it('covers all 16 vectors', () => expect(vectors).toHaveLength(16));

  const run = async (vector: Vector) => {
    const input = vector.input as { root?: Raw; agent: Raw; state?: Raw; extra_contents_after_instructions?: Raw[] };
    const raw = input.agent;
    let instruction: LlmAgentDefinition['instruction'] = raw['instruction'] as string | undefined;
    if (vector.name === 'provider_bypasses_injection') {
      instruction = (context) =>
        `This is the function agent instruction for invocation: provider template intact { customerId } provider template intact { customer_int } ${context.invocationId}.`;
    }
    const subAgents = ((raw['sub_agents'] as [string, string][] | undefined) ?? []).map(([name, description]) =>
      llmAgent({ name, description }),
    );
    const agent = llmAgent({
      name: (raw['name'] as string | undefined) ?? 'test_agent',
      description: (raw['description'] as string | undefined) ?? '',
      ...(instruction === undefined ? {} : { instruction }),
      ...(raw['static_instruction'] === undefined
        ? {}
        : { staticInstruction: staticFromAdk(raw['static_instruction']) }),
      subAgents,
    });
    const root =
      input.root === undefined
        ? agent
        : llmAgent({
            name: 'root_agent',
            globalInstruction: input.root['global_instruction'] as string,
            subAgents: [agent],
          });
    const pipelines: Record<string, Processor[]> = {
      full_pipeline_root_router: defaultPipeline(),
      empty_instruction_leaves_separator: [instructionsProcessor, identityProcessor],
      dynamic_inserted_before_trailing_user_batch: [
        instructionsProcessor,
        addMessage('Hello world'),
        contentsProcessor,
      ],
    };
    return assembleRequest({
      agents: createAgentTree(root),
      agentName: agent.name,
      state: { customerId: '1234567890', ...(input.state ?? {}) },
      invocationId: 'test_id',
      profile: 'adk',
      pipeline: pipelines[vector.name] ?? [instructionsProcessor],
    });
  };

  for (const vector of vectors) {
    it(vector.name, async () => {
      const { request } = await run(vector);
      const expected = vector.expected as {
        system_instruction?: string;
        contents?: Raw[];
        contents_after_instructions_processor?: Raw[];
      };
      if (expected.system_instruction !== undefined) expect(request.system).toBe(expected.system_instruction);
      const contents = expected.contents ?? expected.contents_after_instructions_processor;
      if (contents !== undefined) expect(request.messages).toEqual(contents.map(messageFromAdk));
    });
  }
});

describe('identity vectors (ADK Python)', async () => {
  const vectors = await load('identity');
  it('covers all 4 vectors', () => expect(vectors).toHaveLength(4));
  for (const vector of vectors) {
    it(vector.name, async () => {
      const input = vector.input as {
        agent: { name: string; description?: string; mode?: 'single_turn' };
        system_instruction_before: string;
      };
      const before: Processor = {
        name: 'before',
        process: (draft) =>
          input.system_instruction_before === ''
            ? draft
            : {
                ...draft,
                systemBlocks: [
                  {
                    text: input.system_instruction_before,
                    source: { kind: 'custom', processor: 'before', agent: 'test' },
                  },
                ],
              },
      };
      const agent = llmAgent({
        name: input.agent.name,
        description: input.agent.description ?? '',
        ...(input.agent.mode === undefined ? {} : { mode: input.agent.mode }),
      });
      const { request } = await assembleRequest({ agents: agent, pipeline: [before, identityProcessor] });
      expect(request.system).toBe(vector.expected);
    });
  }
});

describe('agent_transfer vectors (ADK Python)', async () => {
  const vectors = await load('agent_transfer');
  it('covers all 8 vectors', () => expect(vectors).toHaveLength(8));
  for (const vector of vectors) {
    it(vector.name, async () => {
      const input = vector.input as {
        agent?: Raw;
        targets?: [string, string][];
        system_instruction_before?: string | null;
      };
      const expected = vector.expected as
        | { appended_text?: string | null; enum?: string[]; tool_added?: boolean }
        | string;
      if (input.agent === undefined) {
        // Only the joining matters here: the transfer text follows an existing system text.
        const targets = (input.targets ?? []).map(([name, description]) => llmAgent({ name, description }));
        const root = llmAgent({ name: 'root', subAgents: targets });
        const before: Processor = {
          name: 'before',
          process: (draft) => ({
            ...draft,
            systemBlocks: [
              {
                text: input.system_instruction_before ?? '',
                source: { kind: 'custom', processor: 'before', agent: 'root' },
              },
            ],
          }),
        };
        const { request } = await assembleRequest({ agents: root, pipeline: [before, agentTransferProcessor] });
        expect(request.system).toBe(expected);
        return;
      }
      const raw = input.agent;
      const children = ((raw['sub_agents'] as [string, string][]) ?? []).map(([name, description]) =>
        llmAgent({ name, description }),
      );
      const agent = llmAgent({
        name: raw['name'] as string,
        description: (raw['description'] as string | undefined) ?? '',
        subAgents: children,
        disallowTransferToParent: raw['disallow_transfer_to_parent'] === true,
        disallowTransferToPeers: raw['disallow_transfer_to_peers'] === true,
      });
      const parentRaw = raw['parent'] as Raw | null;
      let root = agent;
      if (parentRaw !== null && parentRaw !== undefined) {
        const siblings = (parentRaw['sub_agents'] as [string, string][]).map(([name, description]) =>
          name === agent.name ? agent : llmAgent({ name, description }),
        );
        if (!siblings.includes(agent)) siblings.push(agent);
        root = llmAgent({
          name: parentRaw['name'] as string,
          description: parentRaw['description'] as string,
          subAgents: siblings,
        });
      }
      const { request } = await assembleRequest({
        agents: root,
        agentName: agent.name,
        pipeline: [agentTransferProcessor],
      });
      const result = expected as { appended_text?: string | null; enum?: string[]; tool_added?: boolean };
      if (result.appended_text === null) {
        expect(request.system).toBe('');
        expect(request.tools).toHaveLength(0);
        return;
      }
      expect(request.system).toBe(result.appended_text);
      const parameters = request.tools[0]?.parameters as { properties: { agent_name: { enum: string[] } } };
      if (result.enum !== undefined) expect(parameters.properties.agent_name.enum).toEqual(result.enum);
    });
  }
});

describe('transfer_tool_declaration vectors (ADK Python)', async () => {
  const vectors = await load('transfer_tool_declaration');
  it('covers the vector', () => expect(vectors).toHaveLength(1));
  for (const vector of vectors) {
    it(vector.name, () => {
      const input = vector.input as { agent_names: string[] };
      const expected = vector.expected as { name: string; description_python_3_13_plus: string; parameters: Raw };
      const declaration = transferToAgentDeclaration(input.agent_names);
      expect(declaration.name).toBe(expected.name);
      // The vector is ADK 1.x's; the `adk` profile follows 2.5.0, whose docstring changed and is cleaned
      // (inspect.cleandoc) on every Python version (src/google/adk/tools/transfer_to_agent_tool.py at 2.5.0). Its
      // first line and its Args section are 1.x's.
      expect(expected.description_python_3_13_plus.startsWith('Transfer the question to another agent.')).toBe(true);
      expect(declaration.description).toBe(
        "Transfer the query to another agent.\n\nUse this tool to hand off control to another agent that is more suitable to\nanswer the user's query according to the agent's description.\n\nArgs:\n  agent_name: the agent name to transfer to.",
      );
      expect(toGeminiSchema(declaration.parameters ?? {})).toEqual(expected.parameters);
    });
  }
});

it('joins blocks as ADK appends instructions: an empty first block is swallowed, a later one leaves its separator', () => {
  const source = { kind: 'custom' as const, processor: 'test', agent: 'a' };
  expect(
    joinSystemBlocks([
      { text: '', source },
      { text: 'B', source },
    ]).text,
  ).toBe('B');
  expect(
    joinSystemBlocks([
      { text: 'A', source },
      { text: '', source },
      { text: 'C', source },
    ]).text,
  ).toBe('A\n\n\n\nC');
});
