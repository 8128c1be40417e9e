import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { LlmAgentDefinition } from '../../src/contracts/agent.js';
import { settingOf } from '../../src/engine/extensions/settings.js';
import * as harness from '../../src/harness.js';
import { MEMORY_FILES } from '../../src/features/memory-files/memory-files.js';
import { agentFromConfig, type AgentFiles } from '../../src/presets/agent-files.js';

// Issue 45, part 3: memory files (MEMORY.md) are "memory files" now, in the API and in agent files; the old spellings
// still work, as deprecated aliases of the new ones.

const files: AgentFiles = {
  readSkills: async () => [],
  readMemory: async (path) => ({ name: path, body: `notes of ${path}`, path }),
  workspaceTools: () => [],
};
const read = (value: unknown) =>
  agentFromConfig(value, { filename: 'agent.yaml', files }) as Promise<LlmAgentDefinition>;
const offered = (agent: LlmAgentDefinition) =>
  settingOf(agent.extensions, MEMORY_FILES)?.map((entry) => [entry.file.name, entry.mode]);

describe('memory files', () => {
  it('read from memoryFiles, and from memory (the old spelling) the same way', async () => {
    const list = [{ file: 'MEMORY.md', mode: 'on' }, { file: 'NOTES.md' }];
    expect(offered(await read({ name: 'a', memoryFiles: list }))).toEqual([
      ['MEMORY.md', 'on'],
      ['NOTES.md', 'off'],
    ]);
    expect(offered(await read({ name: 'a', memory: list }))).toEqual([
      ['MEMORY.md', 'on'],
      ['NOTES.md', 'off'],
    ]);
    expect(offered(await read({ name: 'a', memory_files: list }))).toEqual([
      ['MEMORY.md', 'on'],
      ['NOTES.md', 'off'],
    ]);
  });

  it('refuse both spellings at once', async () => {
    const error = await read({ name: 'a', memoryFiles: [{ file: 'A.md' }], memory: [{ file: 'B.md' }] }).catch(
      (caught: unknown) => caught,
    );
    expect(AgentctxError.isInstance(error) && error.message).toBe(
      'Invalid agent definition in agent.yaml: memory: is the old spelling of memoryFiles, which is given too; keep one',
    );
  });

  it('are offered under their new names only (the old API names were dropped before 1.0; the file key stays)', () => {
    for (const old of ['memory', 'MEMORY', 'memoryModeKey', 'effectiveMemoryMode'])
      expect(harness, old).not.toHaveProperty(old);
    expect(harness.memoryFileModeKey('MEMORY.md')).toBe('memory:MEMORY.md');
  });
});
