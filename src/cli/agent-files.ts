import { dirname, relative, resolve } from 'node:path';
import { mcpToolset } from '../mcp/mcp-toolset.js';
import type { AgentFiles } from '../presets/agent-files.js';
import { trackToolsets } from './open-toolsets.js';
import { readMemoryFile, readSkillsFolder } from '../workspace/skill-files.js';
import { workspaceTools } from '../workspace/workspace-tools.js';

/** Disk access for agent files: paths are relative to the file that names them. */
export function nodeAgentFiles(cwd: string): AgentFiles {
  const near = (path: string, from: string) => resolve(cwd, dirname(from), path);
  return {
    // Paths in provenance are relative to the working folder, so the same files give the same record anywhere.
    readSkills: async (dir, from) =>
      (await readSkillsFolder(near(dir, from))).map((skill) => ({ ...skill, path: relative(cwd, skill.path ?? '') })),
    readMemory: async (path, from) => {
      const file = await readMemoryFile(near(path, from));
      return { ...file, path: relative(cwd, file.path ?? '') };
    },
    workspaceTools: (root, from) => workspaceTools({ root: near(root, from) }),
    mcpToolset: (options) => trackToolsets(mcpToolset(options)),
  };
}
