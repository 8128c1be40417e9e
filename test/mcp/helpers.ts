import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from '../../src/contracts/agent.js';
import type { FunctionResponse } from '../../src/contracts/content.js';
import type { Event } from '../../src/contracts/event.js';
import type { Source, ToolOrigin } from '../../src/contracts/source.js';
import type { Runner, RunInput } from '../../src/engine/runner/runner.js';
import type { McpStdioServer, McpToolset } from '../../src/mcp/index.js';

// What the MCP tests share: where the servers are, a turn through the runner, what a request said, child processes.

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The reference servers, installed as dev dependencies and started with this node. */
export const EVERYTHING_JS = join(packageDir('@modelcontextprotocol/server-everything'), 'dist/index.js');
export const FILESYSTEM_JS = join(packageDir('@modelcontextprotocol/server-filesystem'), 'dist/index.js');

export const everythingServer = (): McpStdioServer => ({ command: process.execPath, args: [EVERYTHING_JS, 'stdio'] });
export const filesystemServer = (...folders: string[]): McpStdioServer => ({
  command: process.execPath,
  args: [FILESYSTEM_JS, ...folders],
});

/** A fixture server of test/mcp/fixtures (`sdk-server` or `raw-server`), with its flags. */
export function fixtureServer(name: 'sdk-server' | 'raw-server', ...args: string[]): McpStdioServer {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL(`./fixtures/${name}.mjs`, import.meta.url)), ...args],
  };
}

/** The context a toolset lists its tools in, for calling `listTools` outside a runner. */
export const LISTING_CONTEXT = { agentName: 'agent', appName: 'app', userId: 'u1', sessionId: 's1', state: {} };

/** Runs one invocation of session s1 (user u1) to its end and returns its events. */
export async function turn(runner: Runner, message: string, input: Partial<RunInput> = {}): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message, ...input })) events.push(event);
  return events;
}

/** The function responses among the events, in order. */
export function responsesIn(events: readonly Event[]): FunctionResponse[] {
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse] : [])),
  );
}

/** The function responses, keyed by their call's id. */
export function responsesById(events: readonly Event[]): Record<string, Record<string, unknown> | undefined> {
  return Object.fromEntries(responsesIn(events).map((response) => [response.id ?? response.name, response.response]));
}

/** The text of the last event (the model's final answer, when the invocation went on to the end). */
export function finalText(events: readonly Event[]): string | undefined {
  const last = events.at(-1);
  if (last?.errorCode !== undefined) return `ERROR ${last.errorCode}: ${last.errorMessage ?? ''}`;
  return (last?.content?.parts ?? []).map((part) => ('text' in part ? part.text : '')).join('');
}

/** The tool origins of a request's provenance, in the order of its tools. */
export const originsOf = (tools: readonly Source[]): (ToolOrigin | undefined)[] => tools.map((source) => source.tool);

/** A plugin that keeps the warnings of every request the runner assembles, in order. */
export function warningsKept(): { plugin: Plugin; warnings: string[][] } {
  const warnings: string[][] = [];
  return {
    warnings,
    plugin: {
      name: 'keep_warnings',
      hooks: {
        afterAssembly: ({ assembled }) => {
          warnings.push([...assembled.warnings]);
        },
      },
    },
  };
}

/** The process id of the server a stdio toolset started, while it is connected. */
export function serverPid(toolset: McpToolset): number | undefined {
  const transport = toolset.connection['client']?.transport as { pid?: number | null } | undefined;
  return transport?.pid ?? undefined;
}

/** Whether a process is running (a zombie not yet reaped counts as gone only once reaped). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temporary folders (real paths, as the filesystem server resolves them), removed by `cleanup`. */
export function scratch() {
  const folders: string[] = [];
  return {
    async folder(): Promise<string> {
      const folder = await realpath(await mkdtemp(join(tmpdir(), 'agentctx-mcp-')));
      folders.push(folder);
      return folder;
    },
    async cleanup(): Promise<void> {
      for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
    },
  };
}
