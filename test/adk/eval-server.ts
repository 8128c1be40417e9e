import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from '../../src/contracts/model.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';

// An ADK server with eval routes over a small clock app: a SQLite store and an eval folder in a temporary directory,
// a scripted model that answers the same way every time, so a session recorded once passes its own evaluation.

export const APP = 'clock';

export function clockRunner(store: SessionStoreWithCallLog) {
  const now = functionTool({
    name: 'now',
    description: 'The time of day.',
    jsonSchema: { type: 'object', properties: {} },
    execute: () => ({ time: '12:00' }),
  });
  const model = createScriptedModel({
    rules: [
      { when: { afterToolResponse: 'now' }, respond: { text: 'It is 12:00.' } },
      { when: { lastUserText: 'time' }, respond: { functionCall: { name: 'now', args: {} } } },
      { when: { lastUserText: 'hello' }, respond: { text: 'Hi there, I tell the time.' } },
    ],
  });
  return createRunner({ agents: llmAgent({ name: APP, tools: [now] }), model, sessions: store });
}

export type EvalServer = {
  url: string;
  /** The eval folder (ADK's agents folder). */
  evalDir: string;
  store: SessionStoreWithCallLog;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }>;
  /** A session of `user` with one turn per message. */
  chat(user: string, sessionId: string, ...messages: string[]): Promise<void>;
  close(): Promise<void>;
};

export async function startEvalServer(options: { evalDir?: boolean; judge?: Model } = {}): Promise<EvalServer> {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-adk-eval-'));
  const store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
  const evalDir = join(dir, 'agents');
  const failures: unknown[] = [];
  const server: AgentctxServer = createAdkServer({
    runners: [clockRunner(store)],
    version: 'test',
    ...(options.evalDir === false ? {} : { evalDir }),
    ...(options.judge === undefined ? {} : { judge: options.judge }),
    onError: (error) => failures.push(error),
  });
  const { url } = await server.listen(0);
  const call: EvalServer['call'] = async (method, path, body) => {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${url}${path}`, {
      method,
      headers: text === undefined ? {} : { 'content-type': 'application/json' },
      ...(text === undefined ? {} : { body: text }),
    });
    const answer = await response.text();
    return { status: response.status, text: answer, json: answer === '' ? undefined : (JSON.parse(answer) as unknown) };
  };
  return {
    url,
    evalDir,
    store,
    call,
    async chat(user, sessionId, ...messages) {
      await call('POST', `/apps/${APP}/users/${user}/sessions/${sessionId}`, {});
      for (const text of messages)
        await call('POST', '/run', {
          appName: APP,
          userId: user,
          sessionId,
          newMessage: { role: 'user', parts: [{ text }] },
        });
    },
    async close() {
      await server.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
      if (failures.length > 0) throw new Error(`the server reported: ${failures.map(String).join('; ')}`);
    },
  };
}
