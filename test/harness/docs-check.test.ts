import { describe, expect, it } from 'vitest';
import { nodeAgentFiles } from '../../src/cli/agent-files.js';
import { loadDocumentFile, relativeLoader } from '../../src/cli/load-document-file.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { diffRequests } from '../../src/engine/assembly/diff-requests.js';
import { findInRequest } from '../../src/engine/assembly/find-in-request.js';
import { assembleCase, parseCaseFile, type CaseFile } from '../../src/presets/case-file.js';
import { repositoryRoot } from '../support/cli.js';

const URL = 'https://preview-cedar.example';
const SKILL_MODES = ['disabled', 'listed', 'loaded'] as const;

async function caseOf(skill: string, memory: 'on' | 'off'): Promise<CaseFile> {
  const file = `examples/docs-check/${skill}-memory-${memory}.yaml`;
  const { value } = await loadDocumentFile(file, repositoryRoot);
  return parseCaseFile(value, {
    filename: file,
    load: relativeLoader(repositoryRoot),
    files: nodeAgentFiles(repositoryRoot),
  });
}

async function requestOf(skill: string, memory: 'on' | 'off'): Promise<LlmRequest> {
  return (await assembleCase(await caseOf(skill, memory))).request;
}

const sections = (request: LlmRequest) => request.system.split('\n\n').filter((line) => line.startsWith('# '));

describe("seed 002's harness (examples/docs-check)", () => {
  it('builds the four base sections in order, tools apart, and the task as the only message when nothing optional is loaded', async () => {
    const request = await requestOf('listed', 'off');
    expect(sections(request)).toEqual([
      '# Identity',
      '# Tool guidance',
      '# Runtime',
      '# User preferences',
      '# Available skills',
    ]);
    expect(request.system).toContain('# Runtime\n\nWorkspace: /demo/docs');
    expect(request.system).toContain('# User preferences\n\nUse concise English.');
    expect(request.system).not.toContain('Check every relative link');
    expect(request.tools.map((tool) => tool.name)).toEqual(['Read', 'Edit']);
    expect(request.tools[1]?.parameters).toMatchObject({ required: ['path', 'old_text', 'new_text'] });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ text: "Where is this project's private preview?" }] },
    ]);
  });

  it('leaves out the Available skills section entirely when the skill is disabled', async () => {
    const request = await requestOf('disabled', 'off');
    expect(sections(request)).toEqual(['# Identity', '# Tool guidance', '# Runtime', '# User preferences']);
    expect(request.system).not.toContain('docs-check');
  });

  it('lists a listed skill by its description only: the name is no proof its body was read', async () => {
    const request = await requestOf('listed', 'off');
    expect(request.system.endsWith('# Available skills\n\ndocs-check: Review documentation changes.')).toBe(true);
    expect(JSON.stringify(request.messages)).not.toContain('relative link');
  });

  it('keeps a memory file that is off out of the request, though the file exists', async () => {
    for (const skill of SKILL_MODES) expect(findInRequest(await requestOf(skill, 'off'), URL)).toEqual([]);
  });

  it('puts skill, memory and task as three blocks of the first user message when both are loaded', async () => {
    const request = await requestOf('loaded', 'on');
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]?.content.map((part) => ('text' in part ? part.text.split('\n')[0] : ''))).toEqual([
      '<skill name="docs-check">',
      '<memory file="MEMORY.md">',
      "Where is this project's private preview?",
    ]);
    expect(findInRequest(request, URL).map((occurrence) => occurrence.path)).toEqual(['messages[0].content[1]']);
    expect(findInRequest(await requestOf('listed', 'on'), URL).map((occurrence) => occurrence.path)).toEqual([
      'messages[0].content[0]',
    ]);
  });

  it('leaves system and tools byte-identical when memory is toggled, whatever the skill mode', async () => {
    for (const skill of SKILL_MODES) {
      const diff = diffRequests(await requestOf(skill, 'off'), await requestOf(skill, 'on'));
      expect(diff.system.identical, skill).toBe(true);
      expect(diff.tools.identical, skill).toBe(true);
      expect(diff.messages.identical, skill).toBe(false);
    }
  });

  it('changes the messages but not the number of system sections from listed to loaded', async () => {
    const listed = await requestOf('listed', 'off');
    const loaded = await requestOf('loaded', 'off');
    expect(sections(loaded)).toHaveLength(sections(listed).length);
    expect(loaded.system).toBe(listed.system);
    const diff = diffRequests(listed, loaded);
    expect(diff.messages.firstDifference).toBe('messages[0].content[0]');
  });

  it('names a skill listing cut to its budget in a warning instead of dropping it silently', async () => {
    const { value } = await loadDocumentFile('examples/docs-check/agent.yaml', repositoryRoot);
    const agent = {
      ...(value as Record<string, unknown>),
      skills: { dir: 'skills', default: 'listed', listingBudget: 5 },
    };
    const caseFile = await parseCaseFile(
      { agent, events: [{ author: 'user', content: { role: 'user', parts: [{ text: 'hi' }] } }] },
      {
        filename: 'examples/docs-check/budget.yaml',
        files: nodeAgentFiles(repositoryRoot),
      },
    );
    const { request, warnings } = await assembleCase(caseFile);
    expect(sections(request)).toHaveLength(4);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^The Available skills listing needs \d+ tokens, over its budget of 5: left out docs-check\./,
      ),
    ]);
  });
});
