import type { AgentTree } from '../../contracts/agent.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { UsageError } from '../../contracts/errors/usage-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { OutputSchemaInput } from '../../contracts/output-schema.js';
import { isFinalResponse } from '../agent/output-key.js';
import { parseAnswerText, toOutputSchema } from '../agent/output-schema.js';

const INSPECT_HINT = 'The session keeps every event of the run, and agentctx inspect shows its model calls.';

/**
 * The structured answer of a run: the final text of the LLM agent that answered last, parsed as JSON and checked
 * against `schema` (that agent's `outputSchema` when none is given). A run that ended in an error event throws it as
 * an error of its own; an answer that is missing or misses the schema throws a `ValidationError`.
 */
export async function outputOfRun<T>(
  events: AsyncIterable<Event>,
  tree: AgentTree,
  schema: OutputSchemaInput<T> | undefined,
): Promise<T> {
  let answer: { author: string; text: string } | undefined;
  for await (const event of events) {
    if (event.errorCode !== undefined) {
      const subject = `run (agent '${event.author}')`;
      if (event.errorCode === 'output_schema_mismatch')
        throw new ValidationError({
          subject,
          issues: [{ path: '', message: event.errorMessage ?? '' }],
          hint: INSPECT_HINT,
        });
      throw new AgentctxError({
        code: event.errorCode.startsWith('model') ? 'model_error' : 'invalid_input',
        message: `The ${subject} ended with ${event.errorCode}: ${event.errorMessage ?? 'no message'}`,
        hint: INSPECT_HINT,
      });
    }
    const node = tree.findAgent(event.author);
    if (node?.definition.kind !== 'llm' || !isFinalResponse(event)) continue;
    const texts = (event.content?.parts ?? []).flatMap((part) =>
      'text' in part && part.thought !== true ? [part.text] : [],
    );
    if (texts.length > 0 && texts.join('').trim() !== '') answer = { author: event.author, text: texts.join('') };
  }
  if (answer === undefined)
    throw new ValidationError({
      subject: 'run',
      issues: [{ path: '', message: 'no agent gave a final answer with text' }],
      hint: INSPECT_HINT,
    });
  const agent = tree.getAgent(answer.author).definition;
  const given = schema ?? (agent.kind === 'llm' ? agent.outputSchema : undefined);
  if (given === undefined)
    throw new UsageError(
      `runner.output: agent '${answer.author}' answered last and has no outputSchema, so its answer cannot be checked`,
      'Give the agent an outputSchema, or pass the schema to runner.output(input, schema).',
    );
  const subject = `answer of agent '${answer.author}'`;
  const parsed = parseAnswerText(answer.text);
  if (!parsed.ok)
    throw new ValidationError({ subject, issues: [{ path: '$', message: parsed.problem.replace(/^\$: /, '') }] });
  const checked = await toOutputSchema(given as OutputSchemaInput).check(parsed.value);
  if (!checked.ok)
    throw new ValidationError({
      subject,
      issues: checked.problems.map((problem) => {
        const at = problem.indexOf(': ');
        return at === -1
          ? { path: '$', message: problem }
          : { path: problem.slice(0, at), message: problem.slice(at + 2) };
      }),
    });
  return checked.value as T;
}
