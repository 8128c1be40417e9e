import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctx, expectOneLineError, repositoryRoot } from '../support/cli.js';

const LONG_CHAT = 'examples/compaction/long-chat.yaml';
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => `e${from + index}`);

type Compaction = {
  startTimestamp: number;
  endTimestamp: number;
  eventIds: string[];
  trigger: string;
  eventCount: number;
  promptTokens?: number;
  tokensBefore: number;
  tokensAfter: number;
};

async function dryRun(...args: string[]): Promise<Compaction[]> {
  const result = await agentctx('compact', ...args, '--dry-run', '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const output = JSON.parse(result.stdout) as { compactions: Compaction[] };
  expect(Object.keys(output)).toEqual(['compactions']);
  return output.compactions;
}

let dir = '';

// A summary of e1 and e2 ends at timestamp 2, which e3 shares: agentctx knows by the summary's list that e3 is not in
// it; ADK compares timestamps, takes e3 for summarized, and leaves it out of the next summary.
const EQUAL_TIMESTAMPS = `
agent: { name: helper, instruction: Answer briefly. }
events:
  - { id: e1, invocationId: inv-1, timestamp: 1, author: user, content: { role: user, parts: [{ text: What time does the shop open? }] } }
  - { id: e2, invocationId: inv-1, timestamp: 2, author: helper, content: { role: model, parts: [{ text: At nine. }] } }
  - { id: e3, invocationId: inv-2, timestamp: 2, author: user, content: { role: user, parts: [{ text: And on Sundays? }] } }
  - id: c1
    timestamp: 3
    author: user
    actions: { compaction: { startTimestamp: 1, endTimestamp: 2, eventIds: [e1, e2], compactedContent: { role: model, parts: [{ text: "The shop opens at nine." }] } } }
  - { id: e4, invocationId: inv-2, timestamp: 4, author: helper, content: { role: model, parts: [{ text: Closed on Sundays. }] } }
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-compact-'));
  const write = (name: string, text: string) => writeFile(join(dir, name), text);
  await write('equal-timestamps.yaml', EQUAL_TIMESTAMPS);
  await write('equal-timestamps-adk.yaml', `${EQUAL_TIMESTAMPS}adkCompatibility: true\n`);
  await write(
    'zero-interval.yaml',
    'agent: { name: a }\neventsCompactionConfig: { compactionInterval: 0, overlapSize: 1 }\n',
  );
  await write('snake.yaml', 'agent: { name: a }\neventsCompactionConfig: { token_threshold: 1000 }\n');
  await write(
    'with-summarizer.yaml',
    'agent: { name: a }\neventsCompactionConfig: { compactionInterval: 2, overlapSize: 0, summarizer: llm }\n',
  );
  await write(
    'window-only.yaml',
    'agent: { name: a }\neventsCompactionConfig: { compactionInterval: 2, overlapSize: 0 }\n',
  );
  await write('bad-adk.yaml', 'agent: { name: a }\nadkCompatibility: yes please\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx compact <case-file> --dry-run', () => {
  it("prints exactly { compactions: [ { startTimestamp, endTimestamp, eventIds, … } ] } for the file's sliding window, and writes nothing", async () => {
    const before = await readFile(join(repositoryRoot, LONG_CHAT), 'utf8');
    const [compaction, ...more] = await dryRun(LONG_CHAT);
    expect(more).toEqual([]);
    expect(Object.keys(compaction ?? {}).slice(0, 3)).toEqual(['startTimestamp', 'endTimestamp', 'eventIds']);
    // Nine turns have finished; the tenth (e23, the customer's question) is still running, so the window stops before it.
    expect(compaction).toMatchObject({
      startTimestamp: 1,
      endTimestamp: 22,
      eventIds: ids(1, 22),
      trigger: 'sliding_window',
      eventCount: 22,
    });
    expect(await readFile(join(repositoryRoot, LONG_CHAT), 'utf8')).toBe(before);
  });

  it('shows a person the trigger, the range and a line per summarized event, and says how the after-estimate was made', async () => {
    const result = await agentctx('compact', LONG_CHAT, '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Compaction dry run · examples\/compaction\/long-chat\.yaml · agent 'support_agent'\n/,
    );
    expect(result.stdout).toMatch(/sliding window:\s+every 4 invocations, reaching 1 back/);
    expect(result.stdout).toMatch(/Due now: sliding_window/);
    expect(result.stdout).toMatch(/summarizes 22 events · timestamps 1 – 22/);
    expect(result.stdout).toMatch(/^ +e2 +support_agent +→ lookup_order\(\{"order_id":"A-1042"\}\)$/m);
    expect(result.stdout).toMatch(/^ +e13 +user +What's the return address\? I don't have a printer at home\.$/m);
    expect(result.stdout).not.toMatch(/^ +e23 /m);
    expect(result.stdout).toMatch(/Tokens of the request for 'support_agent' \(local o200k count\): (\d+) → (\d+)/);
    expect(result.stdout).toMatch(/the after-estimate uses the extractive summary/);
    expect(result.stdout).toMatch(/Dry run: nothing was written\./);
  });

  it('lets the token trigger win when the prompt reaches the threshold, never splitting a call from its response', async () => {
    // Keeping the last 13 events would cut between start_return's call (e10) and its response (e11): the call stays too.
    const [compaction] = await dryRun(LONG_CHAT, '--threshold', '800', '--retention', '13');
    expect(compaction).toMatchObject({
      startTimestamp: 1,
      endTimestamp: 9,
      eventIds: ids(1, 9),
      trigger: 'token_threshold',
      eventCount: 9,
    });
    expect(compaction?.promptTokens).toBeGreaterThanOrEqual(800);
    expect(compaction?.tokensAfter).toBeLessThan(compaction?.tokensBefore ?? 0);
    for (const [call, response] of [
      ['e2', 'e3'],
      ['e10', 'e11'],
    ]) {
      expect(compaction?.eventIds.includes(call as string)).toBe(compaction?.eventIds.includes(response as string));
    }
  });

  it("never summarizes the running turn's user message, unless ADK's rules are asked for", async () => {
    const [agentctxRules] = await dryRun(LONG_CHAT, '--threshold', '300', '--retention', '0');
    expect(agentctxRules?.eventIds).toEqual(ids(1, 22));
    const [adkRules] = await dryRun(LONG_CHAT, '--threshold', '300', '--retention', '0', '--adk');
    expect(adkRules?.eventIds).toEqual(ids(1, 23));
  });

  it('reports nothing due below the threshold, with the reason', async () => {
    expect(await dryRun(join(dir, 'window-only.yaml'))).toEqual([]);
    const result = await agentctx(
      'compact',
      LONG_CHAT,
      '--dry-run',
      '--threshold',
      '100000',
      '--retention',
      '2',
      '--interval',
      '20',
    );
    expect(result.stdout).toMatch(
      /Nothing is due now:\n +token threshold: the prompt \(\d+ tokens\) is below 100000\n +sliding window: fewer than 20 finished invocations since the last summary/,
    );
  });

  it('places a previous summary by the events it lists (agentctx) or by its end time (--adk, which drops an event sharing it)', async () => {
    const [exact] = await dryRun(join(dir, 'equal-timestamps.yaml'), '--threshold', '1', '--retention', '0');
    expect(exact).toMatchObject({ startTimestamp: 1, endTimestamp: 4, eventIds: ['e1', 'e2', 'e3', 'e4'] });
    const [adk] = await dryRun(join(dir, 'equal-timestamps.yaml'), '--threshold', '1', '--retention', '0', '--adk');
    expect(adk).toMatchObject({ startTimestamp: 1, endTimestamp: 4, eventIds: ['e1', 'e2', 'e4'] });
    const [fromFile] = await dryRun(join(dir, 'equal-timestamps-adk.yaml'), '--threshold', '1', '--retention', '0');
    expect(fromFile?.eventIds).toEqual(['e1', 'e2', 'e4']);
  });

  it('reports bad input in one line and exits 2', async () => {
    expectOneLineError(
      await agentctx('compact', 'examples/coordinator.yaml', '--dry-run'),
      2,
      /^error: No compaction is configured: examples\/coordinator\.yaml has no eventsCompactionConfig\. Pass --interval and --overlap/,
    );
    expectOneLineError(
      await agentctx('compact', join(dir, 'zero-interval.yaml'), '--dry-run'),
      2,
      /eventsCompactionConfig\.compactionInterval: must be at least 1, got 0/,
    );
    expectOneLineError(
      await agentctx('compact', join(dir, 'snake.yaml'), '--dry-run'),
      2,
      /eventsCompactionConfig\.event_retention_size: token_threshold and event_retention_size must be set together/,
    );
    expectOneLineError(
      await agentctx('compact', join(dir, 'with-summarizer.yaml'), '--dry-run'),
      2,
      /eventsCompactionConfig\.summarizer: cannot be set in a file/,
    );
    expectOneLineError(
      await agentctx('compact', join(dir, 'bad-adk.yaml'), '--dry-run'),
      2,
      /adkCompatibility: expected true or false/,
    );
    expectOneLineError(
      await agentctx('compact', join(dir, 'window-only.yaml'), '--dry-run', '--threshold', '500'),
      2,
      /eventRetentionSize: tokenThreshold and eventRetentionSize must be set together\. \(--interval sets compactionInterval.*--threshold tokenThreshold/,
    );
    expectOneLineError(await agentctx('compact', LONG_CHAT), 2, /^error: Case files are only planned: add --dry-run/);
    expectOneLineError(
      await agentctx('compact', LONG_CHAT, '--dry-run', '--interval', 'four'),
      2,
      /--interval must be a whole number, got 'four'/,
    );
    expectOneLineError(
      await agentctx('compact', LONG_CHAT, '--dry-run', '--summarizer', 'model'),
      2,
      /a dry run always estimates with the extractive summary/,
    );
    expectOneLineError(
      await agentctx('compact', LONG_CHAT, '--dry-run', '--store', 'x.db'),
      2,
      /--app, --user and --store go with --session/,
    );
    expectOneLineError(
      await agentctx('compact', '--dry-run'),
      2,
      /compact needs a case file, or an agent file with --session/,
    );
    expectOneLineError(
      await agentctx('compact', LONG_CHAT, '--dry-run', '--frobnicate'),
      2,
      /Unknown option '--frobnicate'/,
    );
  });

  it('teaches compaction in its help, and is listed in the command list', async () => {
    const help = await agentctx('compact', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/sliding window/);
    expect(help.stdout).toMatch(/token threshold/);
    expect(help.stdout).toMatch(/agentctx compact examples\/compaction\/long-chat\.yaml --dry-run/);
    expect((await agentctx('--help')).stdout).toMatch(/^ +compact +show what compaction would summarize now/m);
    expect((await agentctx('help', 'compact')).stdout).toBe(help.stdout);
  });
});

describe('case files with compaction settings in agentctx inspect', () => {
  it('reads eventsCompactionConfig, and shows summaries by ADK rules (a model turn, retold) when adkCompatibility is true', async () => {
    expect((await agentctx('inspect', LONG_CHAT)).code).toBe(0);
    type Request = { messages: { role: string; content: { text?: string }[] }[] };
    const exact = JSON.parse(
      (await agentctx('inspect', join(dir, 'equal-timestamps.yaml'), '--json')).stdout,
    ) as Request;
    expect(exact.messages[0]).toMatchObject({
      role: 'user',
      content: [{ text: 'Summary of the earlier conversation:' }, { text: 'The shop opens at nine.' }],
    });
    const adk = JSON.parse(
      (await agentctx('inspect', join(dir, 'equal-timestamps-adk.yaml'), '--json')).stdout,
    ) as Request;
    expect(adk.messages[0]).toMatchObject({
      role: 'user',
      content: [{ text: 'For context:' }, { text: '[model] said: The shop opens at nine.' }],
    });
  });
});
