import type { AppDetails } from '../../contracts/evaluation.js';
import type { ModelCallRecord } from '../../contracts/model-call.js';

/**
 * The agents each invocation ran, from its recorded calls, as ADK's EvaluationGenerator takes them from the model
 * requests it intercepts (evaluation_generator.py L720–750, commit bb56aa56): per invocation, each agent's first call
 * gives its instructions (the system text as sent) and its tool declarations, in genai's form — one `Tool` holding
 * every function declaration, `parameters` the JSON Schema as sent. Judge prompts show them (hallucinations_v1, the
 * rubric-based metrics). Embedding calls are not an agent's.
 */
export function appDetailsFromCalls(calls: readonly ModelCallRecord[]): Record<string, AppDetails> {
  const byInvocation: Record<string, AppDetails> = {};
  for (const call of calls) {
    if (call.operation === 'embeddings') continue;
    const app = (byInvocation[call.invocationId] ??= { agentDetails: {} });
    if (Object.hasOwn(app.agentDetails, call.agent)) continue;
    const { system, tools } = call.request;
    app.agentDetails[call.agent] = {
      name: call.agent,
      instructions: system,
      toolDeclarations:
        tools.length === 0
          ? []
          : [
              {
                function_declarations: tools.map((tool) => ({
                  name: tool.name,
                  description: tool.description,
                  ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
                })),
              },
            ],
    };
  }
  return byInvocation;
}
