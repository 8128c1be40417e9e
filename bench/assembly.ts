// Request assembly for a 50-agent tree and a 1,000-event session, against JSON.stringify of the same request.
// Run: npm run bench:assembly [-- --json]
// It imports the built package, as a user would; `npm run bench:assembly` builds first.
import { assembleRequest, createAgentTree, declareTool, llmAgent, type AgentDefinition, type Event } from 'agentctx';
import { requestToJson } from 'agentctx/pipeline';
import { reconcileProvenance } from 'agentctx/unstable';
import { median, time } from './stats.js';

const json = process.argv.includes('--json');

function buildTree(): AgentDefinition {
  const teams: AgentDefinition[] = [];
  for (let team = 0; team < 7; team++) {
    const members: AgentDefinition[] = [];
    for (let member = 0; member < 6; member++) {
      members.push(
        llmAgent({
          name: `agent_${team}_${member}`,
          description: `Handles task family ${team}.${member}: lookups, summaries and follow-ups.`,
          instruction: `Work on {topic} for {user:name}. Member ${member} of team ${team}.`,
        }),
      );
    }
    teams.push(
      llmAgent({
        name: `team_${team}`,
        description: `Team ${team} coordinator for its six specialists.`,
        instruction: 'Route within the team. Current topic: {topic}. Plan: {app:plan?}',
        subAgents: members,
        tools: [
          declareTool({
            name: `team_${team}_search`,
            description: 'Search the team knowledge base.',
            parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
          }),
        ],
      }),
    );
  }
  return llmAgent({
    name: 'root',
    description: 'Routes every request.',
    instruction: 'You coordinate seven teams. {user:name} asks about {topic}.',
    globalInstruction: 'Be concise.',
    subAgents: teams,
  });
}

function buildEvents(count: number): Event[] {
  const events: Event[] = [];
  const agents = ['team_3', 'agent_3_2', 'team_1'];
  for (let i = 0; events.length < count; i++) {
    const invocationId = `inv-${i}`;
    const author = agents[i % agents.length] as string;
    const at = (n: number) => 1_700_000_000 + events.length + n / 10;
    events.push({
      id: `u${i}`,
      invocationId,
      author: 'user',
      timestamp: at(0),
      content: {
        role: 'user',
        parts: [{ text: `Question ${i}: what changed in report ${i % 17} since last week, and why does it matter?` }],
      },
      actions: { stateDelta: {}, artifactDelta: {} },
    });
    events.push({
      id: `c${i}`,
      invocationId,
      author,
      timestamp: at(1),
      content: {
        role: 'model',
        parts: [
          { functionCall: { id: `call-${i}`, name: 'team_3_search', args: { query: `report ${i % 17} changes` } } },
        ],
      },
      actions: { stateDelta: {}, artifactDelta: {} },
    });
    events.push({
      id: `r${i}`,
      invocationId,
      author,
      timestamp: at(2),
      content: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: `call-${i}`,
              name: 'team_3_search',
              response: { results: [`Report ${i % 17}: revenue up ${i % 9}%`, 'Costs flat', 'Headcount +2'] },
            },
          },
        ],
      },
      actions: { stateDelta: { [`seen_${i % 5}`]: true }, artifactDelta: {} },
    });
    events.push({
      id: `a${i}`,
      invocationId,
      author,
      timestamp: at(3),
      content: {
        role: 'model',
        parts: [
          {
            text: `Report ${i % 17} shows revenue up ${i % 9}% with flat costs; the change matters because margins improve.`,
          },
        ],
      },
      actions: { stateDelta: {}, artifactDelta: {} },
    });
  }
  return events.slice(0, count);
}

const tree = createAgentTree(buildTree());
const events = buildEvents(1000);
const options = {
  agents: tree,
  agentName: 'team_3',
  events,
  state: { topic: 'quarterly reports', 'user:name': 'Ada', 'app:plan': 'team' },
};
const { request, provenance } = await assembleRequest(options);
const assembleMs = median(await time(() => assembleRequest(options), 200));
const stringifyMs = median(await time(() => JSON.stringify(requestToJson(request)), 200));
// What the runner does after a beforeModel hook edits the request: a name replaced in the system text and one message
// removed, attributed to the hook by a diff against the assembled request.
const edited = structuredClone(request);
edited.system = edited.system.replace('Ada', 'Bob');
edited.messages.splice(Math.floor(edited.messages.length / 2), 1);
const hook = {
  kind: 'callback' as const,
  processor: 'beforeModel',
  agent: 'team_3',
  field: 'callbacks.beforeModel',
  note: 'beforeModel callback',
};
const reconcileMs = median(await time(() => reconcileProvenance(request, provenance, edited, hook), 200));
const result = {
  agents: tree.nodes.length,
  events: events.length,
  messages: request.messages.length,
  requestBytes: JSON.stringify(request).length,
  assembleMs: Number(assembleMs.toFixed(3)),
  stringifyMs: Number(stringifyMs.toFixed(3)),
  ratio: Number((assembleMs / stringifyMs).toFixed(2)),
  reconcileMs: Number(reconcileMs.toFixed(3)),
  reconcileRatio: Number((reconcileMs / stringifyMs).toFixed(2)),
};
if (json) {
  console.log(JSON.stringify(result));
} else {
  console.log(
    `request assembly: ${result.agents} agents, ${result.events} events → ${result.messages} messages, ${(result.requestBytes / 1024).toFixed(0)} KiB`,
  );
  console.log(`  assembleRequest  median ${result.assembleMs} ms`);
  console.log(`  JSON.stringify   median ${result.stringifyMs} ms (same request, same run)`);
  console.log(`  ratio            ${result.ratio} (target ≤ 3)`);
  console.log(
    `  reconcile after a hook's edit  median ${result.reconcileMs} ms (${result.reconcileRatio}× JSON.stringify; target ≤ 10)`,
  );
}
