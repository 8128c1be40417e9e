import type { AgentNode } from '../contracts/agent.js';
import type { EventsCompactionConfig } from '../contracts/compaction.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { Event } from '../contracts/event.js';
import type { Profile } from '../contracts/profile.js';
import type { Session } from '../contracts/session.js';
import type { Summarizer } from '../contracts/summarizer.js';
import type { TokenCounter } from '../contracts/tokens.js';
import { createAgentTree, isLlmAgent } from '../engine/agent/agent-tree.js';
import { summarizerInput } from '../engine/compaction/compaction-plan.js';
import { adkProfile, agentctxProfile } from '../engine/profile/profiles.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';
import { compactionEvent } from '../features/compaction/compaction-event.js';
import { ExtractiveSummarizer } from '../features/compaction/extractive-summarizer.js';
import { LlmSummarizer } from '../features/compaction/llm-summarizer.js';
import {
  countContentsTokens,
  promptAfterInvocation,
  type PromptMeasure,
} from '../features/compaction/measure-prompt.js';
import { previewCompaction, type CompactionPreview, type MeasuredPrompt } from './compaction-preview.js';
import { compactionJson, formatCompacted, formatPreview } from './format-compaction.js';
import type { CliIo } from './io.js';
import { loadAgent } from './load-agent.js';
import { openRecordedSession, type RecordedSessionOptions } from './recorded-session.js';
import type { CliRuntime } from './runtime.js';
import { createStyle } from './style.js';

export type SessionCompactOptions = RecordedSessionOptions & {
  dryRun: boolean;
  json: boolean;
  /** The `adk` profile's rules instead of agentctx's. */
  adk: boolean;
  /** `extractive` or `model`. */
  summarizer: string;
  /** The summarizer's model, instead of the agent file's. */
  model?: string | undefined;
};

/**
 * Plans, and unless it is a dry run makes, the compaction a stored session is due for, as the runner would after
 * an invocation: the summary is appended to the session as a compaction event; the raw events stay.
 */
export async function compactSession(
  file: string | undefined,
  options: SessionCompactOptions,
  config: EventsCompactionConfig,
  io: CliIo,
  runtime: CliRuntime,
): Promise<number> {
  if (file === undefined)
    throw new UsageError(
      'compact --session needs the agent file that ran the session.',
      "Run 'agentctx compact --help' for the forms it takes.",
    );
  const tree = createAgentTree(await loadAgent(file, io.cwd));
  const root = tree.nodes.find((node) => isLlmAgent(node.definition));
  if (root === undefined) throw new UsageError(`${file} has no LLM agent, so its sessions have nothing to compact.`);
  const profile = options.adk ? adkProfile : agentctxProfile;
  const summarizer = options.dryRun ? undefined : await chooseSummarizer(options, root, profile, runtime);
  const style = createStyle(io.isTty);
  const { store, key } = await openRecordedSession(
    file,
    { ...options, app: options.app ?? tree.root.name },
    io.cwd,
    runtime,
  );
  const session = (await store.getSession(key)) as Session;
  const title = `${summarizer === undefined ? 'Compaction dry run' : 'Compaction'} · session ${key.sessionId} (app ${key.appName}, user ${key.userId})`;
  const preview = await previewSessionCompaction(session.events, config, root.name, profile);
  const { plan } = preview;
  if (summarizer === undefined || plan === undefined) {
    io.stdout(
      options.json
        ? compactionJson(preview)
        : formatPreview(preview, title, style, summarizer === undefined ? undefined : 'Nothing was written.'),
    );
    return 0;
  }
  let summary;
  try {
    summary = await summarizer.summarizer.summarize(summarizerInput(plan), { seeded: plan.seed !== undefined });
  } catch (error) {
    io.stderr(
      `error: the ${summarizer.label} summarizer failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}; nothing was written.\n`,
    );
    return 1;
  }
  if (summary === undefined) {
    io.stderr(`error: the ${summarizer.label} summarizer returned no summary; nothing was written.\n`);
    return 1;
  }
  const stored = await store.appendEvent({ session, event: compactionEvent(plan, summary, crypto.randomUUID()) });
  const after = { ...preview, tokensAfter: await conversationTokens(session.events, root.name, profile) };
  const written = {
    summarizer: options.summarizer,
    ...(summarizer.model === undefined ? {} : { model: summarizer.model }),
    compactionEventId: stored.id,
  };
  io.stdout(
    options.json ? compactionJson(after, written) : formatCompacted(after, stored, summarizer.label, title, style),
  );
  return 0;
}

/** The compaction a stored session is due for under the profile, its prompt measured as the runner measures after an invocation. */
export async function previewSessionCompaction(
  events: readonly Event[],
  config: EventsCompactionConfig,
  agentName: string,
  profile: Profile,
): Promise<CompactionPreview> {
  const counter = await loadTokenCounter();
  return previewCompaction(events, config, profile, {
    prompt: async () => {
      const measure = await promptAfterInvocation(events, profile, agentName);
      return { tokens: measure.tokens, how: howAfterInvocation(measure, profile) };
    },
    counted: `the conversation '${agentName}' sees (local o200k count, without system text and tools)`,
    tokensBefore: await conversationTokens(events, agentName, profile, counter),
    tokensOf: (after) => conversationTokens(after, agentName, profile, counter),
  });
}

// The measure `promptAfterInvocation` took, in words.
function howAfterInvocation(measure: PromptMeasure, profile: Profile): MeasuredPrompt['how'] {
  if (measure.by === 'billed')
    return profile.promptTokens === 'adk'
      ? 'the latest billed prompt, as ADK takes it'
      : 'the latest billed prompt since the last summary';
  if (measure.by === 'estimate') return "no billed usage: ADK's estimate, characters of the conversation / 4";
  return 'no billed usage since the last summary: the local count of the conversation';
}

async function conversationTokens(
  events: readonly Event[],
  agentName: string,
  profile: Profile,
  counter?: TokenCounter,
): Promise<number> {
  return countContentsTokens(events, agentName, undefined, counter ?? (await loadTokenCounter()), profile.summaries);
}

type ChosenSummarizer = { summarizer: Summarizer; label: string; model?: string };

// The extractive summarizer, or an LLM summarizer on the agent file's model (or --model), resolved before anything is read.
async function chooseSummarizer(
  options: SessionCompactOptions,
  root: AgentNode,
  profile: Profile,
  runtime: CliRuntime,
): Promise<ChosenSummarizer> {
  if (options.summarizer === 'extractive') {
    if (options.model !== undefined) throw new UsageError('--model goes with --summarizer model.');
    return { summarizer: new ExtractiveSummarizer(), label: 'extractive' };
  }
  if (options.summarizer !== 'model')
    throw new UsageError(`--summarizer must be extractive or model, got '${options.summarizer}'.`);
  const model = options.model ?? (isLlmAgent(root.definition) ? root.definition.model : undefined);
  if (model === undefined)
    throw new UsageError(`Agent '${root.name}' names no model for the summarizer.`, 'Pass --model <name>.');
  return {
    summarizer: new LlmSummarizer({ model: await runtime.model(model), profile }),
    label: `model (${model})`,
    model,
  };
}
