// The tools of bench:tools: five MCP servers' worth, named and summarized as the real servers name them (GitHub's
// github-mcp-server, the Slack reference server, an Atlassian Jira server, Sentry's and Grafana's), with their
// parameters. bench/tools-generate.ts pads each definition to its server's published tokens per tool.
// A parameter spec is space-separated `name[*][:type]`: `*` required; type s (string, the default), n (integer),
// b (boolean), a (array of strings).

export type ToolSpec = readonly [name: string, summary: string, parameters: string];

/** One server: its name, the published size of its tool definitions, and its tools (already scaled, see SCALE). */
export type ServerSpec = {
  readonly name: string;
  /** What the published measurement counted: tools and tokens of definitions. */
  readonly published: { readonly tools: number; readonly tokens: number; readonly note?: string };
  readonly tools: readonly ToolSpec[];
};

/** The published counts are scaled by this, so the five servers offer ≥ 150 tools at their published tokens per tool. */
export const SCALE = 2;

const GITHUB: ToolSpec[] = [
  ['get_me', 'Get details of the authenticated GitHub user.', ''],
  ['search_users', 'Search for GitHub users by name, location or followers.', 'query* sort order per_page:n page:n'],
  ['search_orgs', 'Search for GitHub organizations by name or location.', 'query* sort order per_page:n'],
  ['list_org_teams', 'List the teams of an organization.', 'org* per_page:n page:n'],
  ['get_team_members', 'Get the member usernames of a team in an organization.', 'org* team_slug*'],
  [
    'search_repositories',
    'Search for GitHub repositories by name, topic, language or stars.',
    'query* sort order per_page:n page:n',
  ],
  [
    'create_repository',
    'Create a new GitHub repository in your account or an organization.',
    'name* description private:b auto_init:b organization',
  ],
  ['fork_repository', 'Fork a GitHub repository to your account or an organization.', 'owner* repo* organization'],
  ['get_repository', 'Get details of a repository: default branch, visibility, topics and counts.', 'owner* repo*'],
  [
    'list_repository_collaborators',
    'List the collaborators of a repository and their permissions.',
    'owner* repo* affiliation per_page:n',
  ],
  ['get_file_contents', 'Get the contents of a file or directory from a repository.', 'owner* repo* path* ref sha'],
  [
    'create_or_update_file',
    'Create or update a single file in a repository with a commit.',
    'owner* repo* path* content* message* branch* sha',
  ],
  ['delete_file', 'Delete a file from a repository with a commit.', 'owner* repo* path* message* branch*'],
  ['push_files', 'Push several files to a branch in one commit.', 'owner* repo* branch* files*:a message*'],
  [
    'get_repository_tree',
    'Get the tree of files and directories of a repository, recursively.',
    'owner* repo* tree_sha recursive:b path_filter',
  ],
  ['create_branch', 'Create a new branch in a repository from another branch.', 'owner* repo* branch* from_branch'],
  ['list_branches', 'List the branches of a repository.', 'owner* repo* protected:b per_page:n page:n'],
  [
    'get_branch_protection',
    'Get the protection rules of a branch: required reviews, status checks.',
    'owner* repo* branch*',
  ],
  ['list_commits', 'List the commits of a branch, newest first.', 'owner* repo* sha author since until per_page:n'],
  ['get_commit', 'Get a commit with its diff, stats and files changed.', 'owner* repo* sha* include_diff:b'],
  [
    'compare_commits',
    'Compare two commits or branches and list the commits and files between them.',
    'owner* repo* base* head*',
  ],
  ['list_tags', 'List the git tags of a repository.', 'owner* repo* per_page:n page:n'],
  ['get_tag', 'Get details of a git tag: its commit, tagger and message.', 'owner* repo* tag*'],
  ['list_releases', 'List the releases of a repository.', 'owner* repo* per_page:n page:n'],
  ['get_latest_release', 'Get the latest published release of a repository.', 'owner* repo*'],
  [
    'create_release',
    'Create a release from a tag, with notes.',
    'owner* repo* tag_name* name body draft:b prerelease:b generate_release_notes:b',
  ],
  [
    'search_code',
    'Search code across GitHub repositories with GitHub code search syntax.',
    'query* sort order per_page:n page:n',
  ],
  ['get_issue', 'Get the details of an issue in a repository.', 'owner* repo* issue_number*:n'],
  [
    'list_issues',
    'List the issues of a repository, filtered by state, labels or assignee.',
    'owner* repo* state labels:a assignee sort direction since per_page:n',
  ],
  [
    'search_issues',
    'Search for issues across repositories with GitHub issue search syntax.',
    'query* sort order per_page:n page:n',
  ],
  [
    'create_issue',
    'Create a new issue in a repository.',
    'owner* repo* title* body assignees:a labels:a milestone:n type',
  ],
  [
    'update_issue',
    'Update an issue: title, body, state, labels, assignees or milestone.',
    'owner* repo* issue_number*:n title body state state_reason labels:a assignees:a milestone:n',
  ],
  ['add_issue_comment', 'Add a comment to an issue or pull request.', 'owner* repo* issue_number*:n body*'],
  ['get_issue_comments', 'Get the comments of an issue.', 'owner* repo* issue_number*:n per_page:n page:n'],
  ['list_issue_types', 'List the issue types an organization supports.', 'owner*'],
  ['add_sub_issue', 'Add a sub-issue to a parent issue.', 'owner* repo* issue_number*:n sub_issue_id*:n'],
  ['list_sub_issues', 'List the sub-issues of an issue.', 'owner* repo* issue_number*:n per_page:n'],
  ['list_labels', 'List the labels defined in a repository.', 'owner* repo* per_page:n'],
  [
    'create_label',
    'Create a label in a repository, with its color and description.',
    'owner* repo* name* color* description',
  ],
  ['list_milestones', 'List the milestones of a repository.', 'owner* repo* state sort per_page:n'],
  ['get_pull_request', 'Get the details of a pull request.', 'owner* repo* pull_number*:n'],
  [
    'list_pull_requests',
    'List the pull requests of a repository, filtered by state, head or base branch.',
    'owner* repo* state head base sort direction per_page:n',
  ],
  [
    'search_pull_requests',
    'Search for pull requests across repositories with GitHub search syntax.',
    'query* sort order per_page:n',
  ],
  [
    'create_pull_request',
    'Create a new pull request to merge a head branch into a base branch.',
    'owner* repo* title* head* base* body draft:b maintainer_can_modify:b',
  ],
  [
    'update_pull_request',
    'Update a pull request: title, body, state, base branch or draft status.',
    'owner* repo* pull_number*:n title body state base draft:b reviewers:a',
  ],
  [
    'merge_pull_request',
    'Merge a pull request with a merge commit, squash or rebase.',
    'owner* repo* pull_number*:n commit_title commit_message merge_method',
  ],
  [
    'get_pull_request_files',
    'Get the list of files changed in a pull request.',
    'owner* repo* pull_number*:n per_page:n',
  ],
  ['get_pull_request_diff', 'Get the unified diff of a pull request.', 'owner* repo* pull_number*:n'],
  [
    'get_pull_request_status',
    'Get the combined status of the checks on a pull request head commit.',
    'owner* repo* pull_number*:n',
  ],
  ['get_pull_request_reviews', 'Get the reviews submitted on a pull request.', 'owner* repo* pull_number*:n'],
  [
    'get_pull_request_review_comments',
    'Get the review comments left on the lines of a pull request.',
    'owner* repo* pull_number*:n per_page:n',
  ],
  [
    'create_pull_request_review',
    'Submit a review on a pull request: approve, request changes or comment.',
    'owner* repo* pull_number*:n event* body commit_id comments:a',
  ],
  [
    'request_copilot_review',
    'Request an automated Copilot code review on a pull request.',
    'owner* repo* pull_number*:n',
  ],
  [
    'update_pull_request_branch',
    'Update the head branch of a pull request with the latest changes from its base.',
    'owner* repo* pull_number*:n expected_head_sha',
  ],
  ['list_workflows', 'List the GitHub Actions workflows of a repository.', 'owner* repo* per_page:n'],
  [
    'run_workflow',
    'Trigger a GitHub Actions workflow run by dispatch on a branch or tag.',
    'owner* repo* workflow_id* ref* inputs',
  ],
  [
    'list_workflow_runs',
    'List the runs of a GitHub Actions workflow, filtered by branch, status or event.',
    'owner* repo* workflow_id* branch status event actor per_page:n',
  ],
  ['get_workflow_run', 'Get the details and status of a GitHub Actions workflow run.', 'owner* repo* run_id*:n'],
  ['list_workflow_jobs', 'List the jobs of a GitHub Actions workflow run.', 'owner* repo* run_id*:n filter per_page:n'],
  [
    'get_job_logs',
    'Get the logs of a failed GitHub Actions job, or of every failed job of a run.',
    'owner* repo* job_id:n run_id:n failed_only:b tail_lines:n',
  ],
  ['rerun_failed_jobs', 'Re-run only the failed jobs of a GitHub Actions workflow run.', 'owner* repo* run_id*:n'],
  ['cancel_workflow_run', 'Cancel a GitHub Actions workflow run that is in progress.', 'owner* repo* run_id*:n'],
  [
    'list_code_scanning_alerts',
    'List the code scanning alerts of a repository, by severity or state.',
    'owner* repo* state severity ref tool_name',
  ],
  ['get_code_scanning_alert', 'Get the details of a code scanning alert.', 'owner* repo* alert_number*:n'],
  [
    'list_secret_scanning_alerts',
    'List the secret scanning alerts of a repository: leaked tokens and keys.',
    'owner* repo* state secret_type resolution',
  ],
  [
    'list_dependabot_alerts',
    'List the Dependabot alerts of a repository: vulnerable dependencies.',
    'owner* repo* state severity',
  ],
  ['list_notifications', 'List your GitHub notifications, unread or all.', 'filter since before owner repo per_page:n'],
  ['dismiss_notification', 'Mark a notification thread as read or done.', 'threadID* state'],
  ['create_gist', 'Create a gist with one or more files.', 'filename* content* description public:b'],
  ['list_discussions', 'List the discussions of a repository, by category.', 'owner* repo* category per_page:n'],
];

const SLACK: ToolSpec[] = [
  [
    'slack_list_channels',
    'List the public and private channels of the workspace you can see.',
    'limit:n cursor types exclude_archived:b',
  ],
  ['slack_post_message', 'Post a new message to a Slack channel.', 'channel_id* text* blocks unfurl_links:b'],
  [
    'slack_reply_to_thread',
    'Reply to a message thread in a Slack channel.',
    'channel_id* thread_ts* text* reply_broadcast:b',
  ],
  ['slack_add_reaction', 'Add an emoji reaction to a message.', 'channel_id* timestamp* reaction*'],
  ['slack_remove_reaction', 'Remove an emoji reaction you added to a message.', 'channel_id* timestamp* reaction*'],
  ['slack_get_channel_history', 'Get the recent messages of a channel.', 'channel_id* limit:n oldest latest cursor'],
  ['slack_get_thread_replies', 'Get all the replies in a message thread.', 'channel_id* thread_ts* limit:n cursor'],
  [
    'slack_get_users',
    'Get the users of the workspace with their basic profile information.',
    'limit:n cursor include_locale:b',
  ],
  [
    'slack_get_user_profile',
    'Get the detailed profile of a user: title, phone, time zone and status.',
    'user_id* include_labels:b',
  ],
  [
    'slack_search_messages',
    'Search the messages of the workspace with Slack search modifiers.',
    'query* sort sort_dir count:n highlight:b',
  ],
  [
    'slack_schedule_message',
    'Schedule a message to be posted to a channel at a later time.',
    'channel_id* text* post_at*:n thread_ts',
  ],
  ['slack_update_message', 'Edit the text of a message you posted.', 'channel_id* timestamp* text* blocks'],
  ['slack_delete_message', 'Delete a message you posted.', 'channel_id* timestamp*'],
  ['slack_create_channel', 'Create a new public or private channel.', 'name* is_private:b team_id'],
  ['slack_archive_channel', 'Archive a channel nobody uses any more.', 'channel_id*'],
  ['slack_invite_to_channel', 'Invite users to join a channel.', 'channel_id* user_ids*:a'],
  ['slack_set_channel_topic', 'Set the topic shown at the top of a channel.', 'channel_id* topic*'],
  [
    'slack_upload_file',
    'Upload a file and share it in a channel.',
    'channel_id* filename* content* title initial_comment thread_ts',
  ],
  ['slack_pin_message', 'Pin a message to a channel so everyone finds it.', 'channel_id* timestamp*'],
  [
    'slack_set_status',
    'Set your Slack status text, emoji and expiration.',
    'status_text* status_emoji status_expiration:n',
  ],
  ['slack_open_dm', 'Open a direct message conversation with one or more users.', 'user_ids*:a'],
  ['slack_get_permalink', 'Get a permanent link to a message.', 'channel_id* message_ts*'],
];

const JIRA: ToolSpec[] = [
  [
    'jira_get_issue',
    'Get the details of a Jira issue by its key: summary, status, assignee and fields.',
    'issue_key* fields expand comment_limit:n',
  ],
  [
    'jira_search',
    'Search Jira issues with JQL, the Jira Query Language.',
    'jql* fields limit:n start_at:n projects_filter',
  ],
  [
    'jira_create_issue',
    'Create a new Jira issue: a task, bug, story or epic in a project.',
    'project_key* summary* issue_type* description assignee components additional_fields',
  ],
  [
    'jira_update_issue',
    'Update the fields of a Jira issue: summary, description, priority, labels.',
    'issue_key* fields* additional_fields attachments',
  ],
  ['jira_delete_issue', 'Delete a Jira issue and its subtasks.', 'issue_key* delete_subtasks:b'],
  [
    'jira_transition_issue',
    'Move a Jira issue to another status through a workflow transition.',
    'issue_key* transition_id* fields comment',
  ],
  ['jira_get_transitions', 'Get the workflow transitions available for a Jira issue.', 'issue_key*'],
  ['jira_add_comment', 'Add a comment to a Jira issue.', 'issue_key* comment* visibility'],
  ['jira_get_comments', 'Get the comments of a Jira issue.', 'issue_key* limit:n order_by'],
  [
    'jira_add_worklog',
    'Log time spent working on a Jira issue.',
    'issue_key* time_spent* comment started original_estimate remaining_estimate',
  ],
  ['jira_get_worklog', 'Get the work logged on a Jira issue.', 'issue_key*'],
  [
    'jira_create_issue_link',
    'Link two Jira issues: blocks, relates to, duplicates.',
    'link_type* inward_issue_key* outward_issue_key* comment',
  ],
  ['jira_remove_issue_link', 'Remove a link between two Jira issues.', 'link_id*'],
  ['jira_get_link_types', 'Get the kinds of issue links this Jira instance has.', ''],
  ['jira_get_project', 'Get the details of a Jira project: lead, components, issue types.', 'project_key* expand'],
  ['jira_list_projects', 'List the Jira projects you can see.', 'include_archived:b limit:n'],
  ['jira_get_project_issues', 'Get all the issues of a Jira project.', 'project_key* limit:n start_at:n'],
  ['jira_get_project_versions', 'Get the fix versions of a Jira project.', 'project_key*'],
  [
    'jira_create_version',
    'Create a fix version in a Jira project, with a release date.',
    'project_key* name* start_date release_date description',
  ],
  ['jira_list_components', 'List the components of a Jira project.', 'project_key*'],
  [
    'jira_get_agile_boards',
    'Get the agile boards (Scrum or Kanban) by name, project or type.',
    'board_name project_key board_type limit:n',
  ],
  ['jira_get_board_issues', 'Get the issues on an agile board, filtered with JQL.', 'board_id* jql fields limit:n'],
  ['jira_get_sprints_from_board', 'Get the sprints of an agile board, by state.', 'board_id* state limit:n'],
  ['jira_get_sprint_issues', 'Get the issues of a sprint.', 'sprint_id* fields limit:n'],
  [
    'jira_create_sprint',
    'Create a sprint on a board, with its start and end dates.',
    'board_id* sprint_name* start_date* end_date* goal',
  ],
  [
    'jira_update_sprint',
    'Update a sprint: its name, dates, goal or state (start or close it).',
    'sprint_id* sprint_name state start_date end_date goal',
  ],
  ['jira_add_issues_to_sprint', 'Move Jira issues into a sprint.', 'sprint_id* issue_keys*:a'],
  ['jira_get_epic_issues', 'Get the issues that belong to an epic.', 'epic_key* limit:n'],
  ['jira_link_to_epic', 'Add an existing Jira issue to an epic.', 'issue_key* epic_key*'],
  ['jira_assign_issue', 'Assign a Jira issue to a user, or unassign it.', 'issue_key* assignee*'],
  ['jira_get_user_profile', 'Get the profile of a Jira user by account id, email or name.', 'user_identifier*'],
  ['jira_search_users', 'Search for Jira users by name or email.', 'query* limit:n'],
  [
    'jira_add_watcher',
    'Add a user as a watcher of a Jira issue, to be notified of changes.',
    'issue_key* user_identifier*',
  ],
  ['jira_get_watchers', 'Get the watchers of a Jira issue.', 'issue_key*'],
  ['jira_download_attachments', 'Download the attachments of a Jira issue.', 'issue_key* target_dir*'],
  ['jira_search_fields', 'Search the Jira fields, custom fields included, by keyword.', 'keyword limit:n refresh:b'],
  ['jira_batch_create_issues', 'Create several Jira issues at once.', 'issues*:a validate_only:b'],
  [
    'jira_batch_get_changelogs',
    'Get the change history of several Jira issues.',
    'issue_ids_or_keys*:a fields:a limit:n',
  ],
  [
    'jira_create_component',
    'Create a component in a Jira project, with its lead.',
    'project_key* name* description lead_account_id',
  ],
  [
    'jira_get_issue_dates',
    'Get the dates of a Jira issue: created, updated, due and resolved, and time in each status.',
    'issue_key*',
  ],
];

const SENTRY: ToolSpec[] = [
  ['find_organizations', 'Find the Sentry organizations you have access to.', 'query'],
  ['find_projects', 'Find the projects of a Sentry organization.', 'organization_slug* query'],
  [
    'find_issues',
    'Find grouped error issues in Sentry: unresolved, by project, by frequency.',
    'organization_slug* project_slug query sort_by',
  ],
  [
    'get_issue_details',
    'Get the details of a Sentry issue with its latest event and stack trace.',
    'organization_slug* issue_id* event_id',
  ],
  [
    'update_issue',
    'Update a Sentry issue: resolve, ignore, or assign it.',
    'organization_slug* issue_id* status assigned_to',
  ],
  [
    'search_events',
    'Search and count Sentry error events and spans with a natural-language query.',
    'organization_slug* natural_language_query* project_slug limit:n',
  ],
  ['find_releases', 'Find the releases of a Sentry organization or project.', 'organization_slug* project_slug query'],
  [
    'get_event_attachment',
    'Download an attachment of a Sentry event, such as a minidump.',
    'organization_slug* project_slug* event_id* attachment_id',
  ],
  ['find_dsns', 'Find the client keys (DSNs) of a Sentry project.', 'organization_slug* project_slug*'],
  [
    'analyze_issue_with_seer',
    'Ask Seer to find the root cause of a Sentry issue and propose a code fix.',
    'organization_slug* issue_id* instruction',
  ],
];

const GRAFANA: ToolSpec[] = [
  ['search_dashboards', 'Search Grafana dashboards by title or tag.', 'query tag:a limit:n'],
  ['get_dashboard_by_uid', 'Get a Grafana dashboard by its uid: its panels and queries.', 'uid*'],
  [
    'update_dashboard',
    'Create or update a Grafana dashboard from its JSON model.',
    'dashboard* folder_uid message overwrite:b',
  ],
  ['list_datasources', 'List the Grafana data sources: Prometheus, Loki, Tempo.', 'type'],
  [
    'query_prometheus',
    'Run a PromQL query against a Prometheus data source, instant or over a range.',
    'datasource_uid* expr* start_time end_time step_seconds:n query_type',
  ],
  [
    'query_loki_logs',
    'Query log lines from a Loki data source with LogQL.',
    'datasource_uid* logql* start_rfc3339 end_rfc3339 limit:n direction',
  ],
  [
    'list_alert_rules',
    'List the Grafana alert rules and their current state: firing, pending or normal.',
    'limit:n page:n label_selectors',
  ],
  ['get_alert_rule_by_uid', 'Get the full configuration of a Grafana alert rule.', 'uid*'],
  [
    'create_incident',
    'Open a Grafana incident with a title, severity and room.',
    'title* severity* room_prefix labels:a',
  ],
  ['get_current_oncall_users', 'Get the users currently on call in a Grafana OnCall schedule.', 'schedule_id*'],
];

/**
 * The five servers, scaled: published sizes from Anthropic's advanced-tool-use measurements (GitHub 35 tools ≈ 26K,
 * Slack 11 ≈ 21K, Sentry 5 ≈ 3K, Grafana 5 ≈ 3K, Jira ≈ 17K; Jira's tool count was not published, 20 is assumed).
 */
export const SERVERS: readonly ServerSpec[] = [
  { name: 'github', published: { tools: 35, tokens: 26_000 }, tools: GITHUB },
  { name: 'slack', published: { tools: 11, tokens: 21_000 }, tools: SLACK },
  {
    name: 'jira',
    published: { tools: 20, tokens: 17_000, note: 'tool count assumed (only the ≈17K tokens is published)' },
    tools: JIRA,
  },
  { name: 'sentry', published: { tools: 5, tokens: 3_000 }, tools: SENTRY },
  { name: 'grafana', published: { tools: 5, tokens: 3_000 }, tools: GRAFANA },
];
