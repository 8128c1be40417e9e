// Tool definitions, all in every request or disclosed progressively: an agent with five MCP-sized toolsets (GitHub,
// Slack, Jira, Sentry, Grafana: 152 tools, each server at its published tokens per tool) answers 50 scripted tasks
// that need 1–3 tools each, once with every definition in every request and once with the toolsets deferred behind
// `toolSearch()`, where the scripted model searches with the task's words before calling. Reports prompt tokens and
// definition tokens per call (agentctx's local count of each request as sent), the definitions' share of the prompt,
// and every tool the model called that its request did not offer (a miss).
// Run: npm run bench:tools [-- --json]   (with --json, stdout holds exactly one JSON object; progress goes to stderr)
import { TASKS } from './tools-tasks.js';
import { MODES, runToolsBench } from './tools-run.js';

const json = process.argv.includes('--json');
const tty = process.stderr.isTTY === true;
const steps = MODES.length * TASKS.length;
let done = 0;
const result = await runToolsBench({
  onTask: (mode, task) => {
    done++;
    const width = 30;
    const filled = Math.round((done / steps) * width);
    const line = `tools bench  [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${steps}  ${mode} task ${task.id}`;
    if (tty) process.stderr.write(`\r${line.padEnd(90)}${done === steps ? '\n' : ''}`);
    else if (done % 10 === 0 || done === steps) process.stderr.write(`${line}\n`);
  },
});

if (json) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const number = (value: number) => Math.round(value).toLocaleString('en-US');
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const lines = [
    `tool definitions: ${result.tasks} tasks needing ${result.needs} tool calls, ${result.tools} tools in ${result.toolsets.length} toolsets`,
    '',
  ];
  lines.push('toolset    tools   definition tokens   per tool   published per tool');
  for (const each of result.toolsets) {
    lines.push(
      `${each.name.padEnd(10)} ${String(each.tools).padStart(5)}   ${number(each.definitionTokens).padStart(17)}   ${number(each.tokensPerTool).padStart(8)}   ${number(each.published.tokensPerTool).padStart(18)}${each.published.note === undefined ? '' : `  (${each.published.note})`}`,
    );
  }
  lines.push(
    '',
    'mode        calls   prompt tokens/call   definition tokens/call   definitions in prompt   prompt tokens/task   missed tools',
  );
  lines.push(
    `all tools   ${String(result.allToolsCalls).padStart(5)}   ${number(result.allToolsTokensPerCall).padStart(18)}   ${number(result.allToolsDefinitionTokensPerCall).padStart(22)}   ${percent(result.allToolsDefinitionShare).padStart(21)}   ${number(result.allToolsTokensPerTask).padStart(18)}   ${String(result.missedToolsAllTools).padStart(12)}`,
  );
  lines.push(
    `deferred    ${String(result.deferredCalls).padStart(5)}   ${number(result.deferredTokensPerCall).padStart(18)}   ${number(result.deferredDefinitionTokensPerCall).padStart(22)}   ${percent(result.deferredDefinitionShare).padStart(21)}   ${number(result.deferredTokensPerTask).padStart(18)}   ${String(result.missedTools).padStart(12)}`,
  );
  lines.push('');
  lines.push(
    `deferred definitions per call are ${percent(result.definitionRatio)} of all-tools' (acceptance ≤ 15% with 0 missed tools: ${result.acceptance.pass ? 'pass' : 'FAIL'})`,
  );
  lines.push(
    `search_tools alone: ${number(result.searchToolTokens)} tokens; ${result.searches} searches loaded ${result.loadedPerSearch} tools each on average`,
  );
  lines.push(
    `where the needed tool ranked in its search: ${Object.entries(result.neededToolRank)
      .map(([rank, count]) => `${rank === 'notLoaded' ? 'not loaded' : `#${rank}`} ${count}`)
      .join(', ')}`,
  );
  for (const miss of result.missed) lines.push(`missed: task ${miss.task} called ${miss.tool} before it was loaded`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
