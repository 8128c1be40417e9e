// The definitions of bench:tools, generated deterministically from bench/tools-catalog.ts: each tool gets its summary,
// a line on when to use it, usage notes from its server's pool, worked examples of calls and results, and a JSON
// Schema of its parameters with descriptions, padded until the tool weighs its server's published tokens per tool
// (varied ±30% around it from tool to tool, the toolset's mean staying at the published size).
import type { Tool, Toolset } from 'agentctx';
import type { TokenCounter } from 'agentctx/tokens';
import { SERVERS, type ServerSpec, type ToolSpec } from './tools-catalog.js';

export type BenchToolset = { toolset: Toolset; server: ServerSpec; tools: Tool[]; tokens: number };

const PARAMETER_TEXT: Record<string, string> = {
  owner: 'The account or organization that owns the repository (case-insensitive).',
  repo: 'The name of the repository, without the owner.',
  query: 'The search query, in the search syntax the service documents.',
  per_page: 'Results per page, 1 to 100 (default 30).',
  page: 'The page of results to return, from 1.',
  cursor: 'The pagination cursor a previous call returned, to fetch the next page.',
  limit: 'The most results to return.',
  sort: 'The field to sort the results by.',
  order: 'The sort order: asc or desc.',
  direction: 'The sort direction: asc or desc.',
  state: 'The state to filter by or set.',
  body: 'The text, in Markdown.',
  title: 'The title.',
  channel_id: 'The id of the channel (C…), not its name.',
  issue_key: 'The key of the Jira issue, such as PROJ-123.',
  project_key: 'The key of the Jira project, such as PROJ.',
  organization_slug: 'The slug of the Sentry organization.',
  project_slug: 'The slug of the Sentry project.',
  datasource_uid: 'The uid of the Grafana data source.',
};

const NOTES: Record<string, readonly string[]> = {
  github: [
    'Requires a personal access token with the repo scope for private repositories, and read access for public ones.',
    'Results are paginated: use page and per_page to fetch more, at most 100 items per page.',
    'Rate limits apply: 5,000 requests per hour for an authenticated user; a 403 error with a reset time means the limit was reached.',
    'Dates are ISO 8601 timestamps in UTC, such as 2026-11-03T14:05:00Z.',
    'When the resource does not exist or the token cannot see it, the tool returns a 404 error with a message.',
    'Numbers such as issue_number and pull_number are the numbers shown in the web interface, not internal ids.',
    'The response holds the fields of the GitHub REST API for this resource; large bodies are truncated to 64 KB.',
    'Organization repositories may require single sign-on authorization of the token before they can be read.',
    'Prefer narrow filters over fetching every page: each page is a separate request against the rate limit.',
    'Markdown in bodies is rendered by GitHub; mention users with @login and link issues with #number.',
    'Write operations are recorded in the audit log of the organization under the token owner.',
    'When the repository was renamed or moved, GitHub redirects and the response carries the new full name.',
  ],
  slack: [
    'Requires a bot token with the matching OAuth scopes, such as channels:read, chat:write and users:read.',
    'Channel ids start with C (public), G (private) or D (direct messages); names are not accepted, look the id up first.',
    'Message timestamps (ts) identify messages within a channel and are strings such as 1712345678.123456.',
    'Results are paginated with cursors: pass the next_cursor of the response_metadata to fetch the next page.',
    'Rate limits are per method and per workspace: tier 3 methods allow about 50 requests per minute.',
    'Text supports Slack mrkdwn: *bold*, _italic_, `code`, <https://example.com|links> and <@U123> mentions.',
    'The bot must be a member of a channel to read its history or post in it, except where chat:write.public is granted.',
    'Errors come back as ok: false with an error code such as channel_not_found, not_in_channel or ratelimited.',
    'User ids start with U or W; display names change, ids do not.',
    'Blocks, when given, take precedence over text in clients; text stays the notification fallback.',
    'Times are Unix epoch seconds; the workspace time zone applies to scheduled messages shown to users.',
    'Enterprise Grid workspaces may need a team_id to disambiguate channels shared between workspaces.',
    'Files shared in channels are visible to every member; use a direct message for anything sensitive.',
    'Huge histories are cut at the limit; ask for older messages with latest and oldest bounds.',
  ],
  jira: [
    'Requires an API token or OAuth access with the Browse projects permission, and Edit issues for changes.',
    'Issue keys look like PROJ-123; numeric ids are accepted too.',
    'JQL examples: project = PROJ AND status = "In Progress" ORDER BY priority DESC; assignee = currentUser().',
    'Custom fields are addressed by id, such as customfield_10010; search the fields to find an id by name.',
    'Dates use the format YYYY-MM-DD; date-times are ISO 8601 with an offset.',
    'Descriptions and comments accept Jira wiki markup or Atlassian Document Format, converted from Markdown.',
    'Workflow rules may require fields on transition; the error lists the fields that are missing.',
    'Results are paginated with start_at and limit, at most 50 issues per page.',
    'Users are identified by account id on Jira Cloud and by username on Jira Server and Data Center.',
    'Read-only mode, when the server runs in it, rejects every write with an explanation.',
    'Agile boards, sprints and epics come from Jira Software; they are missing on Jira Work Management projects.',
  ],
  sentry: [
    'Requires a Sentry auth token with the org:read, project:read and event:read scopes.',
    'Organization and project slugs are the short names in Sentry URLs, such as my-org and backend.',
    'Issue ids are either numeric or short ids such as BACKEND-4Z2.',
    'Queries use Sentry search syntax: is:unresolved level:error release:1.2.3 user.email:ada@example.com.',
    'Times are ISO 8601 in UTC; relative periods such as 24h or 14d are accepted where noted.',
    'Stack traces are shown with in-app frames first and source context where available.',
    'Self-hosted Sentry needs its host configured; sentry.io is the default.',
  ],
  grafana: [
    'Requires a Grafana service account token with the Viewer role, or Editor for changes.',
    'Dashboard and alert rule uids are the short ids in Grafana URLs.',
    'Times accept RFC 3339 timestamps or relative expressions such as now-1h.',
    'Queries run on the data source, which applies its own limits and timeouts.',
    'Results are returned as data frames: fields with names, types and values.',
    'Dashboards in folders you cannot see are left out of searches.',
    'Incidents and OnCall need the Grafana IRM plugin enabled on the instance.',
  ],
};

const RESPONSE_FIELDS: Record<string, readonly string[]> = {
  github: ['id', 'number', 'html_url', 'state', 'title', 'user', 'created_at', 'updated_at', 'labels', 'comments'],
  slack: ['ok', 'channel', 'ts', 'user', 'text', 'response_metadata', 'team', 'is_member', 'num_members'],
  jira: ['id', 'key', 'self', 'fields', 'status', 'assignee', 'priority', 'created', 'updated', 'summary'],
  sentry: ['id', 'shortId', 'title', 'culprit', 'level', 'status', 'count', 'userCount', 'firstSeen', 'lastSeen'],
  grafana: ['uid', 'title', 'url', 'folderTitle', 'tags', 'state', 'health', 'lastEvaluation', 'labels'],
};

const VALUES = ['acme', 'web-app', 'platform', 'checkout', 'mobile', 'billing', 'search', 'infra'];

function parameterSchema(server: string, spec: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const item of spec.split(' ').filter((each) => each !== '')) {
    const [rawName = '', type = 's'] = item.split(':');
    const name = rawName.replace('*', '');
    if (rawName.endsWith('*')) required.push(name);
    const description =
      PARAMETER_TEXT[name] ?? `The ${name.replace(/_/g, ' ')}${server === 'github' ? '' : ` (${server})`}.`;
    properties[name] =
      type === 'n'
        ? { type: 'integer', description }
        : type === 'b'
          ? { type: 'boolean', description }
          : type === 'a'
            ? { type: 'array', items: { type: 'string' }, description }
            : { type: 'string', description };
  }
  return { type: 'object', properties, ...(required.length === 0 ? {} : { required }), additionalProperties: false };
}

function exampleArgs(schema: Record<string, unknown>, seed: number): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let index = seed;
  for (const [name, value] of Object.entries(schema['properties'] as Record<string, { type: string }>)) {
    index++;
    args[name] =
      value.type === 'integer'
        ? (index * 37) % 500
        : value.type === 'boolean'
          ? index % 2 === 0
          : value.type === 'array'
            ? [VALUES[index % VALUES.length]]
            : `${VALUES[index % VALUES.length]}-${index}`;
  }
  return args;
}

function exampleResponse(server: string, seed: number): Record<string, unknown> {
  const response: Record<string, unknown> = {};
  (RESPONSE_FIELDS[server] ?? []).forEach((field, index) => {
    response[field] =
      (seed + index) % 3 === 0
        ? (seed * 131 + index * 17) % 10_000
        : `${VALUES[(seed + index) % VALUES.length]}-${(seed * 7 + index) % 100}`;
  });
  return response;
}

const toolText = (tool: { name: string; description: string; parameters?: unknown }): string =>
  `${tool.name}\n${tool.description}\n${tool.parameters === undefined ? '' : JSON.stringify(tool.parameters)}`;

/** One tool's definition, padded to about `target` tokens. */
function generateTool(server: string, spec: ToolSpec, target: number, counter: TokenCounter): Tool {
  const [name, summary, parameters] = spec;
  const schema = parameterSchema(server, parameters);
  const pieces: string[] = [
    summary,
    '',
    `Use it when you need to ${summary.charAt(0).toLowerCase()}${summary.slice(1, -1)}.`,
  ];
  let tokens = counter.count(toolText({ name, description: pieces.join('\n'), parameters: schema }));
  const notes = NOTES[server] ?? [];
  const seed = [...name].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  const add = (piece: string) => {
    pieces.push(piece);
    tokens += counter.count(`\n${piece}`);
  };
  add('\nNotes:');
  for (let index = 0; index < notes.length && tokens < target; index++)
    add(`- ${notes[(seed + index) % notes.length] ?? ''}`);
  for (let example = 1; tokens < target; example++) {
    if (example === 1) add('\nExamples:');
    add(
      `Example ${example}: ${name}(${JSON.stringify(exampleArgs(schema, seed + example))})\nReturns: ${JSON.stringify(exampleResponse(server, seed + example))}`,
    );
  }
  // The pieces were counted one by one; the whole may differ a little: drop pieces while that brings it nearer the target.
  const measure = () => counter.count(toolText({ name, description: pieces.join('\n'), parameters: schema }));
  let actual = measure();
  while (pieces.length > 4 && actual > target) {
    const last = pieces.pop() as string;
    const without = measure();
    if (target - without >= actual - target) {
      pieces.push(last);
      break;
    }
    actual = without;
  }
  if (pieces.at(-1) === '\nExamples:' || pieces.at(-1) === '\nNotes:') pieces.pop();
  return {
    name,
    description: pieces.join('\n'),
    parameters: schema,
    execute: (args: Record<string, unknown>) => ({ ok: true, tool: name, received: Object.keys(args).sort() }),
  };
}

/** The five toolsets, deferred or not; the same definitions every time. */
export function generateToolsets(counter: TokenCounter, deferred: boolean): BenchToolset[] {
  return SERVERS.map((server) => {
    const perTool = server.published.tokens / server.published.tools;
    const raw = server.tools.map((_, index) => [0.7, 0.85, 1, 1.15, 1.3][index % 5] ?? 1);
    const scale = raw.length / raw.reduce((sum, value) => sum + value, 0);
    const tools = server.tools.map((spec, index) =>
      generateTool(server.name, spec, Math.round(perTool * (raw[index] ?? 1) * scale), counter),
    );
    const tokens = tools.reduce((sum, tool) => sum + counter.count(toolText(tool)), 0);
    const toolset: Toolset = { kind: 'toolset', name: server.name, deferred, listTools: async () => ({ tools }) };
    return { toolset, server, tools, tokens };
  });
}
