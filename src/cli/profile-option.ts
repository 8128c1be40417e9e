import { UsageError } from '../contracts/errors/usage-error.js';
import type { ProfileName } from '../contracts/profile.js';
import { REMEMBER_SESSIONS, type RememberSessions } from '../features/memory-tools/remember-sessions.js';

/** The help line of `--profile`, for the commands that run agents. */
export const PROFILE_HELP = `  --profile <name>   agentctx (default) or adk: ADK Python's conventions, byte for
                     byte (values written as Python's str(), ADK's summaries)`;

/** `--profile`: the conventions the runner follows; absent, agentctx's. */
export function profileChoice(value: string | undefined): { profile?: ProfileName } {
  if (value === undefined) return {};
  if (value === 'agentctx' || value === 'adk') return { profile: value };
  throw new UsageError(`--profile must be agentctx or adk, got '${value}'.`);
}

/** The help line of `--remember`, for the commands that run agents. */
export const REMEMBER_HELP = `  --remember <when>  add sessions to the app's memory by themselves: turn (after
                     every turn), session-end (when a session is deleted) or
                     never (the default); see 'agentctx memory --help'`;

/** `--remember`: when the runner adds sessions to memory by itself; absent, never. */
export function rememberChoice(value: string | undefined): { remember?: RememberSessions } {
  if (value === undefined) return {};
  if ((REMEMBER_SESSIONS as readonly string[]).includes(value)) return { remember: value as RememberSessions };
  throw new UsageError(`--remember must be one of ${REMEMBER_SESSIONS.join(', ')}, got '${value}'.`);
}

/** The help line of `--embed`, for the commands that run agents or search memory. */
export const EMBED_HELP = `  --embed <model>    search memory by meaning too, with this embedding model
                     (openai:text-embedding-3-small, google:gemini-embedding-001):
                     memories embedded when remembered, queries when searched,
                     each call recorded and priced in the session's calls`;
