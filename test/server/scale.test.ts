import { describe, expect, it } from 'vitest';
import { runScale } from '../../bench/scale-run.js';
import { skipWithoutPostgres, TEST_POSTGRES_URL } from '../support/postgres.js';

// bench:scale in small: real `agentctx serve` processes on one PostgreSQL database, concurrent clients sharing
// sessions and users, one server killed with SIGKILL mid-run, and the database checked afterwards.
if (TEST_POSTGRES_URL === undefined) skipWithoutPostgres('scale (servers on PostgreSQL)');
else {
  describe('many servers on one PostgreSQL', () => {
    it('loses and duplicates nothing acknowledged, keeps user: counters exact, and survives a SIGKILL', async () => {
      const result = await runScale({ servers: 3, clients: 12, turns: 4, killAt: 0.4, postgres: TEST_POSTGRES_URL });
      expect(result.serverKilled).toBe(true);
      expect(result).toMatchObject({ lostEvents: 0, duplicatedEvents: 0, outOfOrder: 0, counterMismatches: 0 });
      // Turns cut off by the kill are never acknowledged; the rest are.
      expect(result.acknowledgedTurns).toBeGreaterThan(result.plannedTurns / 2);
      expect(result.countedTurns).toBeGreaterThanOrEqual(result.acknowledgedTurns);
      expect(result.acknowledgedByKilled).toBeGreaterThan(0);
    }, 60_000);
  });
}
