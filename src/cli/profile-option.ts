import { UsageError } from '../contracts/errors/usage-error.js';
import type { ProfileName } from '../contracts/profile.js';

/** The help line of `--profile`, for the commands that run agents. */
export const PROFILE_HELP = `  --profile <name>   agentctx (default) or adk: ADK Python's conventions, byte for
                     byte (values written as Python's str(), ADK's summaries)`;

/** `--profile`: the conventions the runner follows; absent, agentctx's. */
export function profileChoice(value: string | undefined): { profile?: ProfileName } {
  if (value === undefined) return {};
  if (value === 'agentctx' || value === 'adk') return { profile: value };
  throw new UsageError(`--profile must be agentctx or adk, got '${value}'.`);
}
