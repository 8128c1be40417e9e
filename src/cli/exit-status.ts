import { AgentctxError, type AgentctxErrorCode } from '../contracts/errors/agentctx-error.js';

/**
 * The exit status of each error code, when a command stops on an error. 2, bad input: what the user gave must change
 * before the command can succeed. 1, a runtime failure: something failed while running what was given, and the same
 * command may succeed later. A `Record`, so that a new code cannot ship without its place here.
 */
export const EXIT_STATUS_BY_CODE: Readonly<Record<AgentctxErrorCode, 1 | 2>> = Object.freeze({
  usage: 2, // the command line; also a port in use and a store that cannot be opened (both named by an option)
  invalid_input: 2, // a file, definition, script or value that does not read
  unsupported_version: 2, // a file or database written by a newer release
  invalid_history: 2, // events whose calls and responses do not pair
  not_found: 2, // a file, session, agent or call the user named
  missing_credentials: 2, // an API key that is not set
  missing_package: 2, // an optional package the command needs (a provider's SDK, a driver) that is not installed
  missing_state_key: 2, // a template's {placeholder} that the given state does not fill
  missing_artifact: 2,
  artifact_store_missing: 2,
  artifact_not_text: 2,
  model_error: 1, // the model or its provider failed
  mcp_error: 1, // an MCP server would not start, hung up, timed out or answered garbage
  store_unavailable: 1, // the database restarted, cannot be reached, has no connection free or timed out
  already_exists: 1, // a write that conflicted with another one
  stale_session: 1,
  stale_shared_state: 1,
  processor_failed: 1, // code that threw while running: a request processor, an extension's hook
  extension_failed: 1,
});

/** The exit status for an error a command threw: its code's, and 1 for errors that are not agentctx's or codes this copy does not know. */
export function exitStatusOf(error: unknown): 1 | 2 {
  if (!AgentctxError.isInstance(error)) return 1;
  return (EXIT_STATUS_BY_CODE as Readonly<Record<string, 1 | 2 | undefined>>)[error.code] ?? 1;
}
