import { expect } from 'vitest';
import { defineRows } from '../reliability/rows.js';
import { inChild } from '../support/in-child.js';

// A script rule's `lastUserMatches` comes from a file, the message it is tried on from a client (`serve --model
// scripted:`). Before: `(a+)+$` against 40 a's and a '!' never returned and blocked the server's event loop, which
// `--model-timeout` cannot interrupt. Run in a child process (inChild), so that such a hang fails this test within
// seconds instead of freezing the suite.

/** In the child: a runner on a scripted model whose one rule matches `pattern`, run on `message`; its last event. */
async function turnOnPattern(
  modules: { runner: string; model: string; agent: string; sessions: string },
  pattern: string,
  message: string,
) {
  const { createRunner } = (await import(modules.runner)) as typeof import('../../src/presets/create-runner.js');
  const { createScriptedModel } = (await import(
    modules.model
  )) as typeof import('../../src/models/scripted/scripted-model.js');
  const { llmAgent } = (await import(modules.agent)) as typeof import('../../src/engine/agent/define-agent.js');
  const { createInMemorySessionStore } = (await import(
    modules.sessions
  )) as typeof import('../../src/engine/session/in-memory-session-store.js');
  const model = createScriptedModel({
    rules: [{ when: { lastUserMatches: pattern }, respond: { text: 'matched' } }],
    fallback: { text: 'no match' },
  });
  const runner = createRunner({
    agents: llmAgent({ name: 'echo', instruction: 'Answer.' }),
    model,
    sessions: createInMemorySessionStore(),
  });
  await runner.createSession({ userId: 'u', sessionId: 's' });
  const started = performance.now();
  let last: { errorCode?: string; errorMessage?: string; content?: unknown } | undefined;
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message })) last = event;
  return {
    ms: performance.now() - started,
    errorCode: last?.errorCode,
    errorMessage: last?.errorMessage,
    content: last?.content,
  };
}

const MODULES = {
  runner: new URL('../../src/presets/create-runner.ts', import.meta.url).href,
  model: new URL('../../src/models/scripted/scripted-model.ts', import.meta.url).href,
  agent: new URL('../../src/engine/agent/define-agent.ts', import.meta.url).href,
  sessions: new URL('../../src/engine/session/in-memory-session-store.ts', import.meta.url).href,
};

export const rows = defineRows(import.meta.url, 'faults', [
  {
    id: 'hang.script-regex',
    entry: 'scripted model',
    tried:
      "a rule with `lastUserMatches: '(a+)+$'` and a client message of 40 a's and a '!' (catastrophic backtracking)",
    expected:
      'the turn ends within the 100 ms match limit (plus start-up) with an error event naming the expression and how to rewrite it; a harmless expression on the same message still matches',
    run: async () => {
      const outcome = await inChild(turnOnPattern, {
        args: [MODULES, '(a+)+$', `${'a'.repeat(40)}!`],
        timeoutMs: 10_000,
      });
      expect(outcome.kind, JSON.stringify(outcome)).toBe('returned');
      if (outcome.kind !== 'returned') return;
      expect(outcome.value.errorMessage).toContain(
        'lastUserMatches "(a+)+$" did not finish within 100 ms on a user message of 41 characters',
      );
      expect(outcome.value.ms).toBeLessThan(5_000);
      const harmless = await inChild(turnOnPattern, {
        args: [MODULES, '^a+!$', `${'a'.repeat(40)}!`],
        timeoutMs: 10_000,
      });
      expect(harmless).toMatchObject({ kind: 'returned', value: { content: { parts: [{ text: 'matched' }] } } });
    },
  },
]);
