import { isAdkSpelled } from '../presets/adk-spelling.js';

// What ADK's own loader refuses in an agent file that agentctx reads: said by `check`, so a file meant for ADK as well
// is fixed before ADK refuses it. Only files written in ADK's spelling (snake_case keys) are judged: agentctx's own
// format has inline sub-agents on purpose.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parts of an agent document ADK 2.5.0's `from_config` would refuse, each as one sentence. */
export function adkRefusals(document: unknown, path = ''): string[] {
  if (!isRecord(document)) return [];
  const found: string[] = [];
  const adkSpelled = isAdkSpelled(document);
  // ADK's config models refuse fields they do not have; the profile a tree runs under is agentctx's alone.
  if (adkSpelled && path === '' && Object.hasOwn(document, 'profile'))
    found.push(
      'profile: ADK refuses fields it does not have, and this one is agentctx\u2019s; name the profile in a case file or with --profile instead',
    );
  if (adkSpelled && Object.hasOwn(document, 'planner'))
    found.push(
      `${path}planner: ADK 2.5.0 sets a planner in Python only, and refuses the field; it is agentctx\u2019s here`,
    );
  const subAgents = document['sub_agents'];
  if (adkSpelled && Array.isArray(subAgents)) {
    subAgents.forEach((entry, index) => {
      const at = `${path}sub_agents[${index}]`;
      if (isRecord(entry) && !Object.hasOwn(entry, 'config_path') && !Object.hasOwn(entry, 'code'))
        found.push(
          `${at}: ADK takes a sub-agent as { config_path } or { code } only, and refuses one written inline; move it to a file of its own`,
        );
    });
  }
  return found;
}
