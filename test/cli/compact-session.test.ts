import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../src/contracts/event.js';
import { agentctx, agentctxWithInput, expectOneLineError } from '../support/cli.js';

// An agent with a tool and a scripted model named in the agent itself (its summarizer rule answers `--summarizer model`).
const AGENT = 'test/fixtures/support-agent.mjs';
const TURNS = 'Where is my order A-1042?\nCan you hurry it up?\nAnd the socks?\nThanks!\n';
const WINDOW = ['--interval', '2', '--overlap', '0'];

type Compaction = {
  startTimestamp: number;
  endTimestamp: number;
  eventIds: string[];
  trigger: string;
  promptTokens?: number;
  summarizer?: string;
  model?: string;
  compactionEventId?: string;
};

let dir = '';
let store = '';

function storedEvents(sessionId: string): Event[] {
  const db = new Database(store, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT event_json FROM agentctx_events WHERE session_id = ? ORDER BY seq')
      .all(sessionId) as { event_json: string }[];
    return rows.map((row) => JSON.parse(row.event_json) as Event);
  } finally {
    db.close();
  }
}

async function compact(sessionId: string, ...args: string[]): Promise<Compaction[]> {
  const result = await agentctx('compact', AGENT, '--session', sessionId, '--store', store, '--json', ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { compactions: Compaction[] }).compactions;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-compact-session-'));
  store = join(dir, 'sessions.db');
  for (const session of ['s1', 's2']) {
    const run = await agentctxWithInput(TURNS, 'run', AGENT, '--store', store, '--session', session);
    expect(run.code).toBe(0);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx compact <agent-file> --session', () => {
  it('plans against the stored session without writing, by the window or by the latest billed prompt', async () => {
    const events = storedEvents('s1');
    // Four turns: the first calls lookup_order (user, call, response, answer), the others are a message and an answer.
    expect(events).toHaveLength(10);
    const [window] = await compact('s1', '--dry-run', ...WINDOW);
    expect(window).toMatchObject({
      trigger: 'sliding_window',
      eventIds: events.map((event) => event.id),
      startTimestamp: events[0]?.timestamp,
      endTimestamp: events[9]?.timestamp,
    });
    // The script bills 500 prompt tokens for the latest call; the last two events stay raw.
    const [token] = await compact('s1', '--dry-run', '--threshold', '450', '--retention', '2');
    expect(token).toMatchObject({
      trigger: 'token_threshold',
      promptTokens: 500,
      eventIds: events.slice(0, 8).map((event) => event.id),
    });
    expect(await compact('s1', '--dry-run', '--threshold', '600', '--retention', '2')).toEqual([]);
    expect(storedEvents('s1')).toEqual(events);

    const human = await agentctx('compact', AGENT, '--session', 's1', '--store', store, '--dry-run', ...WINDOW);
    expect(human.stdout).toMatch(/^Compaction dry run · session s1 \(app support, user user\)\n/);
    expect(human.stdout).toMatch(/summarizes 10 events · timestamps \d{4}-\d\d-\d\dT[\d:.]+Z – /);
    expect(human.stdout).toMatch(/support +→ lookup_order\(\{"order_id":"A-1042"\}\)/);
    expect(human.stdout).toMatch(/Dry run: nothing was written\./);
  });

  it('compacts for real: appends the compaction event, which later requests show, and nothing is due after', async () => {
    const events = storedEvents('s1');
    const [made] = await compact('s1', ...WINDOW);
    expect(made).toMatchObject({
      trigger: 'sliding_window',
      eventIds: events.map((event) => event.id),
      summarizer: 'extractive',
    });
    const after = storedEvents('s1');
    expect(after).toHaveLength(events.length + 1);
    const stored = after.at(-1);
    expect(stored?.id).toBe(made?.compactionEventId);
    expect(stored?.actions.compaction).toMatchObject({
      startTimestamp: made?.startTimestamp,
      endTimestamp: made?.endTimestamp,
      eventIds: made?.eventIds,
    });
    expect(JSON.stringify(stored?.actions.compaction?.compactedContent)).toContain('lookup_order returned');
    expect(await compact('s1', '--dry-run', ...WINDOW)).toEqual([]);

    // The next turn's request carries the summary in place of the ten events.
    expect((await agentctx('run', AGENT, '--store', store, '--session', 's1', '--message', 'Hello again')).code).toBe(
      0,
    );
    const calls = JSON.parse(
      (await agentctx('inspect', AGENT, '--session', 's1', '--store', store, '--json')).stdout,
    ) as { index: number }[];
    const last = await agentctx(
      'inspect',
      AGENT,
      '--session',
      's1',
      '--store',
      store,
      '--call',
      String(calls.at(-1)?.index),
      '--json',
    );
    const request = JSON.parse(last.stdout) as { messages: { role: string; content: { text?: string }[] }[] };
    expect(request.messages.map((message) => message.content[0]?.text)).toEqual([
      'Summary of the earlier conversation:',
      'Hello again',
    ]);
  });

  it("summarizes with the agent file's model on request, and keeps the summarizer's usage on the event", async () => {
    const [made] = await compact('s2', ...WINDOW, '--summarizer', 'model');
    expect(made).toMatchObject({ summarizer: 'model', model: 'scripted:test/fixtures/support-script.yaml' });
    const stored = storedEvents('s2').at(-1);
    expect(stored?.actions.compaction?.compactedContent.parts).toEqual([
      {
        text: 'Summary: order A-1042 is late with UPS (last scan Memphis); the customer asked to hurry it and about the socks.',
      },
    ]);
    expect(stored?.usage).toMatchObject({ promptTokens: 210, outputTokens: 30 });
    const human = await agentctx('compact', AGENT, '--session', 's2', '--store', store, ...WINDOW);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /Nothing is due now:\n +sliding window: fewer than 2 finished invocations since the last summary\n\nNothing was written\.\n$/,
    );
  });

  it('reports bad input in one line and exits 2', async () => {
    expectOneLineError(
      await agentctx('compact', AGENT, '--session', 's1', '--store', store, '--dry-run'),
      2,
      /No compaction is configured: a stored session takes its settings from the flags\. Pass --interval and --overlap/,
    );
    expectOneLineError(
      await agentctx('compact', AGENT, '--session', 'ghost', '--store', store, '--dry-run', ...WINDOW),
      2,
      /Session ghost of user user in app support is not in the store/,
    );
    expectOneLineError(
      await agentctx('compact', AGENT, '--session', 's1', '--store', store, ...WINDOW, '--summarizer', 'abstractive'),
      2,
      /--summarizer must be extractive or model, got 'abstractive'/,
    );
    expectOneLineError(
      await agentctx('compact', AGENT, '--session', 's1', '--store', store, ...WINDOW, '--model', 'scripted:x.yaml'),
      2,
      /--model goes with --summarizer model/,
    );
    expectOneLineError(
      await agentctx(
        'compact',
        AGENT,
        '--session',
        's1',
        '--store',
        store,
        ...WINDOW,
        '--summarizer',
        'model',
        '--model',
        'mystery-model',
      ),
      2,
      /Cannot use model 'mystery-model'/,
    );
    expectOneLineError(
      await agentctx('compact', '--session', 's1', '--store', store, ...WINDOW),
      2,
      /compact --session needs the agent file that ran the session/,
    );
    expectOneLineError(
      await agentctx('compact', AGENT, '--session', 's1', '--store', store, ...WINDOW, '--agent', 'support'),
      2,
      /--agent is for case files/,
    );
  });
});
