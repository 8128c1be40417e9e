import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAgent } from '../../src/cli/load-agent.js';
import { resolveModel } from '../../src/cli/resolve-model.js';
import type { AgentDefinition } from '../../src/contracts/agent.js';
import type { Model } from '../../src/contracts/model.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import type { Runner } from '../../src/engine/runner/runner.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createServer, type AgentctxServer, type ServerOptions } from '../../src/server/index.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { repositoryRoot } from '../support/cli.js';

export const PIPELINE = 'examples/draft-and-review/pipeline.yaml';
export const PIPELINE_SCRIPT = 'examples/draft-and-review/script.yaml';

/** Temporary folders and open things, cleaned up by `cleanup()` (call it in afterEach/afterAll). */
export function resources() {
  const dirs: string[] = [];
  const servers: AgentctxServer[] = [];
  const stores: SessionStore[] = [];
  return {
    async dir(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), 'agentctx-server-'));
      dirs.push(dir);
      return dir;
    },
    sqlite(path: string): SessionStore {
      const store = createSqliteSessionStore({ path });
      stores.push(store);
      return store;
    },
    /** A server on 127.0.0.1 and an ephemeral port, and its base URL. */
    async serve(options: ServerOptions): Promise<{ server: AgentctxServer; url: string }> {
      const server = createServer({ onError: () => undefined, ...options });
      servers.push(server);
      const { url } = await server.listen(0);
      return { server, url };
    },
    async cleanup(): Promise<void> {
      for (const server of servers.splice(0)) {
        server.abortTurns();
        await server.close();
      }
      for (const store of stores.splice(0)) await store.close();
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A runner for seed 001's pipeline, loaded and scripted as `agentctx serve` does it. */
export async function pipelineRunner(sessions: SessionStore): Promise<Runner> {
  const agents = await loadAgent(PIPELINE, repositoryRoot);
  const model = await resolveModel(`scripted:${PIPELINE_SCRIPT}`, repositoryRoot, {});
  return createRunner({ agents, sessions, model });
}

/** A gate a test opens when it wants a waiting tool to go on. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * An agent whose tool `wait` holds the turn until `release` opens (or the turn is aborted): call `wait`, then say
 * "finished" (or "aborted" when the tool saw the abort).
 */
export function waitingAgent(release: Promise<void>, started?: () => void): { agents: AgentDefinition; model: Model } {
  const wait = functionTool({
    name: 'wait',
    description: 'Waits until the test lets it go.',
    jsonSchema: { type: 'object', properties: {} },
    execute: async (_args, context) => {
      started?.();
      const aborted = new Promise<string>((resolve) =>
        context.signal?.addEventListener('abort', () => resolve('aborted'), { once: true }),
      );
      return { outcome: await Promise.race([release.then(() => 'released'), aborted]) };
    },
  });
  const model = createScriptedModel({
    rules: [
      { when: { afterToolResponse: 'wait' }, respond: { text: 'finished' } },
      { respond: { functionCall: { name: 'wait', args: {} } } },
    ],
  });
  return { agents: llmAgent({ name: 'waiter', instruction: 'Wait, then finish.', tools: [wait] }), model };
}

export type SseFrame = { event: string; data: unknown };

/** Parses a whole `text/event-stream` body; comment lines (`: ping`) are skipped. */
export function parseSse(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.split('\n').every((line) => line.startsWith(':')))
    .map((block) => {
      const lines = block.split('\n').filter((line) => !line.startsWith(':'));
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}

/** Reads an event stream frame by frame, as they arrive. */
export function sseReader(response: Response): {
  next(): Promise<SseFrame | undefined>;
  rest(): Promise<SseFrame[]>;
  cancel(): Promise<void>;
} {
  const body = response.body;
  if (body === null) throw new Error('no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<SseFrame | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end + 2);
        buffer = buffer.slice(end + 2);
        const [frame] = parseSse(block);
        if (frame !== undefined) return frame;
        continue;
      }
      const { done, value } = await reader.read();
      if (done) return undefined;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return {
    next,
    async rest() {
      const frames: SseFrame[] = [];
      for (let frame = await next(); frame !== undefined; frame = await next()) frames.push(frame);
      return frames;
    },
    cancel: () => reader.cancel(),
  };
}

/** JSON request helpers against a base URL. */
export function api(base: string, headers: Record<string, string> = {}) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: (text === '' ? undefined : JSON.parse(text)) as any,
    };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    delete: (path: string) => call('DELETE', path),
    call,
    /** Starts a turn and returns the raw response (an event stream, or a JSON error). */
    run: (path: string, body: unknown) =>
      fetch(`${base}${path}/run`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}
