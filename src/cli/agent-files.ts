import { dirname, relative, resolve } from 'node:path';
import { UsageError } from '../contracts/errors/usage-error.js';
import { mcpToolset } from '../mcp/mcp-toolset.js';
import type { AdkBinding } from '../presets/adk-bindings.js';
import type { AgentFiles } from '../presets/agent-files.js';
import { trackToolsets } from './open-toolsets.js';
import { declarePythonTools, readPythonObjects, readPythonSchemas, runPythonTool } from './python-tools.js';
import { readMemoryFile, readSkillsFolder } from '../workspace/skill-files.js';
import { workspaceTools } from '../workspace/workspace-tools.js';

/**
 * Whether reading an agent may start the programs its MCP stdio servers name: `start` for the commands that run the
 * agent; for the commands that only read it (`inspect`, `check`, `diff`, `compact`), only with the user's consent —
 * the flag, the environment, or a yes at the terminal (`ask`, only when there is one) — otherwise the file is refused
 * in one line naming the flag, since a server such as `npx -y …` downloads and runs code.
 */
export type McpStartConsent = 'start' | { refuse: string; ask?: ((question: string) => boolean) | undefined };

/**
 * The consent a reading command has: its `--start-mcp` flag, or `AGENTCTX_START_MCP=1` (or later ADK's
 * `ADK_ALLOW_CONFIG_STDIO_MCP_SERVERS=1`) in the environment; else the question, asked at a terminal.
 */
export function mcpStartConsent(
  flag: boolean | undefined,
  io: { env: Readonly<Record<string, string | undefined>>; ask?: ((question: string) => boolean) | undefined },
): McpStartConsent {
  const allowed = ['AGENTCTX_START_MCP', 'ADK_ALLOW_CONFIG_STDIO_MCP_SERVERS'].some((name) =>
    ['1', 'true'].includes((io.env[name] ?? '').toLowerCase()),
  );
  return flag === true || allowed ? 'start' : { refuse: '--start-mcp', ask: io.ask };
}

/**
 * Disk access for agent files: paths are relative to the file that names them. `warn` is told (once each) what a file
 * names that will not run; `bindings` are TypeScript for the Python names it gives (`--bindings`).
 */
export function nodeAgentFiles(
  cwd: string,
  consent: McpStartConsent = 'start',
  env: Readonly<Record<string, string | undefined>> = process.env,
  warn?: (message: string) => void,
  bindings?: Readonly<Record<string, AdkBinding>>,
): AgentFiles {
  // Each warning once, however many times the file is read (a case file reads its agent file again).
  const said = new Set<string>();
  const once =
    warn === undefined
      ? undefined
      : (message: string) => {
          if (said.has(message)) return;
          said.add(message);
          warn(message);
        };
  const answers = new Map<string, boolean>();
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
    declarePythonTools: declarePythonTools(env, cwd),
    readPythonObjects: readPythonObjects(env, cwd),
    readPythonSchemas: readPythonSchemas(env, cwd),
    ...(bindings === undefined ? {} : { bindings }),
    ...(once === undefined ? {} : { warn: once }),
    // Python tools run where the agent runs (run, serve); the commands that only read an agent never run them.
    ...(consent === 'start' ? { runPythonTool: runPythonTool(env, cwd, once) } : {}),
    mcpToolset: (options) => {
      const { server } = options;
      if (consent !== 'start' && 'command' in server) {
        const command = [server.command, ...(server.args ?? [])].join(' ');
        // Asked once per server, however many times the file is read.
        const yes =
          answers.get(command) ??
          consent.ask?.(`Start the MCP server '${options.name}' (${command}) to list its tools? [y/N] `) ??
          false;
        answers.set(command, yes);
        if (yes) return trackToolsets(mcpToolset(options));
        throw new UsageError(
          `Reading this agent would start the MCP server '${options.name}' (${command}); it is started only when you ask.`,
          `Add ${consent.refuse} (or set AGENTCTX_START_MCP=1) to start it and list its tools.`,
        );
      }
      return trackToolsets(mcpToolset(options));
    },
  };
}
