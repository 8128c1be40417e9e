import type { Tool, Toolset } from '../../src/contracts/tool.js';

// Test fixtures of the tool search tests: a deferred toolset of three GitHub-like tools that echo their arguments.

/** A tool whose string parameters are named, and which answers `{ done: <name>, args }`. */
export function echoTool(name: string, description: string, ...parameters: string[]): Tool {
  const properties = Object.fromEntries(parameters.map((parameter) => [parameter, { type: 'string' }]));
  return { name, description, parameters: { type: 'object', properties }, execute: (args) => ({ done: name, args }) };
}

export const GITHUB_TOOLSET: Toolset = {
  kind: 'toolset',
  name: 'github',
  deferred: true,
  listTools: async () => ({
    tools: [
      echoTool('merge_pull_request', 'Merges a pull request into its base branch.', 'owner', 'repo', 'pull_number'),
      echoTool('create_issue', 'Creates an issue in a repository.', 'owner', 'repo', 'title'),
      echoTool('list_issues', 'Lists the issues of a repository.', 'owner', 'repo', 'state'),
    ],
  }),
};
