import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateReports } from '../../examples/report-analyst/reports.js';
import { runAnalysis } from '../../examples/report-analyst/run-analysis.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { ExtractiveSummarizer } from '../../src/features/compaction/extractive-summarizer.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { writeBatchSession } from './batch-session.js';
import { writeCostSessions } from './cost-session.js';
import { writeEditedSession } from './edited-session.js';

export { BATCHES } from './batch-session.js';
export { EDITED } from './edited-session.js';

/** What untrusted data may hold: a script in state, markup with an event handler in the model's answer. */
export const SCRIPT_IN_STATE = '<script>window.__pwned=1</script>';
export const MARKUP_IN_OUTPUT = '<img src=x onerror="window.__pwned=2">';

/**
 * The paged report analyst, shortened to 25 reports (three batches: 12 model calls), paging into the instruction
 * (placement `system`, seed 003's form) so that the current batch is a system block of its own.
 */
export const PAGED: SessionKey = { appName: 'report_analyst', userId: 'analyst', sessionId: 'report-analyst-paged' };
/** Three turns of a notes agent whose state and answers carry markup, compacted after the second. */
export const HOSTILE: SessionKey = { appName: 'notes_app', userId: 'mallory', sessionId: 'hostile' };

export type InspectorFixture = { dir: string; path: string; store: SessionStoreWithCallLog; cleanup(): Promise<void> };

/**
 * A temporary SQLite store holding the sessions: PAGED and HOSTILE below, EDITED (edited-session.ts), BATCHES
 * (batch-session.ts), and PRICED and UNPRICED (cost-session.ts).
 */
export async function createFixtureStore(): Promise<InspectorFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-web-'));
  const path = join(dir, 'agentctx.db');
  const store = createSqliteSessionStore({ path });
  await runAnalysis({ mode: 'paged-system', sessionId: PAGED.sessionId, store, reports: generateReports(25) });
  await writeHostileSession(store);
  await writeEditedSession(store);
  await writeBatchSession(store);
  await writeCostSessions(store);
  return {
    dir,
    path,
    store,
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function writeHostileSession(store: SessionStoreWithCallLog): Promise<void> {
  const agent = llmAgent({
    name: 'notes_agent',
    instruction: 'You keep notes. The latest note: {note}. From the user: {user:signature}',
    outputKey: 'last_answer',
  });
  const model = createScriptedModel(
    { fallback: { text: `Noted. ${MARKUP_IN_OUTPUT}` } },
    { modelId: 'scripted-notes' },
  );
  const runner = createRunner({
    agents: agent,
    appName: HOSTILE.appName,
    sessions: store,
    model,
    eventsCompactionConfig: { compactionInterval: 2, overlapSize: 0, summarizer: new ExtractiveSummarizer() },
  });
  await runner.createSession({
    userId: HOSTILE.userId,
    sessionId: HOSTILE.sessionId,
    state: { note: SCRIPT_IN_STATE, 'user:signature': MARKUP_IN_OUTPUT },
  });
  for (const message of ['first note', `second note ${SCRIPT_IN_STATE}`, 'third note']) {
    for await (const event of runner.run({ userId: HOSTILE.userId, sessionId: HOSTILE.sessionId, message })) void event;
  }
}
