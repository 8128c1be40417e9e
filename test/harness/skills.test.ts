import { describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { loadSkillTool } from '../../src/features/skills/load-skill.js';
import type { SkillEntry } from '../../src/features/skills/skill-modes.js';
import { skills as skillsExtension } from '../../src/features/skills/skills-extension.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, describeEvents, testClock } from '../runner/helpers.js';

const skills: SkillEntry[] = [
  {
    skill: {
      name: 'docs-check',
      description: 'Review documentation changes.',
      body: 'Check every relative link in the changed page.',
    },
    mode: 'listed',
  },
  {
    skill: { name: 'release-notes', description: 'Write release notes.', body: 'Group changes by area.' },
    mode: 'disabled',
  },
];

describe('skills in an ADK agent', () => {
  it('lists skills after the identity, and leaves an agent without skills byte for byte as before', async () => {
    const agent = llmAgent({ name: 'writer', instruction: 'Write docs.', extensions: [skillsExtension(skills)] });
    const { request } = await assembleRequest({ agents: agent, events: [] });
    expect(request.system).toBe(
      'Write docs.\n\nYou are an agent. Your internal name is "writer".\n\n# Available skills\n\ndocs-check: Review documentation changes.',
    );
    const plain = await assembleRequest({
      agents: llmAgent({ name: 'writer', instruction: 'Write docs.' }),
      events: [],
    });
    expect(plain.request.system).toBe('Write docs.\n\nYou are an agent. Your internal name is "writer".');
  });
});

describe('load_skill', () => {
  it('lets the model load a listed skill, whose body the next request carries; it is offered only while one is listed', async () => {
    const agent = llmAgent({
      name: 'writer',
      instruction: 'Write docs.',
      extensions: [skillsExtension(skills)],
      tools: [loadSkillTool(skills)],
    });
    const model = createScriptedModel([
      { functionCall: { name: 'load_skill', args: { name: 'release-notes' } } },
      { functionCall: { name: 'load_skill', args: { name: 'docs-check' } } },
      { text: 'All links checked.' },
    ]);
    const runner = createRunner({ ...testClock(), agents: agent, model });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    const lines = describeEvents(await collect(runner, { message: 'Check my page' }));
    expect(lines[2]).toBe(
      'writer: load_skill → {"error":"No skill named \\"release-notes\\" can be loaded. Listed skills: docs-check."}',
    );
    expect(lines[4]).toMatch(/load_skill → \{"loaded":"docs-check"/);
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['load_skill']);
    expect(JSON.stringify(model.requests[1]?.messages)).not.toContain('Check every relative link');
    expect(model.requests[2]?.messages[0]?.content[0]).toEqual({
      text: '<skill name="docs-check">\nCheck every relative link in the changed page.\n</skill>',
    });
    expect(model.requests[2]?.tools).toEqual([]);
  });
});
