import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../test/support/cli.js';
import type { EventsCompactionConfig } from '../contracts/compaction.js';
import type { Event } from '../contracts/event.js';
import type { ProfileName } from '../contracts/profile.js';
import { createAgentTree } from '../engine/agent/agent-tree.js';
import { ExtractiveSummarizer } from '../features/compaction/extractive-summarizer.js';
import { createRunner } from '../presets/create-runner.js';
import { createSqliteSessionStore } from '../stores/sqlite/index.js';
import { loadAgent } from './load-agent.js';
import { resolveModel } from './resolve-model.js';

// `agentctx compact --dry-run` plans what the runner's compaction plugin plans: a runner compacts a live session; the
// history it held when it did, stored as another session (or written into a case file), is planned by the CLI, which
// must name the same events and time range.

const INSTRUCTION =
  'You answer questions about the opening hours, the returns policy and the delivery times of a small shop. '.repeat(4);
// The third question is billed above the token threshold the tests set, the others below it.
const WITH_USAGE = `rules:
  - when: { lastUserText: socks }
    respond: { text: Within 30 days., usage: { promptTokens: 120, outputTokens: 4 } }
fallback:
  text: Noted, thank you.
  usage: { promptTokens: 50, outputTokens: 4 }
`;
const WITHOUT_USAGE = 'rules: []\nfallback:\n  text: Noted, thank you.\n';
const MESSAGES = [
  'When do you open?',
  'And on Sundays?',
  'Can I return socks?',
  'How long does delivery take?',
  'Thanks!',
];

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-compact-as-runner-'));
  await writeFile(join(dir, 'agent.yaml'), 'name: shop\ninstruction: Answer briefly.\n');
  await writeFile(join(dir, 'long-agent.yaml'), `name: shop\ninstruction: ${JSON.stringify(INSTRUCTION)}\n`);
  await writeFile(join(dir, 'with-usage.yaml'), WITH_USAGE);
  await writeFile(join(dir, 'without-usage.yaml'), WITHOUT_USAGE);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

type Planned = { startTimestamp: number; endTimestamp: number; eventIds: string[] };

/** Runs turns until the runner stores its first compaction; returns the history before it, and what it summarized. */
async function runnerCompaction(
  agent: string,
  db: string,
  script: string,
  profile: ProfileName,
  config: EventsCompactionConfig,
): Promise<{ history: Event[]; made: Planned; afterInvocation: boolean }> {
  const sessions = createSqliteSessionStore({ path: join(dir, db) });
  try {
    const runner = createRunner({
      agents: createAgentTree(await loadAgent(agent, dir)),
      sessions,
      model: await resolveModel(`scripted:${script}`, dir, {}),
      profile,
      eventsCompactionConfig: { ...config, summarizer: new ExtractiveSummarizer() },
    });
    const key = { appName: runner.appName, userId: 'user', sessionId: 'live' };
    await runner.createSession(key);
    for (const message of MESSAGES) {
      for await (const _ of runner.run({ ...key, message }));
      const events = (await sessions.getSession(key))?.events ?? [];
      const at = events.findIndex((event) => event.actions.compaction !== undefined);
      if (at === -1) continue;
      const {
        startTimestamp,
        endTimestamp,
        eventIds = [],
      } = events[at]?.actions.compaction ?? { startTimestamp: 0, endTimestamp: 0 };
      const history = events.slice(0, at);
      // The same history as a session of its own, for `compact --session` to read.
      const copy = await sessions.createSession({ ...key, sessionId: 'before' });
      for (const event of history) await sessions.appendEvent({ session: copy, event });
      return {
        history,
        made: { startTimestamp, endTimestamp, eventIds: [...eventIds] },
        afterInvocation: at === events.length - 1,
      };
    }
    throw new Error('the runner never compacted');
  } finally {
    await sessions.close();
  }
}

async function dryRun(args: string[]): Promise<Planned[]> {
  const result = await cli(['compact', ...args, '--dry-run', '--json'], { cwd: dir });
  expect(result.stderr).toBe('');
  return (JSON.parse(result.stdout) as { compactions: Planned[] }).compactions.map(
    ({ startTimestamp, endTimestamp, eventIds }) => ({ startTimestamp, endTimestamp, eventIds }),
  );
}

describe('compact --dry-run plans what the runner plans', () => {
  // Each compacts after an invocation, summarizing four events. ADK's estimate (characters / 4) first reaches 24 when
  // the third turn has finished, before any call's measure (its conversation up to the new question) does.
  const afterInvocation: [string, string, ProfileName, EventsCompactionConfig, string[]][] = [
    [
      'the sliding window',
      'with-usage.yaml',
      'agentctx',
      { compactionInterval: 2, overlapSize: 0 },
      ['--interval', '2', '--overlap', '0'],
    ],
    [
      'the sliding window, ADK profile',
      'with-usage.yaml',
      'adk',
      { compactionInterval: 2, overlapSize: 1 },
      ['--interval', '2', '--overlap', '1', '--adk'],
    ],
    [
      'the token threshold on the billed prompt',
      'with-usage.yaml',
      'agentctx',
      { tokenThreshold: 100, eventRetentionSize: 2 },
      ['--threshold', '100', '--retention', '2'],
    ],
    [
      'the token threshold on ADK’s estimate',
      'without-usage.yaml',
      'adk',
      { tokenThreshold: 24, eventRetentionSize: 2 },
      ['--threshold', '24', '--retention', '2', '--adk'],
    ],
  ];
  it.each(afterInvocation)('a stored session, after an invocation: %s', async (_, script, profile, config, flags) => {
    const db = `${profile}-${Object.keys(config).join('-')}.db`;
    const { made, afterInvocation: after } = await runnerCompaction('agent.yaml', db, script, profile, config);
    expect({ after, summarized: made.eventIds.length }).toEqual({ after: true, summarized: 4 });
    expect(await dryRun(['agent.yaml', '--session', 'before', '--store', db, ...flags])).toEqual([made]);
  });

  it("a case file, before a model call: the request's local count reaches the threshold, the running turn's message stays", async () => {
    // The instruction makes the request large while the conversation stays small, so only the before-call measure fires.
    const config = { tokenThreshold: 60, eventRetentionSize: 0 };
    const {
      history,
      made,
      afterInvocation: after,
    } = await runnerCompaction('long-agent.yaml', 'before-call.db', 'without-usage.yaml', 'agentctx', config);
    expect({ after, summarized: made.eventIds.length, last: history.at(-1)?.author }).toEqual({
      after: false,
      summarized: 2,
      last: 'user',
    });
    await writeFile(
      join(dir, 'case.json'),
      JSON.stringify({ agent: 'long-agent.yaml', events: history, eventsCompactionConfig: config }),
    );
    expect(await dryRun(['case.json'])).toEqual([made]);
  });
});
