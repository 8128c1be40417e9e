import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { CACHED, writeCacheSession } from '../support/cache-session.js';
import { agentctx, expectOneLineError } from '../support/cli.js';

// The session of test/support/cache-session.ts, recorded in SQLite: calls miss the prompt cache for three named
// reasons (a placeholder's value, a page in the system text, tools reordered); call 5 keeps the prefix.

let dir = '';
let store = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-inspect-cache-'));
  store = join(dir, 'agentctx.db');
  const sessions = createSqliteSessionStore({ path: store });
  await writeCacheSession(sessions);
  await sessions.close();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const session = () => [
  '--app',
  CACHED.appName,
  '--user',
  CACHED.userId,
  '--session',
  CACHED.sessionId,
  '--store',
  store,
];

type Report = {
  sessionId: string;
  tokenizer: string;
  calls: {
    index: number;
    agent: string;
    stablePrefixTokens: number;
    explanation?: {
      previous: number;
      kept: boolean;
      tokens: { kept: number; rebilled: number; prefix: number };
      difference?: { location: { where: string }; cause: { kind: string; text: string } };
    };
  }[];
  totals: { calls: number; first: number; kept: number; changed: number; rebilledTokens: number };
};

describe('agentctx inspect --cache', () => {
  it('names the source of each cache miss in --json', async () => {
    const result = await agentctx('inspect', ...session(), '--cache', '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report).toMatchObject({ sessionId: CACHED.sessionId, tokenizer: 'o200k_base' });
    const lines = report.calls.map((call) => [
      call.index,
      call.explanation?.previous,
      call.explanation?.difference?.location.where,
      call.explanation?.difference?.cause.kind,
      call.explanation?.difference?.cause.text,
    ]);
    expect(lines).toEqual([
      [1, undefined, undefined, undefined, undefined],
      [2, 1, 'system', 'substitution-changed', 'instruction: {current_time} changed'],
      [3, 2, 'system', 'page-added', 'page added: paging:items'],
      [4, 3, 'tools', 'tools-reordered', 'tools reordered'],
      [5, 4, undefined, undefined, undefined],
    ]);
    expect(report.calls[4]?.explanation).toMatchObject({ kept: true, tokens: { rebilled: 0 } });
    for (const call of report.calls.slice(1, 4)) expect(call.explanation?.tokens.rebilled).toBeGreaterThan(0);
    // A reordering re-bills all of the previous prefix: the tools come first.
    expect(report.calls[3]?.explanation?.tokens).toMatchObject({
      kept: 0,
      rebilled: report.calls[3]?.explanation?.tokens.prefix,
    });
    expect(report.totals).toMatchObject({ calls: 5, first: 1, kept: 1, changed: 3 });
  });

  it('prints one line per call and a summary', async () => {
    const result = await agentctx('inspect', ...session(), '--cache');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/#1 {2}analyst {2}first call · stable prefix \d+ tokens/);
    expect(result.stdout).toMatch(
      /#2 {2}analyst {2}prefix changed at system \(instruction: \{current_time\} changed\) {2}[\d,]+ kept · [\d,]+ tokens re-billed/,
    );
    expect(result.stdout).toMatch(/#3 {2}analyst {2}prefix changed at system \(page added: paging:items\)/);
    expect(result.stdout).toMatch(/#4 {2}analyst {2}prefix changed at tools \(tools reordered\) {2}0 kept/);
    expect(result.stdout).toMatch(/#5 {2}analyst {2}prefix kept {2}[\d,]+ tokens/);
    expect(result.stdout).toMatch(
      /5 calls: 1 kept the prefix, 3 changed it, 1 first of its agent · [\d,]+ tokens from the cache, [\d,]+ re-billed/,
    );
  });

  it('explains one call with both sides of the difference', async () => {
    const result = await agentctx('inspect', ...session(), '--call', '2', '--cache');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Call 2 of session ${CACHED.sessionId}: agent 'analyst', against call 1, its agent's previous call`,
    );
    expect(result.stdout).toMatch(/prefix changed at system @\d+: instruction: \{current_time\} changed/);
    expect(result.stdout).toContain('{current_time} (state key current_time): "09:00" → "09:05"');
    expect(result.stdout).toMatch(/call 1 {2}…?.*The time is 09:0┃0\. Be brief\.↵↵You are an agent/);
    expect(result.stdout).toMatch(/call 2 {2}…?.*The time is 09:0┃5\. Be brief\./);
    const reordered = await agentctx('inspect', ...session(), '--call', '4', '--cache');
    expect(reordered.stdout).toContain(
      'tool order: tick, lookup, get_items, save_result, list_results → lookup, tick, get_items, save_result, list_results',
    );
    const json = JSON.parse(
      (await agentctx('inspect', ...session(), '--call', '3', '--cache', '--json')).stdout,
    ) as Report['calls'][number];
    expect(json).toMatchObject({
      index: 3,
      explanation: { previous: 2, difference: { cause: { kind: 'page-added', currentSource: { kind: 'page' } } } },
    });
    expect((await agentctx('inspect', ...session(), '--call', '1', '--cache')).stdout).toContain(
      'the first call of its agent',
    );
  });

  it('refuses --cache without a session, and with options it does not go with', async () => {
    expectOneLineError(
      await agentctx('inspect', 'examples/coordinator.yaml', '--cache'),
      2,
      /--cache reads a recorded session: add --session <id>\./,
    );
    expectOneLineError(
      await agentctx('inspect', ...session(), '--cache', '--wire'),
      2,
      /--cache does not go with --wire/,
    );
    expectOneLineError(
      await agentctx('inspect', ...session(), '--cache', '--call', '9'),
      2,
      new RegExp(`Session ${CACHED.sessionId} has no call 9; it has 5`),
    );
  });
});
