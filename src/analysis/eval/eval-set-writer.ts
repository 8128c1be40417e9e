import type { Content, Part } from '../../contracts/content.js';
import type { EvalCase, EvalSet, Invocation, Rubric } from '../../contracts/evaluation.js';
import { setOwn } from '../../engine/util/copy-value.js';
import { snakeCase } from './adk-fields.js';

// An eval set as ADK 2.5.0 writes its files (local_eval_sets_manager.py `_write_eval_set_to_path`, L332–344):
// `model_dump_json(indent=2, exclude_unset=True, exclude_defaults=True, exclude_none=True)` without `by_alias`, so
// snake_case keys in field order, and no field that is absent, null or at its default (a timestamp of 0, an empty
// invocation id, empty tool lists, an empty state). Tool arguments and responses are written as they are.
// agentctx's `providerMetadata` on a part has no place in a genai `Part` and is left out.

type Json = Record<string, unknown>;

/** The JSON of an eval set file, as ADK writes it. `formatEvalSet` gives its text. */
export function writeEvalSet(set: EvalSet): Json {
  return compact({
    eval_set_id: set.evalSetId,
    name: set.name,
    description: set.description,
    eval_cases: set.evalCases.map(writeCase),
    creation_timestamp: set.creationTimestamp || undefined,
  });
}

/** The text of an eval set file: the JSON with an indent of 2, as `model_dump_json(indent=2)`. */
export function formatEvalSet(set: EvalSet): string {
  return JSON.stringify(writeEvalSet(set), null, 2);
}

function writeCase(item: EvalCase): Json {
  const scenario = item.conversationScenario;
  const session = item.sessionInput;
  const json = compact({
    eval_id: item.evalId,
    conversation: item.conversation?.map(writeInvocation),
    conversation_scenario:
      scenario === undefined
        ? undefined
        : compact({
            starting_prompt: scenario.startingPrompt,
            conversation_plan: scenario.conversationPlan,
            user_persona: scenario.userPersona,
          }),
    session_input:
      session === undefined
        ? undefined
        : withExtra(
            compact({ app_name: session.appName, user_id: session.userId, state: nonEmpty(session.state) }),
            session.extra,
          ),
    creation_timestamp: item.creationTimestamp || undefined,
    rubrics: item.rubrics?.map(writeRubric),
    final_session_state: nonEmpty(item.finalSessionState),
  });
  return withExtra(json, item.extra);
}

function writeInvocation(invocation: Invocation): Json {
  const data = invocation.intermediateData;
  return compact({
    invocation_id: invocation.invocationId || undefined,
    user_content: writeContent(invocation.userContent),
    final_response: invocation.finalResponse === undefined ? undefined : writeContent(invocation.finalResponse),
    intermediate_data:
      data === undefined
        ? undefined
        : 'invocationEvents' in data
          ? compact({
              invocation_events: nonEmptyList(
                data.invocationEvents.map((event) =>
                  compact({
                    author: event.author,
                    content: event.content === undefined ? undefined : writeContent(event.content),
                  }),
                ),
              ),
            })
          : compact({
              tool_uses: nonEmptyList(data.toolUses.map((call) => snakeKeys(call))),
              tool_responses: nonEmptyList(data.toolResponses.map((response) => snakeKeys(response))),
              intermediate_responses: nonEmptyList(
                data.intermediateResponses.map(([author, parts]) => [author, parts.map(writePart)]),
              ),
            }),
    creation_timestamp: invocation.creationTimestamp || undefined,
    rubrics: invocation.rubrics?.map(writeRubric),
    app_details:
      invocation.appDetails === undefined
        ? undefined
        : {
            agent_details: Object.fromEntries(
              Object.entries(invocation.appDetails.agentDetails).map(([key, details]) => [
                key,
                compact({
                  name: details.name,
                  instructions: details.instructions || undefined,
                  tool_declarations: nonEmptyList(details.toolDeclarations),
                }),
              ]),
            ),
          },
  });
}

function writeRubric(rubric: Rubric): Json {
  return compact({
    rubric_id: rubric.rubricId,
    rubric_content: compact({ text_property: rubric.rubricContent.textProperty }),
    description: rubric.description,
    type: rubric.type,
  });
}

function writeContent(content: Content): Json {
  return { parts: content.parts.map(writePart), role: content.role };
}

// A part's keys and those of its call, response, data or code in snake_case; arguments and responses as they are.
function writePart(part: Part): Json {
  const json: Json = {};
  for (const [key, value] of Object.entries(part)) {
    if (key === 'providerMetadata' || value === undefined) continue;
    const inner = typeof value === 'object' && value !== null ? snakeKeys(value as Json) : value;
    setOwn(json, snakeCase(key), inner);
  }
  return json;
}

function snakeKeys(record: object): Json {
  const json: Json = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) setOwn(json, snakeCase(key), value);
  return json;
}

function compact(record: Json): Json {
  const json: Json = {};
  for (const [key, value] of Object.entries(record)) if (value != null) setOwn(json, key, value);
  return json;
}

function withExtra(json: Json, extra: Record<string, unknown> | undefined): Json {
  for (const [key, value] of Object.entries(extra ?? {})) if (value !== null) setOwn(json, key, value);
  return json;
}

function nonEmpty(record: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return record === undefined || Object.keys(record).length === 0 ? undefined : record;
}

function nonEmptyList<T>(list: T[]): T[] | undefined {
  return list.length === 0 ? undefined : list;
}
