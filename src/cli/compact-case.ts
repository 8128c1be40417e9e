import type { EventsCompactionConfig } from '../contracts/compaction.js';
import { estimatePromptTokensAdk } from '../features/compaction/measure-prompt.js';
import { latestPromptTokens } from '../engine/compaction/prompt-tokens.js';
import { assembleCase, type CaseFile } from '../presets/case-file.js';
import { countRequestTokens } from '../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';
import { type TokenCounter } from '../contracts/tokens.js';
import { withExtractiveSummary, type CompactionPreview } from './compaction-preview.js';
import { planDueCompaction } from '../engine/compaction/plan-due.js';
import { dueTriggers } from './compaction-preview.js';

/**
 * The compaction a case file's history is due for before the next call of its current agent, measured as the runner
 * measures it, and the request's size before and after (with the extractive summary). Nothing is written.
 */
export async function previewCaseCompaction(caseFile: CaseFile, config: EventsCompactionConfig): Promise<CompactionPreview> {
  const adk = caseFile.profile.summaries === 'adk';
  const counter = await loadTokenCounter();
  const tokensBefore = await requestTokens(caseFile, counter);
  const prompt = config.tokenThreshold === undefined ? undefined : measurePrompt(caseFile, tokensBefore, adk);
  const plan = planDueCompaction(caseFile.events, dueTriggers(config), { moment: { kind: 'stored' }, promptTokens: prompt?.tokens, summaries: adk ? 'adk' : 'exact' })?.plan;
  const after = plan === undefined ? undefined : await withExtractiveSummary(caseFile.events, plan);
  return {
    plan,
    config,
    adk,
    ...(prompt === undefined ? {} : { prompt }),
    counted: `the request for '${caseFile.currentAgent}' (local o200k count)`,
    tokensBefore,
    tokensAfter: after === undefined ? undefined : await requestTokens({ ...caseFile, events: after }, counter),
  };
}

async function requestTokens(caseFile: CaseFile, counter: TokenCounter): Promise<number> {
  const { request, provenance } = await assembleCase(caseFile);
  return countRequestTokens(request, counter, provenance).total;
}

// The runner's measure before a model call: agentctx takes the larger of the local count of the request and the
// latest billed prompt since the last summary; ADK takes the latest billed prompt, else characters / 4.
function measurePrompt(caseFile: CaseFile, local: number, adk: boolean): { tokens: number | undefined; how: string } {
  if (adk) {
    const billed = latestPromptTokens(caseFile.events, true);
    if (billed !== undefined) return { tokens: billed, how: 'the latest billed prompt, as ADK takes it' };
    return { tokens: estimatePromptTokensAdk(caseFile.events, caseFile.currentAgent, caseFile.branch), how: "ADK's estimate: characters of the conversation / 4" };
  }
  const billed = latestPromptTokens(caseFile.events, false);
  const how = `the larger of the local count of the request for '${caseFile.currentAgent}' (${local}) and the latest billed prompt since the last summary (${billed ?? 'none'})`;
  return { tokens: Math.max(local, billed ?? 0), how };
}
