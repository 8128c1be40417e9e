import type { Part } from '../../contracts/content.js';
import type {
  AppDetails,
  ConversationScenario,
  EvalCase,
  IntermediateData,
  Invocation,
  InvocationEvent,
  InvocationEvents,
  Rubric,
  SessionInput,
} from '../../contracts/evaluation.js';
import { setOwn } from '../../engine/util/copy-value.js';
import { type JsonReader, describeValue, joinPath } from '../../engine/util/json-reader.js';
import { adkFields, readList, readNumber, readRecord, readString } from './adk-fields.js';
import {
  AGENT_DETAILS,
  APP_DETAILS,
  CONVERSATION_SCENARIO,
  EVAL_CASE,
  INTERMEDIATE_DATA,
  INVOCATION,
  INVOCATION_EVENT,
  INVOCATION_EVENTS,
  RUBRIC,
  RUBRIC_CONTENT,
  SESSION_INPUT,
} from './eval-set-fields.js';
import { readGenaiContent, readGenaiFunctionCall, readGenaiFunctionResponse, readGenaiPart } from './genai-content.js';

// ADK 2.5.0's eval case models (src/google/adk/evaluation/eval_case.py, eval_rubrics.py, app_details.py,
// conversation_scenarios.py), read field for field: the models forbid extra fields except `EvalCase` and
// `SessionInput` (`extra="allow"`, kept in `extra`); a field with a default takes null only where ADK's is `Optional`.

/** An `EvalCase`; `undefined` when it has problems (reported to `reader`). */
export function readEvalCase(reader: JsonReader, value: unknown, path: string): EvalCase | undefined {
  const record = reader.object(value, path, 'an eval case');
  if (record === undefined) return undefined;
  const { values, extra, at } = adkFields(reader, record, path, EVAL_CASE);
  const before = reader.issues.length;
  const evalId = readString(reader, values['evalId'], at('evalId'), { required: true });
  const conversationList = readList(reader, values['conversation'], at('conversation'), { nullable: true });
  const conversation = conversationList?.map((item, index) =>
    readInvocation(reader, item, joinPath(at('conversation'), index)),
  );
  const scenario =
    values['conversationScenario'] == null
      ? undefined
      : readScenario(reader, values['conversationScenario'], at('conversationScenario'));
  // ensure_conversation_xor_conversation_scenario (eval_case.py L174–181).
  if ((values['conversation'] == null) === (values['conversationScenario'] == null))
    reader.issue(path, 'Exactly one of conversation and conversation_scenario must be provided in an EvalCase.');
  const sessionInput =
    values['sessionInput'] == null ? undefined : readSessionInput(reader, values['sessionInput'], at('sessionInput'));
  const creationTimestamp = readNumber(reader, values['creationTimestamp'], at('creationTimestamp')) ?? 0;
  const rubrics = readRubrics(reader, values['rubrics'], at('rubrics'));
  // `final_session_state: Optional[dict] = {}`: absent is {}, null stays absent.
  const finalSessionState =
    values['finalSessionState'] === undefined
      ? {}
      : readRecord(reader, values['finalSessionState'], at('finalSessionState'), { nullable: true });
  if (reader.issues.length > before || evalId === undefined) return undefined;
  return {
    evalId,
    ...(conversation === undefined ? {} : { conversation: conversation as Invocation[] }),
    ...(scenario === undefined ? {} : { conversationScenario: scenario }),
    ...(sessionInput === undefined ? {} : { sessionInput }),
    creationTimestamp,
    ...(rubrics === undefined ? {} : { rubrics }),
    ...(finalSessionState === undefined ? {} : { finalSessionState }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

/** An `Invocation`. */
export function readInvocation(reader: JsonReader, value: unknown, path: string): Invocation | undefined {
  const record = reader.object(value, path, 'an invocation');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, INVOCATION);
  const invocationId = readString(reader, values['invocationId'], at('invocationId')) ?? '';
  const userContent =
    values['userContent'] === undefined
      ? reader.issue(at('userContent'), 'is required (a message)')
      : readGenaiContent(reader, values['userContent'], at('userContent'), 'user');
  const finalResponse =
    values['finalResponse'] == null
      ? undefined
      : readGenaiContent(reader, values['finalResponse'], at('finalResponse'), 'model');
  const intermediateData =
    values['intermediateData'] == null
      ? undefined
      : readIntermediateData(reader, values['intermediateData'], at('intermediateData'));
  const creationTimestamp = readNumber(reader, values['creationTimestamp'], at('creationTimestamp')) ?? 0;
  const rubrics = readRubrics(reader, values['rubrics'], at('rubrics'));
  const appDetails =
    values['appDetails'] == null ? undefined : readAppDetails(reader, values['appDetails'], at('appDetails'));
  if (userContent === undefined) return undefined;
  return {
    invocationId,
    userContent,
    ...(finalResponse === undefined ? {} : { finalResponse }),
    ...(intermediateData === undefined ? {} : { intermediateData }),
    creationTimestamp,
    ...(rubrics === undefined ? {} : { rubrics }),
    ...(appDetails === undefined ? {} : { appDetails }),
  };
}

/**
 * `intermediate_data`: ADK's `Union[IntermediateData, InvocationEvents]`. Pydantic tries both; as both forbid extra
 * fields, a record with `invocation_events` is the second and any other (`{}` included) the first.
 */
function readIntermediateData(
  reader: JsonReader,
  value: unknown,
  path: string,
): IntermediateData | InvocationEvents | undefined {
  const record = reader.object(value, path, 'intermediate data ({ tool_uses, … } or { invocation_events })');
  if (record === undefined) return undefined;
  if ('invocation_events' in record || 'invocationEvents' in record) {
    const { values, at } = adkFields(reader, record, path, INVOCATION_EVENTS);
    const list = readList(reader, values['invocationEvents'], at('invocationEvents')) ?? [];
    const events = list.map((item, index) =>
      readInvocationEvent(reader, item, joinPath(at('invocationEvents'), index)),
    );
    return { invocationEvents: events.filter((event) => event !== undefined) };
  }
  const { values, at } = adkFields(reader, record, path, INTERMEDIATE_DATA);
  const uses = readList(reader, values['toolUses'], at('toolUses')) ?? [];
  const responses = readList(reader, values['toolResponses'], at('toolResponses')) ?? [];
  const intermediate = readList(reader, values['intermediateResponses'], at('intermediateResponses')) ?? [];
  return {
    toolUses: uses
      .map((item, index) => readGenaiFunctionCall(reader, item, joinPath(at('toolUses'), index)))
      .filter((call) => call !== undefined),
    toolResponses: responses
      .map((item, index) => readGenaiFunctionResponse(reader, item, joinPath(at('toolResponses'), index)))
      .filter((response) => response !== undefined),
    intermediateResponses: intermediate
      .map((item, index) => readAuthorParts(reader, item, joinPath(at('intermediateResponses'), index)))
      .filter((entry) => entry !== undefined),
  };
}

// One of `intermediate_responses`: ADK's `tuple[str, list[Part]]`, a two-element list in JSON.
function readAuthorParts(reader: JsonReader, value: unknown, path: string): [string, Part[]] | undefined {
  if (!Array.isArray(value) || value.length !== 2)
    return reader.issue(path, `expected [author, parts], got ${describeValue(value)}`);
  const author = readString(reader, value[0], joinPath(path, 0), { required: true });
  const list = reader.array(value[1], joinPath(path, 1));
  const parts = list?.map((part, index) => readGenaiPart(reader, part, joinPath(joinPath(path, 1), index)));
  if (author === undefined || parts === undefined || parts.some((part) => part === undefined)) return undefined;
  return [author, parts as Part[]];
}

function readInvocationEvent(reader: JsonReader, value: unknown, path: string): InvocationEvent | undefined {
  const record = reader.object(value, path, 'an invocation event ({ author, content })');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, INVOCATION_EVENT);
  const author = readString(reader, values['author'], at('author'), { required: true });
  const content =
    values['content'] == null ? undefined : readGenaiContent(reader, values['content'], at('content'), 'model');
  if (author === undefined) return undefined;
  return content === undefined ? { author } : { author, content };
}

/** A `SessionInput`: app name and user id required, state `{}` by default, extra fields kept. */
export function readSessionInput(reader: JsonReader, value: unknown, path: string): SessionInput | undefined {
  const record = reader.object(value, path, 'a session input ({ app_name, user_id, state })');
  if (record === undefined) return undefined;
  const { values, extra, at } = adkFields(reader, record, path, SESSION_INPUT);
  const appName = readString(reader, values['appName'], at('appName'), { required: true });
  const userId = readString(reader, values['userId'], at('userId'), { required: true });
  const state = values['state'] === undefined ? {} : readRecord(reader, values['state'], at('state'));
  if (appName === undefined || userId === undefined || state === undefined) return undefined;
  return { appName, userId, state, ...(Object.keys(extra).length === 0 ? {} : { extra }) };
}

function readScenario(reader: JsonReader, value: unknown, path: string): ConversationScenario | undefined {
  const record = reader.object(value, path, 'a conversation scenario');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, CONVERSATION_SCENARIO);
  const startingPrompt = readString(reader, values['startingPrompt'], at('startingPrompt'), { required: true });
  const conversationPlan = readString(reader, values['conversationPlan'], at('conversationPlan'), { required: true });
  const persona = values['userPersona'];
  if (persona != null && typeof persona !== 'string')
    readRecord(reader, persona, at('userPersona'), { nullable: true });
  if (startingPrompt === undefined || conversationPlan === undefined) return undefined;
  const userPersona = persona == null ? undefined : (persona as string | Record<string, unknown>);
  return { startingPrompt, conversationPlan, ...(userPersona === undefined ? {} : { userPersona }) };
}

/** `rubrics: Optional[list[Rubric]]`. */
export function readRubrics(reader: JsonReader, value: unknown, path: string): Rubric[] | undefined {
  const list = readList(reader, value, path, { nullable: true });
  if (list === undefined) return undefined;
  const rubrics = list.map((item, index) => readRubric(reader, item, joinPath(path, index)));
  return rubrics.some((rubric) => rubric === undefined) ? undefined : (rubrics as Rubric[]);
}

function readRubric(reader: JsonReader, value: unknown, path: string): Rubric | undefined {
  const record = reader.object(value, path, 'a rubric ({ rubric_id, rubric_content })');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, RUBRIC);
  const rubricId = readString(reader, values['rubricId'], at('rubricId'), { required: true });
  const content = readRecord(reader, values['rubricContent'], at('rubricContent'), { required: true });
  let textProperty: string | undefined;
  if (content !== undefined) {
    const inner = adkFields(reader, content, at('rubricContent'), RUBRIC_CONTENT);
    textProperty = readString(reader, inner.values['textProperty'], inner.at('textProperty'), { nullable: true });
  }
  const description = readString(reader, values['description'], at('description'), { nullable: true });
  const type = readString(reader, values['type'], at('type'), { nullable: true });
  if (rubricId === undefined || content === undefined) return undefined;
  return {
    rubricId,
    rubricContent: textProperty === undefined ? {} : { textProperty },
    ...(description === undefined ? {} : { description }),
    ...(type === undefined ? {} : { type }),
  };
}

function readAppDetails(reader: JsonReader, value: unknown, path: string): AppDetails | undefined {
  const record = reader.object(value, path, 'app details ({ agent_details })');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, APP_DETAILS);
  const byName =
    values['agentDetails'] === undefined ? {} : readRecord(reader, values['agentDetails'], at('agentDetails'));
  if (byName === undefined) return undefined;
  const agentDetails: AppDetails['agentDetails'] = {};
  for (const [key, entry] of Object.entries(byName)) {
    const where = joinPath(at('agentDetails'), key);
    const details = reader.object(entry, where, 'agent details ({ name, instructions, tool_declarations })');
    if (details === undefined) continue;
    const inner = adkFields(reader, details, where, AGENT_DETAILS);
    const name = readString(reader, inner.values['name'], inner.at('name'), { required: true });
    const instructions = readString(reader, inner.values['instructions'], inner.at('instructions')) ?? '';
    const toolDeclarations = readList(reader, inner.values['toolDeclarations'], inner.at('toolDeclarations')) ?? [];
    if (name !== undefined) setOwn(agentDetails, key, { name, instructions, toolDeclarations });
  }
  return { agentDetails };
}
