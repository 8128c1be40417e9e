import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-list.js';

describe('the command list', () => {
  it('loads, for each name it lists, the command of that name, with help that starts with its usage', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.help).toContain(`agentctx ${entry.name}`);
    }
  });

  it('lists each command once', () => {
    const names = COMMANDS.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
