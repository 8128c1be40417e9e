import type { AgentDefinition, Model } from 'agentctx';
import { createScriptedModel, type Script, type ScriptedResponse } from 'agentctx/models/scripted';
import { withSimulatedBilling } from 'agentctx/testing';
import { buildAnalyst, type Mode } from '../agents.js';
import { generateReports } from '../reports.js';
import { PRICED_MODEL } from '../run-analysis.js';
import { analystScript } from '../script.js';

/** One variant of the analyst over the 164 reports, with its scripted model billed as Anthropic bills it. */
export function analystVariant(mode: Mode): { agent: AgentDefinition; model: Model } {
  return {
    agent: buildAnalyst({ mode, reports: generateReports() }),
    model: withSimulatedBilling(
      createScriptedModel(answerLast(analystScript(mode)), { record: false, modelId: `report-analyst-${mode}` }),
      { provider: 'anthropic', modelId: PRICED_MODEL },
    ),
  };
}

// ADK's evaluation takes an invocation's final response to be its last event that is not a tool call — and a tool
// that skips summarization, as `finish` does, makes its own answer that event. So for an eval the analyst answers in
// text alone, which ends its turn just as well, and the answer is what gets scored.
function answerLast(script: Script): Script {
  const textOnly = (response: ScriptedResponse): ScriptedResponse =>
    response.text !== undefined && response.functionCall?.name === 'finish' ? { text: response.text } : response;
  return {
    ...script,
    rules: (script.rules ?? []).map((rule) => {
      const respond = rule.respond;
      return typeof respond === 'function' ? { ...rule, respond: (...args) => textOnly(respond(...args)) } : rule;
    }),
  };
}
