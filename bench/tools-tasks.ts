// The 50 tasks of bench:tools, each needing one to three tools. `[[words|tool]]` marks the words of the task that ask
// for a tool: the scripted model searches with exactly those words (never the tool's name), then calls the tool. A tool
// two servers both name (update_issue) has its server's prefix, as agentctx names it in the request.

export type Need = { readonly tool: string; readonly words: string };
export type Task = { readonly id: number; readonly text: string; readonly needs: readonly Need[] };

const MARKED = [
  'In acme/web-app, [[open a new pull request to merge the head branch feature/login into main|create_pull_request]] and [[request an automated Copilot code review|request_copilot_review]] on it.',
  '[[Merge pull request 482 with squash|merge_pull_request]] in acme/web-app.',
  'Why did CI fail on acme/platform? [[Get the logs of the failed GitHub Actions jobs|get_job_logs]] of run 99120 and [[re-run the failed jobs|rerun_failed_jobs]].',
  '[[Create an issue in the repository|create_issue]] acme/checkout titled "Card form loses focus".',
  '[[Add a comment to issue|add_issue_comment]] 77 of acme/web-app saying the fix is deployed.',
  'Check which [[files changed in pull request|get_pull_request_files]] 311 of acme/mobile.',
  '[[Search code across repositories|search_code]] for uses of legacyAuthMiddleware.',
  '[[List the open issues of the repository labelled bug|list_issues]] acme/infra.',
  '[[Create a new branch from main|create_branch]] called release/2.4 in acme/billing, then [[create a release from the tag|create_release]] v2.4.0 with generated notes.',
  '[[Trigger the deploy workflow by dispatch|run_workflow]] on main in acme/platform.',
  '[[Get the contents of the file|get_file_contents]] config/app.yaml from acme/web-app.',
  '[[Compare the two branches|compare_commits]] main and develop of acme/search and list what changed.',
  '[[List the Dependabot alerts for vulnerable dependencies|list_dependabot_alerts]] of acme/checkout with critical severity.',
  '[[Post a new message to the Slack channel|slack_post_message]] #releases announcing version 2.4.',
  '[[Reply in the thread|slack_reply_to_thread]] of the outage message in #incidents with the status page link.',
  '[[Search the Slack messages of the workspace|slack_search_messages]] for "database migration" from last week.',
  '[[Schedule a message to be posted to the channel at a later time|slack_schedule_message]]: remind #team about the retro tomorrow at 9.',
  '[[Get the recent messages of the channel|slack_get_channel_history]] #support and [[add an emoji reaction|slack_add_reaction]] eyes to the latest one.',
  '[[Create a new private channel|slack_create_channel]] named proj-apollo and [[invite the users to join the channel|slack_invite_to_channel]]: Ada and Lin.',
  '[[Upload the file and share it in the channel|slack_upload_file]] #design: mockups.pdf.',
  '[[Set your Slack status|slack_set_status]] to "In a workshop" until noon.',
  '[[Get the Jira issue|jira_get_issue]] PAY-1412 with its summary and status.',
  '[[Search Jira issues with JQL|jira_search]]: everything assigned to me that is in progress.',
  '[[Create a new Jira bug in the project|jira_create_issue]] PAY: "Refund button does nothing".',
  '[[Move the Jira issue to another status|jira_transition_issue]] PAY-1412 to Done and [[log the time spent working on it|jira_add_worklog]]: 3h.',
  '[[Add a comment to the Jira issue|jira_add_comment]] OPS-88 with the root cause.',
  '[[Create a sprint on the board|jira_create_sprint]] 12 for next two weeks and [[move the issues into the sprint|jira_add_issues_to_sprint]]: PAY-1, PAY-2.',
  '[[Link the two Jira issues so that one blocks the other|jira_create_issue_link]]: OPS-90 blocks PAY-1412.',
  '[[Assign the Jira issue to a user|jira_assign_issue]]: OPS-91 to Lin.',
  '[[Get the issues that belong to the epic|jira_get_epic_issues]] PAY-1000.',
  '[[Create a fix version with a release date|jira_create_version]] 2.4.0 in project PAY.',
  '[[Find the unresolved error issues in Sentry|find_issues]] for the backend project, then [[get the details and stack trace of the issue|get_issue_details]] with the most events.',
  '[[Resolve the Sentry issue|sentry_update_issue]] BACKEND-4Z2 now that the fix shipped.',
  '[[Ask Seer to find the root cause|analyze_issue_with_seer]] of Sentry issue BACKEND-5A1.',
  '[[Search and count the Sentry error events|search_events]] from the checkout project in the last 24h.',
  '[[Find the releases of the Sentry project|find_releases]] backend.',
  '[[Run a PromQL query against Prometheus|query_prometheus]] for the p99 latency of the API over the last hour.',
  '[[Query the log lines from Loki with LogQL|query_loki_logs]] for errors in the payments service.',
  '[[Search the Grafana dashboards by title|search_dashboards]] "API overview" and [[get the dashboard by its uid|get_dashboard_by_uid]] to read its panels.',
  '[[List the Grafana alert rules that are firing|list_alert_rules]].',
  '[[Open a Grafana incident|create_incident]] "Checkout errors spike" with severity critical and [[get the users currently on call|get_current_oncall_users]] for the payments schedule.',
  'Sentry shows a new crash: [[get the details and stack trace of the Sentry issue|get_issue_details]] BACKEND-6C3, [[create a new Jira bug in the project|jira_create_issue]] OPS for it and [[post a new message to the Slack channel|slack_post_message]] #oncall.',
  '[[Get the details of pull request|get_pull_request]] 311 in acme/mobile and [[submit a review that approves it|create_pull_request_review]].',
  '[[Update the issue: close it|github_update_issue]] 77 in acme/web-app with state reason completed.',
  '[[List the runs of the workflow|list_workflow_runs]] ci.yml on main in acme/platform that failed.',
  '[[Get the latest published release|get_latest_release]] of acme/billing.',
  '[[Search for GitHub repositories by topic|search_repositories]] "feature-flags" with many stars.',
  '[[Get the profile of the Slack user|slack_get_user_profile]] U024BE7LH: their title and time zone.',
  '[[Get the comments of the Jira issue|jira_get_comments]] PAY-1412 and [[get the change history|jira_batch_get_changelogs]] of it.',
  'Alert on high error rate: [[run a PromQL query|query_prometheus]] for the 5xx rate, [[find the unresolved error issues in Sentry|find_issues]] for checkout, and [[reply in the thread|slack_reply_to_thread]] of the alert in #alerts with what you found.',
];

const MARK = /\[\[([^|\]]+)\|([^\]]+)\]\]/g;

/** The tasks: their text without the marks, and the tools each needs with the words that ask for them. */
export const TASKS: readonly Task[] = MARKED.map((marked, index) => ({
  id: index + 1,
  text: marked.replace(MARK, (_, words: string) => words),
  needs: [...marked.matchAll(MARK)].map((match) => ({ words: match[1] ?? '', tool: match[2] ?? '' })),
}));
