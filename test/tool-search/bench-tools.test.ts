import { describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { SEARCH_TOOLS, toolSearch } from '../../src/tools.js';
import { generateToolsets } from '../../bench/tools-generate.js';
import { runToolsBench } from '../../bench/tools-run.js';
import { TASKS } from '../../bench/tools-tasks.js';

// `npm run bench:tools`, kept short: its toolsets at their published sizes, every task's search, and both runs over a
// few tasks (the runs import the built package: build first).
describe('bench:tools', () => {
  it('generates 152 tools at each server’s published tokens per tool, and 50 tasks needing 1–3 of them', async () => {
    const toolsets = generateToolsets(await loadTokenCounter(), false);
    expect(toolsets.reduce((sum, each) => sum + each.tools.length, 0)).toBeGreaterThanOrEqual(150);
    for (const each of toolsets) {
      const published = each.server.published.tokens / each.server.published.tools;
      expect(Math.abs(each.tokens / each.tools.length - published) / published, each.server.name).toBeLessThan(0.05);
    }
    expect(TASKS).toHaveLength(50);
    for (const task of TASKS) {
      expect(task.needs.length).toBeGreaterThanOrEqual(1);
      expect(task.needs.length).toBeLessThanOrEqual(3);
      for (const need of task.needs) expect(task.text).toContain(need.words);
    }
  });

  it("every task's words find the tool it needs within the 5 a search loads", { timeout: 60_000 }, async () => {
    const toolsets = generateToolsets(await loadTokenCounter(), true);
    const assembled = await assembleRequest({
      agents: llmAgent({
        name: 'assistant',
        toolsets: toolsets.map((each) => each.toolset),
        extensions: [toolSearch()],
      }),
    });
    const search = assembled.tools.find((entry) => entry.declaration.name === SEARCH_TOOLS)?.tool;
    const missed: string[] = [];
    for (const task of TASKS) {
      for (const need of task.needs) {
        const result = (await search?.execute?.({ query: need.words }, {} as never)) as { loaded: string[] };
        if (!result.loaded.includes(need.tool))
          missed.push(`${task.id}: ${need.tool} for ${JSON.stringify(need.words)} (found ${result.loaded.join(', ')})`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('runs both modes: deferred definitions per call ≤ 15% of all-tools, no tool called before it was offered', {
    timeout: 120_000,
  }, async () => {
    const result = await runToolsBench({ tasks: TASKS.slice(0, 8) });
    expect(result).toMatchObject({ tasks: 8, missedTools: 0, missedToolsAllTools: 0, allToolsCalls: 16 });
    expect(result.deferredCalls).toBe(24);
    expect(result.definitionRatio).toBeLessThanOrEqual(0.15);
    expect(result.deferredTokensPerCall).toBeLessThan(result.allToolsTokensPerCall);
    expect(Object.keys(result)).toEqual(
      expect.arrayContaining(['allToolsTokensPerCall', 'deferredTokensPerCall', 'tasks', 'missedTools']),
    );
  });
});
